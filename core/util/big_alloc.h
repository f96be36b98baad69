// Memory for arrays of millions of elements, mapped and populated in one system call.
//
// Why: the viewer builds ~600 MB of arrays while it opens a 10M-event trace. On the virtual
// machines we measured (bench_gui_timeline), touching fresh pages one fault at a time cost ~5 ms
// per MB, more than reading the rows from SQLite; mapping them with MAP_POPULATE costs well under
// half of that. Arrays under 1 MiB (and every array on systems without MAP_POPULATE) come from
// operator new as usual, so small traces and tiny lanes cost nothing extra.
#pragma once

#include <cstddef>
#include <new>

namespace cs::util {

constexpr std::size_t kBigAllocation = std::size_t{1} << 20;

// `bytes` >= kBigAllocation: populated anonymous mapping; otherwise operator new. Throws
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
