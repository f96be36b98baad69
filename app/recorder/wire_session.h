// WireSession: turns the wire byte stream of one recorded process into trace rows.
//
// Why a parser of its own: the socket is untrusted input (docs/practices.md 9). Every message is checked
// against its declared size and the size its fixed part and arrays need; a bad message is counted
// in the trace's `stats` table (malformed_record, with the first example) and skipped, and a stream
// that cannot be re-synchronised (bad framing, no HELLO) is closed. Ids in the stream are local to
// the process (strings, tracks, lookups) and are mapped to trace ids here. Spans opened with
// begin/end are kept on a per-thread, per-track stack and written when they end; spans still open
// when the process goes away are written with dur_ns NULL.
#pragma once

#include "core/trace/writer.h"

#include <compilescope/wire_protocol.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace cs::recorder {

class WireSession {
public:
    // parentOf: maps a parent pid to its session id (0 when the parent is not recorded).
    using ParentLookup = std::int64_t (*)(void* ctx, std::int64_t ppid);
    WireSession(trace::TraceWriter& writer, ParentLookup parentOf, void* ctx);

    // Consumes the complete messages at the front of [data, data + n) and returns how many bytes it
    // used; the rest (a partial message) must be offered again with more bytes. Returns -1 when the
    // stream is broken and the connection must be closed. Writer failures propagate as TraceError.
    std::ptrdiff_t feed(const unsigned char* data, std::size_t n);

    // The process went away (EOF) or the recorder is finishing: writes open spans and drop counts.
    void finish();

    std::int64_t sessionId() const { return m_session; }
    std::int64_t pid() const { return m_pid; }
    bool ended() const { return m_goodbye; }
    std::int64_t endNs() const { return m_endNs; }
    std::int64_t events() const { return m_events; }

    // Where the event bytes received for arena ring `slot` end (wire_protocol.h, THREAD); false when
    // nothing of that ring arrived. The arena drain (arena_drain.h) continues from there.
    bool ringEnd(std::uint32_t slot, std::uint64_t& end) const;
    // Drops of `reason` (cs_drop_reason) the process reported in DROPPED messages, plus those noted
    // as stored from its arena's counters (arena_counters.h).
    std::uint64_t dropsReceived(int reason) const { return m_drops[reason]; }
    // Events received per wire type (index type - CS_WIRE_FIRST_EVENT), stored or not.
    const std::array<std::int64_t, 16>& eventsByType() const { return m_byType; }
    void noteDropsReceived(int reason, std::uint64_t n) { m_drops[reason] += n; }
    // While recovering from a dead process's arena, definitions already received are skipped.
    void setRecovering(bool on) { m_recovering = on; }

private:
    struct OpenSpan {
        std::int64_t start;
        int category;
        trace::StringId name;
        std::vector<std::pair<trace::StringId, std::int64_t>> intArgs;
        std::vector<std::pair<trace::StringId, std::string>> strArgs;
    };
    struct Thread {
        std::int64_t trackId = 0;
        std::unordered_map<std::uint32_t, std::vector<OpenSpan>> open;  // local track -> stack
        std::int64_t lastSpanId = 0;     // last written span, for span args
        std::uint32_t lastOpenTrack = 0; // when the last span is still open: its track
        bool lastIsOpen = false;
    };

    bool handle(std::uint16_t type, std::uint16_t flags, const unsigned char* body, std::size_t size);
    bool hello(const unsigned char* body, std::size_t size);
    void event(std::uint16_t type, std::uint16_t flags, const unsigned char* p, std::size_t size);
    void malformed(const std::string& what);
    void bad(const char* what, std::size_t size);  // "bad WHAT record (size N) skipped"
    // One handler per event type (wire_events.cpp), called by event().
    void onSpanBegin(Thread& t, const unsigned char* p, std::size_t size);
    void onSpanEnd(Thread& t, const unsigned char* p, std::size_t size);
    void onSpanComplete(Thread& t, const unsigned char* p, std::size_t size);
    void onSpanArg(Thread& t, std::uint16_t flags, const unsigned char* p, std::size_t size);
    void onStep(Thread& t, const unsigned char* p, std::size_t size);
    void onCacheLookup(const unsigned char* p, std::size_t size);
    void onClosure(const unsigned char* p, std::size_t size);
    void onCounter(const unsigned char* p, std::size_t size);
    void onMethod(const unsigned char* p, std::size_t size);
    void onInvalidation(const unsigned char* p, std::size_t size);
    void onModuleLoad(const unsigned char* p, std::size_t size);
    void onCudaProgram(const unsigned char* p, std::size_t size);
    void onCudaJit(const unsigned char* p, std::size_t size);
    void onCudaModule(const unsigned char* p, std::size_t size);
    void onKernelLaunch(const unsigned char* p, std::size_t size);
    void onPhaseTiming(const unsigned char* p, std::size_t size);
    trace::StringId str(std::uint32_t local);
    trace::StringId requiredStr(std::uint32_t local);
    std::int64_t track(std::uint32_t local);
    Thread& thread();
    void writeSpan(Thread& t, std::int64_t trackId, const OpenSpan& s, trace::OptInt dur);

    trace::TraceWriter& m_w;
    ParentLookup m_parentOf;
    void* m_ctx;
    std::int64_t m_session = 0, m_pid = 0, m_endNs = 0, m_events = 0;
    bool m_helloSeen = false, m_goodbye = false, m_finished = false;
    std::vector<trace::StringId> m_strings;  // local id - 1 -> trace id
    std::vector<std::string> m_texts;        // local id - 1 -> text (for text span args)
    std::vector<std::int64_t> m_tracks;      // local track - 1 -> trace track id
    std::unordered_map<std::int64_t, Thread> m_threads;
    Thread* m_current = nullptr;
    std::int64_t m_currentTid = 0;
    std::uint32_t m_currentSlot = CS_ARENA_NO_SLOT;
    std::unordered_map<std::uint32_t, std::uint64_t> m_ringEnds;  // arena slot -> received end
    bool m_recovering = false;
    std::uint64_t m_drops[CS_DROP_REASONS] = {};
    std::array<std::int64_t, 16> m_byType{};
    std::unordered_map<std::uint64_t, std::int64_t> m_lookups;
    trace::StringId m_unknown = 0;
};

}  // namespace cs::recorder
