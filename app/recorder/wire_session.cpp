#include "wire_session.h"

#include <compilescope/wire_protocol.h>

#include <cstring>
#include <iterator>

namespace cs::recorder {

namespace {
constexpr std::size_t kMaxStrings = 1u << 24;
constexpr std::size_t kMaxTracks = 1u << 20;

template <class T>
T load(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

const char* typeName(std::uint16_t t) {
    static const char* names[] = {"pad", "hello", "string", "track", "thread", "dropped", "goodbye", "arena"};
    if (t < 8) return names[t];
    return t < CS_WIRE_TYPE_END ? "event" : "unknown";
}
}  // namespace

WireSession::WireSession(trace::TraceWriter& writer, ParentLookup parentOf, void* ctx)
    : m_w(writer), m_parentOf(parentOf), m_ctx(ctx) {}

void WireSession::malformed(const std::string& what) {
    m_w.addStat(m_session ? trace::OptInt{m_session} : trace::OptInt{}, "malformed_record", "recorder", 1,
                "pid " + std::to_string(m_pid) + ": " + what);
}

std::ptrdiff_t WireSession::feed(const unsigned char* data, std::size_t n) {
    std::size_t pos = 0;
    while (n - pos >= sizeof(cs_wire_header)) {
        const auto h = load<cs_wire_header>(data + pos);
        if (h.size < sizeof h || h.size % 8 || h.size > CS_WIRE_MAX_MESSAGE) {
            malformed(std::string("message framing broken (size ") + std::to_string(h.size) + "); connection closed");
            return -1;
        }
        if (n - pos < h.size) break;
        if (!m_helloSeen && h.type != CS_WIRE_HELLO) {
            malformed("stream does not start with HELLO; connection closed");
            return -1;
        }
        if (!handle(h.type, h.flags, data + pos, h.size)) return -1;
        if ((h.type == CS_WIRE_PAD || h.type >= CS_WIRE_FIRST_EVENT) && m_currentSlot != CS_ARENA_NO_SLOT)
            m_ringEnds[m_currentSlot] += h.size;  // ring bytes: PAD and events, as the ring holds them
        pos += h.size;
    }
    return static_cast<std::ptrdiff_t>(pos);
}

bool WireSession::hello(const unsigned char* p, std::size_t size) {
    if (m_helloSeen) {
        malformed("second HELLO ignored");
        return true;
    }
    if (size < sizeof(cs_wire_hello)) {
        malformed("HELLO too short; connection closed");
        return false;
    }
    const auto h = load<cs_wire_hello>(p);
    if (h.magic != CS_WIRE_MAGIC || h.version != CS_WIRE_VERSION) {
        malformed("not a CompileScope collector or another protocol version (" + std::to_string(h.version) +
                  "); connection closed");
        return false;
    }
    const std::size_t texts = std::size_t{h.runtime_len} + h.host_len + h.cmdline_len;
    if (sizeof h + texts > size) {
        malformed("HELLO texts overrun the message; connection closed");
        return false;
    }
    const char* t = reinterpret_cast<const char*>(p + sizeof h);
    std::string runtime(t, h.runtime_len), host(t + h.runtime_len, h.host_len),
        cmdline(t + h.runtime_len + h.host_len, h.cmdline_len);
    for (char& c : cmdline)
        if (c == '\0') c = ' ';
    m_pid = h.pid;
    std::int64_t parent = m_parentOf ? m_parentOf(m_ctx, h.ppid) : 0;
    m_session = m_w.addSession({.pid = h.pid, .ppid = h.ppid,
                                .parentSessionId = parent ? trace::OptInt{parent} : trace::OptInt{},
                                .host = host.empty() ? 0 : m_w.intern(host),
                                .cmdline = cmdline.empty() ? 0 : m_w.intern(cmdline),
                                .runtime = m_w.intern(runtime.empty() ? "native" : runtime),
                                .clock = m_w.intern("CLOCK_MONOTONIC"),
                                .startNs = h.start_ns});
    m_unknown = m_w.intern("?");
    m_helloSeen = true;
    return true;
}

trace::StringId WireSession::str(std::uint32_t local) {
    if (local == 0) return 0;
    if (local > m_strings.size() || m_strings[local - 1] == 0) {
        malformed("string id " + std::to_string(local) + " used before its definition");
        return m_unknown;
    }
    return m_strings[local - 1];
}

trace::StringId WireSession::requiredStr(std::uint32_t local) {
    trace::StringId id = str(local);
    if (id == 0) {
        malformed("a required string is missing");
        return m_unknown;
    }
    return id;
}

WireSession::Thread& WireSession::thread() {
    if (!m_current) {
        // Events before any THREAD message: attribute them to a process lane.
        m_current = &m_threads[-1];
        m_current->trackId = m_w.addTrack({.sessionId = m_session, .kind = CS_TRACK_PROCESS, .name = m_w.intern("process")});
    }
    return *m_current;
}

std::int64_t WireSession::track(std::uint32_t local) {
    if (local == 0) return thread().trackId;
    if (local > m_tracks.size() || m_tracks[local - 1] == 0) {
        malformed("track id " + std::to_string(local) + " used before its definition");
        return thread().trackId;
    }
    return m_tracks[local - 1];
}

bool WireSession::handle(std::uint16_t type, std::uint16_t flags, const unsigned char* p, std::size_t size) {
    switch (type) {
    case CS_WIRE_PAD:
        return true;
    case CS_WIRE_HELLO:
        return hello(p, size);
    case CS_WIRE_STRING: {
        if (size < sizeof(cs_wire_string)) break;
        const auto m = load<cs_wire_string>(p);
        if (sizeof m + m.len > size || m.id == 0 || m.id > kMaxStrings) break;
        if (m_recovering && m.id <= m_strings.size() && m_strings[m.id - 1] != 0) return true;
        if (m.id > m_strings.size()) {
            m_strings.resize(m.id, 0);
            m_texts.resize(m.id);
        }
        m_texts[m.id - 1].assign(reinterpret_cast<const char*>(p + sizeof m), m.len);
        m_strings[m.id - 1] = m_w.intern(m_texts[m.id - 1]);
        return true;
    }
    case CS_WIRE_TRACK: {
        if (size != sizeof(cs_wire_track)) break;
        const auto m = load<cs_wire_track>(p);
        if (m.id == 0 || m.id > kMaxTracks) break;
        if (m_recovering && m.id <= m_tracks.size() && m_tracks[m.id - 1] != 0) return true;
        if (m.id > m_tracks.size()) m_tracks.resize(m.id, 0);
        m_tracks[m.id - 1] = m_w.addTrack({.sessionId = m_session, .kind = m.kind, .tid = m.tid, .name = str(m.name)});
        return true;
    }
    case CS_WIRE_THREAD: {
        if (size < sizeof(cs_wire_thread)) break;
        const auto m = load<cs_wire_thread>(p);
        if (sizeof m + m.name_len > size) break;
        auto [it, fresh] = m_threads.try_emplace(m.tid);
        if (fresh) {
            std::string name(reinterpret_cast<const char*>(p + sizeof m), m.name_len);
            if (name.empty()) name = "thread " + std::to_string(m.tid);
            it->second.trackId =
                m_w.addTrack({.sessionId = m_session, .kind = CS_TRACK_THREAD, .tid = m.tid, .name = m_w.intern(name)});
        }
        m_current = &it->second;
        m_currentTid = m.tid;
        m_currentSlot = m.slot;
        if (m.slot != CS_ARENA_NO_SLOT) m_ringEnds[m.slot] = m.ring_pos;
        return true;
    }
    case CS_WIRE_DROPPED: {
        if (size != sizeof(cs_wire_dropped)) break;
        const auto m = load<cs_wire_dropped>(p);
        static const char* reasons[] = {"dropped_buffer_full", "dropped_reentrant", "dropped_oversized",
                                        "dropped_no_recorder"};
        static_assert(std::size(reasons) == CS_DROP_REASONS);
        if (m.reason < CS_DROP_REASONS) m_drops[m.reason] += m.count;
        m_w.addStat(m_session, m.reason < CS_DROP_REASONS ? reasons[m.reason] : "dropped_other", "collector",
                    static_cast<std::int64_t>(m.count));
        return true;
    }
    case CS_WIRE_ARENA:
        // The memfd came as ancillary data (Recorder::readFrom); it is read only if the process dies.
        if (size != sizeof(cs_wire_arena)) break;
        return true;
    case CS_WIRE_GOODBYE: {
        if (size != sizeof(cs_wire_goodbye)) break;
        m_goodbye = true;
        m_endNs = load<cs_wire_goodbye>(p).end_ns;
        return true;
    }
    default:
        if (type >= CS_WIRE_FIRST_EVENT && type < CS_WIRE_TYPE_END) {
            ++m_byType[type - CS_WIRE_FIRST_EVENT];
            event(type, flags, p, size);
            return true;
        }
        malformed("unknown message type " + std::to_string(type) + " skipped");
        return true;
    }
    malformed(std::string("bad ") + typeName(type) + " message (size " + std::to_string(size) + ") skipped");
    return true;
}

void WireSession::writeSpan(Thread& t, std::int64_t trackId, const OpenSpan& s, trace::OptInt dur) {
    t.lastSpanId = m_w.addSpan({.trackId = trackId, .startNs = s.start, .durNs = dur, .category = s.category, .name = s.name});
    t.lastIsOpen = false;
    for (const auto& [k, v] : s.intArgs) m_w.addSpanArg(t.lastSpanId, k, v);
    for (const auto& [k, v] : s.strArgs) m_w.addSpanArg(t.lastSpanId, k, std::string_view(v));
}

bool WireSession::ringEnd(std::uint32_t slot, std::uint64_t& end) const {
    auto it = m_ringEnds.find(slot);
    if (it == m_ringEnds.end()) return false;
    end = it->second;
    return true;
}

void WireSession::finish() {
    if (m_finished || !m_helloSeen) return;
    m_finished = true;
    for (auto& [tid, t] : m_threads)
        for (auto& [localTrack, stack] : t.open) {
            const std::int64_t trackId = localTrack ? track(localTrack) : t.trackId;
            for (const auto& s : stack) writeSpan(t, trackId, s, {});
            stack.clear();
        }
    if (m_goodbye) m_w.endSession(m_session, m_endNs, {});
}

}  // namespace cs::recorder
