#include "core/util/big_alloc.h"

#include <sys/mman.h>

namespace cs::util {

void* bigAllocate(std::size_t bytes) {
#ifdef MAP_POPULATE
    if (bytes >= kBigAllocation) {
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        return p;
    }
#endif
    return ::operator new(bytes);
}

void bigDeallocate(void* p, std::size_t bytes) noexcept {
    if (!p) return;
#ifdef MAP_POPULATE
    if (bytes >= kBigAllocation) {
        munmap(p, bytes);
        return;
    }
#endif
    ::operator delete(p);
}

}  // namespace cs::util
