#include "arena_counters.h"

#include "arena_drain.h"

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <sys/stat.h>

namespace cs::recorder {

namespace {
constexpr const char* kReasons[] = {"dropped_buffer_full", "dropped_reentrant", "dropped_oversized",
                                    "dropped_no_recorder"};
static_assert(std::size(kReasons) == CS_DROP_REASONS);

// Event records of one ring between two positions (a record with a bad size stops the count).
std::uint64_t countRecords(const unsigned char* ring, std::uint64_t capacity, std::uint64_t from, std::uint64_t to) {
    std::uint64_t n = 0;
    for (std::uint64_t pos = from; pos < to;) {
        const std::uint64_t off = pos & (capacity - 1);
        if (capacity - off < sizeof(cs_wire_header)) break;
        cs_wire_header h;
        std::memcpy(&h, ring + off, sizeof h);
        if (h.size < sizeof h || h.size % 8 || h.size > capacity - off) break;
        if (h.type != CS_WIRE_PAD) ++n;
        pos += h.size;
    }
    return n;
}

void readSlots(const unsigned char* base, const cs_arena_header& h, const WireSession& session, ArenaCounters& out) {
    for (std::uint32_t i = 0; i < h.slot_count; ++i) {
        cs_arena_slot s;
        std::memcpy(&s, base + h.slots_offset + std::uint64_t{i} * sizeof s, sizeof s);
        if (s.state != 1) continue;
        for (int why = 0; why < CS_DROP_REASONS; ++why) out.dropped[why] += s.dropped[why];
        std::uint64_t from = s.read, received = 0;
        if (session.ringEnd(i, received) && received > from) from = received;
        if (from < s.write && s.write - from <= h.ring_bytes)
            out.buffered += countRecords(base + h.rings_offset + std::uint64_t{i} * h.ring_bytes, h.ring_bytes, from, s.write);
    }
}
}  // namespace

std::string readArenaCounters(int fd, const WireSession& session, ArenaCounters& out) {
    out = {};
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < static_cast<off_t>(sizeof(cs_arena_header)))
        return "the arena is not a file of a plausible size";
    const auto size = static_cast<std::uint64_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) return std::string("cannot map the arena: ") + std::strerror(errno);
    const auto* base = static_cast<const unsigned char*>(map);
    cs_arena_header h;
    std::memcpy(&h, base, sizeof h);
    std::string problem = checkArenaHeader(h, size);
    if (problem.empty()) {
        for (int why = 0; why < CS_DROP_REASONS; ++why) out.dropped[why] = h.dropped_elsewhere[why];
        if (h.private_published > h.private_done) out.privateLost = h.private_published - h.private_done;
        readSlots(base, h, session, out);
    }
    ::munmap(map, size);
    return problem;
}

std::int64_t storeUnreportedDrops(const ArenaCounters& counters, WireSession& session, trace::TraceWriter& writer) {
    std::int64_t stored = 0;
    for (int why = 0; why < CS_DROP_REASONS; ++why) {
        const std::uint64_t received = session.dropsReceived(why);
        if (counters.dropped[why] <= received) continue;
        const std::uint64_t missing = counters.dropped[why] - received;
        const auto n = static_cast<std::int64_t>(missing > INT64_MAX ? INT64_MAX : missing);
        writer.addStat(session.sessionId(), kReasons[why], "collector", n,
                       "counted by the process while its connection to the recorder was stalled or lost; read from "
                       "its shared arena");
        session.noteDropsReceived(why, missing);
        stored += n;
    }
    return stored;
}

}  // namespace cs::recorder
