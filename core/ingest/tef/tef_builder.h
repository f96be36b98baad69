// Turns Trace Event Format events into trace rows: tracks, spans, span_args, counters, flows.
//
// Why it keeps state: TEF spreads one slice over two events (B ... E), names threads in metadata
// events that may come last, and binds flows to slices by time. The builder holds only what is still
// open: per-thread stacks of unfinished B slices, open async slices, track ids, and flow endpoints
// waiting for their slice. Everything else is written as soon as it is read.
#pragma once

#include "core/ingest/importer.h"
#include "core/formats/tef_event.h"
#include "core/ingest/tef/tef_flows.h"
#include "core/util/saturating.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cs::ingest {

// Where an event is in the file, formatted only when a message needs it.
struct EventPos {
    std::int64_t index = 0;  // position in traceEvents, from 0
    std::string text() const { return "event " + std::to_string(index); }
};

class TefBuilder {
public:
    TefBuilder(ImportContext& ctx, ImportSummary& summary, std::string_view source);

    // One event; `where` locates it for messages.
    void add(const TefEvent& ev, EventPos where);
    // The file said it is a compiler trace (nvcc / NVRTC otherData): uncategorised events are phases.
    void setCompilerTrace() { m_compilerTrace = true; }
    // clang's `beginningOfTime` (microseconds since the Unix epoch): every timestamp of the file is
    // relative to it, so adding it places the file in a build beside the other files of that build.
    // A clang trace is a compiler trace: all its uncategorised events (every pass name) are phases.
    void setTimeOrigin(std::int64_t originNs) {
        m_originNs = originNs;
        m_compilerTrace = true;
    }
    // A "beginningOfTime" member met inside the document (`number`: whether its value is a number).
    // Before the events (a tool other than clang) it serves as the one at the end does, and is stored
    // in `origin`; after them it came too late, or it is out of range: counted, times kept relative.
    void memberBeginningOfTime(bool number, double value, bool sawEvents, std::optional<std::int64_t>& origin);
    // Writes what is still open (B without E) and counts what never bound.
    void finish();

private:
    struct Frame {
        std::string name, cat;
        std::int64_t startNs;
        std::vector<TefArg> args;
        std::string bindId;
        bool flowIn, flowOut, hasBindId;
    };
    struct Track {
        std::int64_t id = 0;   // tracks.id
        std::int64_t local = 0;  // key for the flow binder
        std::vector<Frame> open;
    };
    struct Process {
        std::int64_t trackId = 0;
        bool named = false;
    };

    // Importer-local interning: looks names and keys up without building a std::string, and keeps
    // the category a name implies, so the per-event cost stays a hash lookup.
    struct Interned {
        trace::StringId id = 0;
        int nameCategory = -1;  // category() for this name without a cat; -1 = not computed yet
    };
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    struct PairHash {
        size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const {
            // Unsigned: a pid above ~9.2e12 times the constant must wrap, not overflow (UB).
            return std::hash<std::uint64_t>{}(util::wrapMul(static_cast<std::uint64_t>(p.first), 1000003u) ^
                                              static_cast<std::uint64_t>(p.second));
        }
    };
    Interned& interned(std::string_view s);
    trace::StringId intern(std::string_view s) { return s.empty() ? 0 : interned(s).id; }

    Track& track(const TefEvent& ev);
    Process& process(const TefEvent& ev);
    Track& asyncTrack(const TefEvent& ev);
    int category(const std::string& cat, const std::string& name);
    std::int64_t writeSpan(Track& t, const std::string& name, const std::string& cat, std::int64_t startNs,
                           std::optional<std::int64_t> durNs, const TefArg* args, size_t argCount);
    bool timestamp(const TefEvent& ev, EventPos where, std::int64_t& ns);
    bool summaryTotal(const TefEvent& ev, std::int64_t durNs);
    void complete(const TefEvent& ev, EventPos where);
    void begin(const TefEvent& ev, EventPos where);
    void end(const TefEvent& ev, EventPos where);
    void instant(const TefEvent& ev, EventPos where);
    void counter(const TefEvent& ev, EventPos where);
    void metadata(const TefEvent& ev, EventPos where);
    void flow(const TefEvent& ev, EventPos where);
    void async(const TefEvent& ev, EventPos where);
    void malformed(EventPos where, std::string_view why);
    void covered(std::int64_t startNs, std::int64_t endNs);

    ImportContext& m_ctx;
    ImportSummary& m_summary;
    std::string m_source;
    TefFlowBinder m_flows;
    bool m_compilerTrace = false;
    bool m_anyTime = false;
    std::int64_t m_originNs = 0;
    std::unordered_map<std::string, Track> m_tracks;       // "pid/tid"
    std::unordered_map<std::string, Process> m_processes;  // "pid"
    std::unordered_map<std::string, Track> m_asyncTracks;  // "pid/name"
    std::unordered_map<std::string, Frame> m_openAsync;    // "pid/cat/id/name"
    std::unordered_map<std::string, Interned, StringHash, std::equal_to<>> m_interned;
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, Track*, PairHash> m_numericTracks;
    std::string m_key;  // scratch
    std::int64_t m_nextLocal = 1;
    std::int64_t m_skipped = 0, m_droppedArgs = 0, m_rounded = 0;
    std::string m_skippedExample;
    // Spans whose end lies beyond the int64 nanosecond range: stored with the duration clamped.
    std::int64_t m_clamped = 0;
    std::string m_clampedExample;
    std::optional<std::int64_t> duration(std::int64_t startNs, std::int64_t endNs, EventPos where);
    std::int64_t clampDuration(std::int64_t startNs, std::int64_t durNs, EventPos where);
    trace::StringId m_catKey = 0, m_scopeKey = 0;
};

}  // namespace cs::ingest
