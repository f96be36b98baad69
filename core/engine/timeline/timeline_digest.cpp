#include "core/engine/timeline/timeline_digest.h"

#include "core/engine/timeline/lanes.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/schema.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <map>

namespace cs::engine {

using trace::colInt;

namespace {
constexpr size_t kMaxLanes = 18;

class LaneSet {
public:
    LaneSet(TimelineDigest& t, const CompileSummary& summary) : m_t(t) {
        for (const auto& s : summary.sessions) m_sessions[s.id] = &s;
        m_many = summary.sessions.size() > 1;
        m_clocked = summary.wallClock;
    }
    // Whether the session's facts are drawn, and where (offset) on the display axis.
    const SessionSummary* drawn(std::int64_t session) const {
        auto it = m_sessions.find(session);
        if (it == m_sessions.end()) return nullptr;
        const SessionSummary* s = it->second;
        if (s->base == TimeBase::Untimed || (m_clocked && !isClocked(s->base))) return nullptr;
        return s;
    }
    // `start` in the session's own clock; placed on the display axis here.
    void add(const std::string& what, std::int64_t session, std::int64_t start, std::int64_t dur, bool marks = false) {
        const SessionSummary* s = drawn(session);
        if (!s) return;
        start = util::satAdd(start, s->offsetNs);
        DigestLane& l = laneFor(m_many ? what + " - " + s->label : what, marks);
        ++l.events;
        dur = std::max<std::int64_t>(dur, 0);
        l.busyNs = util::satAdd(l.busyNs, dur);
        const double width = bucketWidth();
        auto bucketOf = [&](std::int64_t ns) {
            double b = (static_cast<double>(ns) - static_cast<double>(m_t.startNs)) / width;
            return static_cast<int>(std::clamp(b, 0.0, static_cast<double>(m_t.buckets - 1)));
        };
        const std::int64_t end = util::satAdd(start, dur);
        int first = bucketOf(start);
        ++l.bucketEvents[static_cast<size_t>(first)];
        int last = bucketOf(end);
        for (int b = first; b <= last; ++b) {
            auto lo = util::satAdd(m_t.startNs, util::clampToInt64(b * width));
            auto hi = util::satAdd(m_t.startNs, util::clampToInt64((b + 1) * width));
            auto overlap = util::satSub(std::min(hi, end), std::max(lo, start));
            if (overlap > 0) l.bucketBusyNs[static_cast<size_t>(b)] = util::satAdd(l.bucketBusyNs[static_cast<size_t>(b)], overlap);
        }
    }
    double bucketWidth() const {
        return std::max(1.0, (static_cast<double>(m_t.endNs) - static_cast<double>(m_t.startNs)) / m_t.buckets);
    }

private:
    DigestLane& laneFor(const std::string& name, bool marks) {
        auto it = m_index.find(name);
        if (it != m_index.end()) return m_t.lanes[it->second];
        std::string key = m_t.lanes.size() < kMaxLanes ? name : "other activity";
        it = m_index.find(key);
        if (it != m_index.end()) {
            m_index[name] = it->second;
            return m_t.lanes[it->second];
        }
        DigestLane l;
        l.name = key;
        l.marks = marks;
        l.bucketBusyNs.assign(static_cast<size_t>(m_t.buckets), 0);
        l.bucketEvents.assign(static_cast<size_t>(m_t.buckets), 0);
        m_t.lanes.push_back(std::move(l));
        m_index[name] = m_index[key] = m_t.lanes.size() - 1;
        return m_t.lanes.back();
    }
    TimelineDigest& m_t;
    std::map<std::int64_t, const SessionSummary*> m_sessions;
    std::map<std::string, size_t> m_index;
    bool m_many = false, m_clocked = false;
};

std::string enumText(std::string_view column, std::int64_t v) {
    return std::string(trace::enumName(column, static_cast<int>(v)));
}
// A runtime lane split by what the report tells apart ("module loads: compiled"): the timeline's
// lane name (lanes.h), then the kind.
std::string split(LaneSource lane, const std::string& kind) { return std::string(laneName(lane)) + ": " + kind; }
}  // namespace

TimelineDigest digestTimeline(const trace::TraceReader& reader, const CompileSummary& summary, int buckets) {
    TimelineDigest t;
    t.buckets = std::max(1, buckets);
    for (const auto& s : summary.sessions)
        if (s.base != TimeBase::Untimed && summary.wallClock && !isClocked(s.base) && s.firstNs)
            t.notDrawn.push_back(s.label);
    if (!summary.spanStartNs || !summary.spanEndNs) return t;
    t.startNs = *summary.spanStartNs;
    t.endNs = std::max(*summary.spanEndNs, util::satAdd(t.startNs, 1));

    LaneSet lanes(t, summary);
    reader.query("SELECT t.session_id, sp.category, sp.start_ns, coalesce(sp.dur_ns, 0) FROM spans sp "
                 "JOIN tracks t ON t.id = sp.track_id",
                 [&](const trace::Row& st) {
                     lanes.add(enumText("category", colInt(st, 1)) + " spans", colInt(st, 0), colInt(st, 2), colInt(st, 3));
                 });
    reader.query("SELECT session_id, result, start_ns, coalesce(dur_ns, 0) FROM module_loads WHERE start_ns IS NOT NULL",
                 [&](const trace::Row& st) {
                     lanes.add(split(LaneSource::ModuleLoads, enumText("module_result", colInt(st, 1))), colInt(st, 0), colInt(st, 2),
                               colInt(st, 3));
                 });
    reader.query("SELECT session_id, api, start_ns, coalesce(dur_ns, 0) FROM cuda_programs", [&](const trace::Row& st) {
        lanes.add(split(LaneSource::CudaPrograms, enumText("cuda_api", colInt(st, 1))), colInt(st, 0), colInt(st, 2), colInt(st, 3));
    });
    reader.query("SELECT session_id, operation, start_ns, coalesce(dur_ns, 0) FROM cuda_jit WHERE start_ns IS NOT NULL",
                 [&](const trace::Row& st) {
                     lanes.add(split(LaneSource::CudaJit, enumText("jit_operation", colInt(st, 1))), colInt(st, 0), colInt(st, 2),
                               colInt(st, 3));
                 });
    reader.query("SELECT session_id, start_ns, coalesce(dur_ns, 0) FROM kernel_launches", [&](const trace::Row& st) {
        lanes.add(laneName(LaneSource::KernelLaunches), colInt(st, 0), colInt(st, 1), colInt(st, 2));
    });
    reader.query("SELECT session_id, tool, start_ns, dur_ns FROM phase_timings WHERE start_ns IS NOT NULL "
                 "AND parent_id IS NULL",
                 [&](const trace::Row& st) {
                     lanes.add(split(LaneSource::PhaseTimings, enumText("phase_tool", colInt(st, 1))), colInt(st, 0), colInt(st, 2), colInt(st, 3));
                 });
    reader.query("SELECT session_id, ts_ns, coalesce(compile_ns, 0) FROM cache_lookups WHERE verdict = " +
                     std::to_string(CS_VERDICT_MISS),
                 [&](const trace::Row& st) { lanes.add("cache misses", colInt(st, 0), colInt(st, 1), colInt(st, 2), true); });
    return t;
}

}  // namespace cs::engine
