#include "arena_drain.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <sys/stat.h>
#include <vector>

namespace cs::recorder {

namespace {
constexpr std::uint64_t kMaxArena = std::uint64_t{1} << 34;  // 1 GiB of rings + log, with room
constexpr std::uint32_t kMaxSlots = 1u << 16;

template <class T>
void append(std::vector<unsigned char>& out, const T& v) {
    const auto* b = reinterpret_cast<const unsigned char*>(&v);
    out.insert(out.end(), b, b + sizeof v);
}

bool within(std::uint64_t offset, std::uint64_t count, std::uint64_t item, std::uint64_t size) {
    std::uint64_t bytes = 0, end = 0;
    return !__builtin_mul_overflow(count, item, &bytes) && !__builtin_add_overflow(offset, bytes, &end) && end <= size;
}


// The unsent bytes of one ring as a THREAD message and ring bytes; false when they are not whole.
bool appendRing(std::vector<unsigned char>& out, const unsigned char* ring, std::uint64_t capacity, std::uint32_t slot,
                const cs_arena_slot& s, std::uint64_t from) {
    const std::uint64_t end = s.write;
    if (from > end || end - from > capacity || from % 8) return false;
    const std::size_t nameLen = strnlen(s.name, sizeof s.name);
    cs_wire_thread th{{CS_WIRE_THREAD, 0, static_cast<std::uint32_t>(sizeof th + CS_WIRE_ALIGN(nameLen))}, s.tid, from,
                      static_cast<std::uint32_t>(nameLen), slot};
    append(out, th);
    out.insert(out.end(), s.name, s.name + nameLen);
    out.resize(out.size() + (CS_WIRE_ALIGN(nameLen) - nameLen), 0);
    for (std::uint64_t pos = from; pos < end;) {
        const std::uint64_t off = pos & (capacity - 1);
        const std::uint64_t n = std::min(end - pos, capacity - off);
        out.insert(out.end(), ring + off, ring + off + n);
        pos += n;
    }
    for (std::uint32_t why = 0; why < CS_DROP_REASONS; ++why)
        if (s.dropped[why] > s.dropped_sent[why])
            append(out, cs_wire_dropped{{CS_WIRE_DROPPED, 0, sizeof(cs_wire_dropped)}, s.dropped[why] - s.dropped_sent[why], why, 0});
    return true;
}
}  // namespace

std::string checkArenaHeader(const cs_arena_header& h, std::uint64_t size) {
    if (h.magic != CS_ARENA_MAGIC || h.version != CS_ARENA_VERSION) return "not an arena of this version";
    if (h.slot_bytes != sizeof(cs_arena_slot) || h.slot_count > kMaxSlots) return "bad slot table";
    if (h.ring_bytes < 4096 || (h.ring_bytes & (h.ring_bytes - 1))) return "bad ring size";
    if (!within(h.slots_offset, h.slot_count, sizeof(cs_arena_slot), size) || h.slots_offset % 8 ||
        !within(h.log_offset, h.log_capacity, 1, size) || h.log_used > h.log_capacity ||
        !within(h.rings_offset, h.slot_count, h.ring_bytes, size))
        return "regions outside the file";
    return "";
}

DrainResult drainArena(int fd, WireSession& session) {
    DrainResult r;
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < static_cast<off_t>(sizeof(cs_arena_header)) ||
        static_cast<std::uint64_t>(st.st_size) > kMaxArena) {
        r.problem = "the arena is not a file of a plausible size";
        return r;
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        r.problem = std::string("cannot map the arena: ") + std::strerror(errno);
        return r;
    }
    const auto* base = static_cast<const unsigned char*>(map);
    cs_arena_header h;
    std::memcpy(&h, base, sizeof h);
    r.problem = checkArenaHeader(h, size);
    std::vector<unsigned char> out;
    if (r.problem.empty()) {
        // Definitions first: the recovered events may use ids the recorder has not seen yet.
        out.assign(base + h.log_offset, base + h.log_offset + h.log_used);
        for (std::uint32_t i = 0; i < h.slot_count; ++i) {
            cs_arena_slot s;
            std::memcpy(&s, base + h.slots_offset + std::uint64_t{i} * sizeof s, sizeof s);
            if (s.state != 1) continue;
            std::uint64_t from = s.read, received = 0;
            if (session.ringEnd(i, received) && received > from) from = received;
            if (from == s.write && std::memcmp(s.dropped, s.dropped_sent, sizeof s.dropped) == 0) continue;
            if (!appendRing(out, base + h.rings_offset + std::uint64_t{i} * h.ring_bytes, h.ring_bytes, i, s, from))
                ++r.lostRings;
        }
    }
    ::munmap(map, size);
    if (!r.problem.empty()) return r;
    const std::int64_t before = session.events();
    session.setRecovering(true);
    session.feed(out.data(), out.size());
    session.setRecovering(false);
    r.events = session.events() - before;
    return r;
}

}  // namespace cs::recorder
