// SPDX-License-Identifier: MIT
// The shared-memory arena (arena.h): layout, slots and the definition log.
#include "arena.h"

#include <cstring>
#include <new>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

namespace cs::collector {

namespace {
constexpr std::size_t kPage = 4096;
std::size_t pageAlign(std::size_t n) { return (n + kPage - 1) & ~(kPage - 1); }
}  // namespace

static_assert(sizeof(cs_arena_header) == 128 && sizeof(cs_arena_slot) == 128);

Arena* Arena::create(std::size_t ringBytes, std::uint32_t slots, std::size_t logBytes) {
    const std::size_t slotsOffset = sizeof(cs_arena_header);
    const std::size_t logOffset = pageAlign(slotsOffset + std::size_t{slots} * sizeof(cs_arena_slot));
    const std::size_t ringsOffset = pageAlign(logOffset + logBytes);
    const std::size_t size = ringsOffset + std::size_t{slots} * ringBytes;
    // Growing a file past RLIMIT_FSIZE raises SIGXFSZ, which would kill the host: no arena then.
    rlimit fsize{};
    if (::getrlimit(RLIMIT_FSIZE, &fsize) == 0 && fsize.rlim_cur != RLIM_INFINITY && fsize.rlim_cur < size) return nullptr;
    const int fd = ::memfd_create("compilescope-arena", MFD_CLOEXEC);
    if (fd < 0) return nullptr;
    if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
        ::close(fd);
        return nullptr;
    }
    void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        ::close(fd);
        return nullptr;
    }
    auto* a = new (std::nothrow) Arena(fd, static_cast<unsigned char*>(base), size);
    if (!a) {
        ::munmap(base, size);
        ::close(fd);
        return nullptr;
    }
    cs_arena_header& h = *a->m_header;
    h.slot_count = slots;
    h.slot_bytes = sizeof(cs_arena_slot);
    h.ring_bytes = ringBytes;
    h.log_offset = logOffset;
    h.log_capacity = logBytes;
    h.rings_offset = ringsOffset;
    h.slots_offset = slotsOffset;
    h.version = CS_ARENA_VERSION;
    __atomic_store_n(&h.magic, CS_ARENA_MAGIC, __ATOMIC_RELEASE);
    return a;
}

Arena::Arena(int fd, unsigned char* base, std::size_t size)
    : m_fd(fd), m_base(base), m_size(size), m_header(reinterpret_cast<cs_arena_header*>(base)) {}

Arena::~Arena() {
    ::munmap(m_base, m_size);
    ::close(m_fd);
}

cs_arena_slot* Arena::slot(std::uint32_t i) const {
    return reinterpret_cast<cs_arena_slot*>(m_base + m_header->slots_offset) + i;
}

unsigned char* Arena::ring(std::uint32_t i) const { return m_base + m_header->rings_offset + i * m_header->ring_bytes; }

std::uint32_t Arena::acquireSlot(std::int64_t tid, const char* name) {
    for (std::uint32_t i = 0; i < m_header->slot_count; ++i) {
        cs_arena_slot* s = slot(i);
        if (__atomic_load_n(&s->state, __ATOMIC_RELAXED) != 0) continue;
        // Positions carry on from the slot's last thread (the recorder tracks positions per slot);
        // both are equal here, the previous ring was drained. Its drops were reported (or, with no
        // recorder, can never be), so the counters start again.
        std::memset(s->dropped, 0, sizeof s->dropped);
        std::memset(s->dropped_sent, 0, sizeof s->dropped_sent);
        s->tid = tid;
        std::memcpy(s->name, name, sizeof s->name);
        __atomic_store_n(&s->state, 1u, __ATOMIC_RELEASE);
        return i;
    }
    return CS_ARENA_NO_SLOT;
}

void Arena::releaseSlot(std::uint32_t i) { __atomic_store_n(&slot(i)->state, 0u, __ATOMIC_RELEASE); }

bool Arena::appendLog(const unsigned char* message, std::size_t n) {
    const std::uint64_t used = m_header->log_used;
    if (used + n > m_header->log_capacity) return false;
    std::memcpy(m_base + m_header->log_offset + used, message, n);
    __atomic_store_n(&m_header->log_used, used + n, __ATOMIC_RELEASE);
    return true;
}

void Arena::copyLogFrom(const Arena& parent) {
    const std::uint64_t n = __atomic_load_n(&parent.m_header->log_used, __ATOMIC_ACQUIRE);
    if (n > m_header->log_capacity) return;
    std::memcpy(m_base + m_header->log_offset, parent.m_base + parent.m_header->log_offset, n);
    __atomic_store_n(&m_header->log_used, n, __ATOMIC_RELEASE);
}

}  // namespace cs::collector
