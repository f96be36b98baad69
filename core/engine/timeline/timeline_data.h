// TimelineData: everything the timeline draws, read once from a trace into TimelineIndex lanes.
//
// Why one snapshot: the GUI thread must never touch SQLite (docs/architecture.md, Rules; docs/practices.md 5). A worker thread builds
// this immutable object and hands it over; from then on the view only queries memory. Each source
// table with timestamps becomes lanes: spans by their track, and per session one runtime lane for
// module loads, NVRTC / nvJitLink programs, driver JIT, kernel launches and compiler phases. Cache
// lookups (hit / miss) and steps are instant marks per session. The spans table, the only one that
// grows to millions of rows, is read on 2+ connections at once and handed over per track in start
// order (span_scan.h), then placed into index rows reserved to their exact size.
#pragma once

#include "core/engine/common/load_control.h"
#include "core/engine/accounting/session_clocks.h"
#include "core/engine/timeline/lanes.h"
#include "core/engine/timeline/span_scan.h"
#include "core/engine/timeline/string_table.h"
#include "core/engine/timeline/timeline_index.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct TimelineLane {
    std::int64_t sessionId = 0;
    std::int64_t trackId = 0;  // 0 for a runtime lane made from another table
    int trackKind = 0;         // cs_track_kind
    LaneSource source = LaneSource::Spans;
    std::string process;       // session label, e.g. "warp pid 4121"
    std::string name;          // e.g. "thread 4121", "module loads"
    TimelineIndex spans;
};

struct SessionMarks {
    std::int64_t sessionId = 0;
    std::string process;
    MarkIndex lookups;  // flag = the runtime said miss; label = program
    MarkIndex steps;    // label = the step number; rowId = steps.id
    std::size_t outlineLookups = 0;  // an outline's lookups (loadTimelineOutline), none read
};

struct TimelineData {
    // Display offsets per session (session_clocks.h). Non-zero only when the trace mixes a machine
    // clock with sessions that count from their own zero; then every timestamp in this snapshot is
    // raw + offsetOf(session), and raw times from elsewhere (findings) are mapped with displayNs().
    SessionClocks clocks;
    StringTable strings;
    std::vector<TimelineLane> lanes;
    std::vector<SessionMarks> marks;
    std::int64_t minNs = 0, maxNs = 0;  // extent of everything with a timestamp
    std::size_t events = 0;             // spans + marks indexed
    std::size_t clipped = 0;            // spans clipped for nesting deeper than kMaxDepth
    // Where sessions of durations laid end to end (TimeBase::Sequence) begin when the trace also
    // holds clocked work: they are drawn after it, never under it as if they ran at the same time.
    std::optional<std::int64_t> sequenceFromNs;

    // What each span of a time trace worked on (TEF args.detail: the header, template, function or
    // pass), for the details pane and search: span ids ascending, beside their detail's string id.
    // Read only for sessions a TEF import wrote (no other source has details), so a recorded trace
    // of millions of spans pays nothing.
    std::vector<std::int64_t> detailSpans;
    std::vector<std::uint32_t> detailStrings;
    // Spans without a time, ids ascending: the tool printed none (a --trace-compile statement without
    // timing, a TORCH_LOGS recompile: span arg "untimed") or the span never ended. Search says "time
    // not recorded" for them, never "0 ns", and only for them: a 0.0 ms statement is 0 ns (issue 35).
    std::vector<std::int64_t> untimedSpans;
    bool untimed(std::int64_t spanId) const;
    // An outline (loadTimelineOutline): sessions and lanes, and how many events each session holds
    // (spans, runtime rows, lookups), none read.
    bool outline = false;
    std::map<std::int64_t, std::size_t> outlineEvents;  // by session id
    std::size_t outlineEventsOf(std::int64_t sessionId) const {
        auto it = outlineEvents.find(sessionId);
        return it == outlineEvents.end() ? 0 : it->second;
    }

    std::string_view str(std::int64_t id) const { return strings.get(id); }
    // The detail string id of span `spanId` (a row id of a Spans lane), 0 when it has none.
    std::uint32_t detailOf(std::int64_t spanId) const;
    std::int64_t displayNs(std::optional<std::int64_t> sessionId, std::int64_t rawNs) const {
        return sessionId ? rawNs + clocks.offsetOf(*sessionId) : rawNs;
    }
    std::size_t allocatedBytes() const;
};

// Reads the whole trace: spans with the parallel scan of span_scan.h, the other tables whole.
// Progress 0..100; throws LoadCancelled or trace::TraceError. With `keep`, the scan's sorted tracks
// are handed over too, so the compile summary can fold the same spans without reading them again
// (after the timeline is published: the first paint waits on nothing else).
TimelineData loadTimeline(const trace::TraceReader& reader, const LoadControl& control = {}, SpanTracks* keep = nullptr);

// The outline of a trace: its sessions and lanes as loadTimeline names them, how many events each
// session holds (outlineEvents; SessionMarks::outlineLookups) and the extent, but no event read. Why:
// 256 rank traces of 100k events take tens of seconds to read whole, and a user who opens them wants
// the ranks on screen at once (collapsed, one header each) while they load. Bounded work: two lookups
// per track on the (track_id, start_ns) index (its first and last span: whether it has any, and the
// extent); the spans counted by their highest id when one session holds them all (a rank's trace:
// exact for a trace CompileScope wrote, whose ids have no gaps; a count by track otherwise); a grouped count of the small runtime tables and of the lookups.
// The extent ends at the end of each lane's last-starting span, so it can fall short of the full
// load's (a long span that starts earlier); a session's count includes spans whose track row is
// missing (a damaged trace, which the full load leaves out). The timeline refits when the full
// snapshot replaces the outline. Throws LoadCancelled or trace::TraceError.
TimelineData loadTimelineOutline(const trace::TraceReader& reader, const LoadControl& control = {});

// "warp pid 4121", "import: nvcc-time.csv": how a session is named on lanes and in tables.
std::string sessionLabel(const trace::TraceReader& reader, std::int64_t sessionId);

}  // namespace cs::engine
