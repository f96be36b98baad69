// Memory for arrays of millions of elements: transparent huge pages where the kernel grants them on
// request, else mapped and populated in one system call.
//
// Why: the viewer builds ~600 MB of arrays while it opens a 10M-event trace, ~6 GB (read parts,
// then the index) at 100M. On the virtual machines we measured (bench_gui_timeline), touching fresh
// 4 KiB pages one fault at a time cost ~5 ms per MB, more than reading the rows from SQLite; mapping
// them with MAP_POPULATE cost under half of that, and was still a sixth of a 100M-event open's CPU
// (clear_page under the faults). An array of 2 MiB or more now starts on a 2 MiB boundary and is
// marked MADV_HUGEPAGE: one fault per 2 MiB, no populate pass. The 100M-event open went from
// 25.5-26.7 s to 16.9-18.9 s (2026-12-02). With transparent huge pages "never" (or no sysfs), the
// populated 4 KiB mapping as before. Arrays under 1 MiB (and every array on systems without
// MAP_POPULATE) come from operator new as usual, so small traces and tiny lanes cost nothing extra.
#pragma once

#include <cstddef>
#include <new>

namespace cs::util {

constexpr std::size_t kBigAllocation = std::size_t{1} << 20;
constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Whether the kernel backs a region with transparent huge pages when asked (madvise), read once.
// "never" (or no such file: another kernel, a container without sysfs) keeps 4 KiB pages.
bool hugePagesOnRequest();

// `bytes` >= kBigAllocation: an anonymous mapping (huge-page aligned and advised from 2 MiB on, where
// the kernel allows it; else populated); otherwise operator new. Throws
// std::bad_alloc. Free with bigDeallocate and the same size.
void* bigAllocate(std::size_t bytes);
void bigDeallocate(void* p, std::size_t bytes) noexcept;

// A std allocator over bigAllocate, for std::vector columns reserved to their exact size.
template <typename T>
struct BigAllocator {
    using value_type = T;
    BigAllocator() = default;
    template <typename U>
    BigAllocator(const BigAllocator<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(bigAllocate(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) noexcept { bigDeallocate(p, n * sizeof(T)); }
    template <typename U>
    bool operator==(const BigAllocator<U>&) const { return true; }
};

}  // namespace cs::util
