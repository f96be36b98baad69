// bigAllocate: the arrays of a big trace's index (core/util/big_alloc.h). Huge-page alignment is
// what makes a 100M-event open fast on the machines we measured, and a wrong trim of the over-mapped
// head or tail would leave memory mapped or unmap a neighbour.
#include "core/util/big_alloc.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <new>
#include <sys/mman.h>

namespace {

// Whether any byte of the page holding `p` is still mapped in this process.
bool mapped(const void* p) {
    auto page = reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t{4095};
    return msync(reinterpret_cast<void*>(page), 4096, MS_ASYNC) == 0 || errno != ENOMEM;
}

TEST(BigAlloc, EveryByteIsUsableAndTheWholeRangeIsFreed) {
    if (!cs::util::hugePagesOnRequest())
        std::printf("transparent huge pages are off here: the populated 4 KiB path is tested, alignment is not\n");
    for (std::size_t bytes : {std::size_t{1000}, std::size_t{1} << 20, std::size_t{2} << 20, (std::size_t{3} << 20) + 1,
                              (std::size_t{64} << 20) + 12345}) {
        SCOPED_TRACE(bytes);
        auto* p = static_cast<unsigned char*>(cs::util::bigAllocate(bytes));
        ASSERT_NE(p, nullptr);
        std::memset(p, 0xA5, bytes);
        EXPECT_EQ(p[0], 0xA5);
        EXPECT_EQ(p[bytes / 2], 0xA5);
        EXPECT_EQ(p[bytes - 1], 0xA5);
        if (bytes >= cs::util::kHugePage && cs::util::hugePagesOnRequest()) {
            EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % cs::util::kHugePage, 0u) << "not on a huge-page boundary";
        }
        cs::util::bigDeallocate(p, bytes);
        if (bytes >= cs::util::kBigAllocation) {
            EXPECT_FALSE(mapped(p)) << "the first page is still mapped";
            EXPECT_FALSE(mapped(p + bytes - 1)) << "the last page is still mapped";
        }
    }
}

TEST(BigAlloc, ArraysOfOneHugePageOrMoreDoNotOverlap) {
    constexpr std::size_t kBytes = (std::size_t{4} << 20) + 4096;
    auto* a = static_cast<unsigned char*>(cs::util::bigAllocate(kBytes));
    auto* b = static_cast<unsigned char*>(cs::util::bigAllocate(kBytes));
    std::memset(a, 1, kBytes);
    std::memset(b, 2, kBytes);
    for (std::size_t i = 0; i < kBytes; i += 4096) {
        ASSERT_EQ(a[i], 1) << i;
        ASSERT_EQ(b[i], 2) << i;
    }
    cs::util::bigDeallocate(a, kBytes);
    EXPECT_EQ(b[0], 2);
    EXPECT_EQ(b[kBytes - 1], 2);
    cs::util::bigDeallocate(b, kBytes);
}

TEST(BigAlloc, ASizeNoMappingCanHoldIsRefused) {
    EXPECT_THROW(cs::util::bigAllocate(SIZE_MAX - 4096), std::bad_alloc);
    EXPECT_THROW(cs::util::bigAllocate(SIZE_MAX / 2), std::bad_alloc);
}

}  // namespace
