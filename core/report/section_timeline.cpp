// The aggregated timeline: one lane per kind of activity, each reduced to a fixed number of buckets.
//
// Why buckets: a report must stay a few megabytes whatever the trace holds, and a lane drawn at 1000
// pixels cannot show more than 1000 things anyway (STYLE.md 8: never hand a view more items than it
// has pixels). Each event adds the part of its duration that overlaps a bucket to that bucket's busy
// time, and counts in the bucket where it starts; a bucket's shade is its busy fraction, so a burst of
// a million tiny spans and one long compile both stay visible. Instants (cache misses, steps) are
// drawn as ticks. The work is one streaming pass per table with a few integers per event.
#include "sections.h"
#include "sql_row.h"

#include "core/engine/session_clocks.h"
#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace cs::report {

namespace {
constexpr size_t kMaxLanes = 18;

class LaneSet {
public:
    LaneSet(Timeline& t, const engine::SessionClocks& clocks) : m_t(t), m_clocks(clocks) {}
    // `start` in `session`'s own clock; placed on the display axis here.
    void add(const std::string& lane, std::int64_t session, std::int64_t start, std::int64_t dur, bool marks = false) {
        start += m_clocks.offsetOf(session);
        TimelineLane& l = laneFor(lane, marks);
        ++l.events;
        dur = std::max<std::int64_t>(dur, 0);
        l.busyNs += dur;
        const double width = bucketWidth();
        auto bucketOf = [&](std::int64_t ns) {
            double b = static_cast<double>(ns - m_t.startNs) / width;
            return std::clamp(static_cast<int>(b), 0, m_t.buckets - 1);
        };
        int first = bucketOf(start);
        ++l.bucketEvents[static_cast<size_t>(first)];
        int last = bucketOf(start + dur);
        for (int b = first; b <= last; ++b) {
            auto lo = m_t.startNs + static_cast<std::int64_t>(b * width);
            auto hi = m_t.startNs + static_cast<std::int64_t>((b + 1) * width);
            auto overlap = std::min(hi, start + dur) - std::max(lo, start);
            if (overlap > 0) l.bucketBusyNs[static_cast<size_t>(b)] += overlap;
        }
    }
    double bucketWidth() const {
        return std::max(1.0, static_cast<double>(m_t.endNs - m_t.startNs) / m_t.buckets);
    }

private:
    TimelineLane& laneFor(const std::string& name, bool marks) {
        auto it = m_index.find(name);
        if (it != m_index.end()) return m_t.lanes[it->second];
        std::string key = m_t.lanes.size() < kMaxLanes ? name : "other activity";
        it = m_index.find(key);
        if (it != m_index.end()) {
            m_index[name] = it->second;
            return m_t.lanes[it->second];
        }
        TimelineLane l;
        l.name = key;
        l.marks = marks;
        l.bucketBusyNs.assign(static_cast<size_t>(m_t.buckets), 0);
        l.bucketEvents.assign(static_cast<size_t>(m_t.buckets), 0);
        m_t.lanes.push_back(std::move(l));
        m_index[name] = m_index[key] = m_t.lanes.size() - 1;
        return m_t.lanes.back();
    }
    Timeline& m_t;
    const engine::SessionClocks& m_clocks;
    std::map<std::string, size_t> m_index;
};

const std::string kMiss = std::to_string(CS_VERDICT_MISS);
}  // namespace

void collectTimeline(const trace::TraceReader& reader, TraceReport& r, int buckets) {
    Timeline& t = r.timeline;
    t.buckets = std::max(1, buckets);
    // Each clock domain starts at zero (engine/session_clocks.h): a merged trace of recorded and
    // imported sessions is drawn over the length of its work, not over the machine's uptime.
    const engine::SessionClocks& clocks = r.clocks;
    // The extent of everything timed, one aggregate per table and session.
    bool any = false;
    auto extent = [&](const std::string& sql) {
        reader.query(sql, [&](sqlite3_stmt* st) {
            auto lo = colOpt(st, 1), hi = colOpt(st, 2);
            if (!lo || !hi) return;
            const std::int64_t off = clocks.offsetOf(colInt(st, 0));
            if (!any || *lo + off < t.startNs) t.startNs = *lo + off;
            if (!any || *hi + off > t.endNs) t.endNs = *hi + off;
            any = true;
        });
    };
    extent("SELECT t.session_id, min(sp.start_ns), max(sp.start_ns + coalesce(sp.dur_ns, 0)) FROM spans sp "
           "JOIN tracks t ON t.id = sp.track_id GROUP BY t.session_id");
    for (const char* table : {"module_loads", "cuda_programs", "cuda_jit", "kernel_launches"})
        extent(std::string("SELECT session_id, min(start_ns), max(start_ns + coalesce(dur_ns, 0)) FROM ") + table +
               " WHERE start_ns IS NOT NULL GROUP BY session_id");
    extent("SELECT session_id, min(ts_ns), max(ts_ns + coalesce(compile_ns, 0)) FROM cache_lookups WHERE verdict = " +
           kMiss + " GROUP BY session_id");
    extent("SELECT session_id, min(start_ns), max(start_ns + dur_ns) FROM phase_timings WHERE start_ns IS NOT NULL "
           "GROUP BY session_id");
    if (!any) return;
    if (t.endNs <= t.startNs) t.endNs = t.startNs + 1;

    LaneSet lanes(t, clocks);
    std::int64_t sessions = 0;
    reader.query("SELECT count(*) FROM sessions", [&](sqlite3_stmt* st) { sessions = colInt(st, 0); });
    auto laneName = [&](std::string what, std::int64_t session) {
        return sessions > 1 ? what + " (session " + std::to_string(session) + ")" : what;
    };
    reader.query("SELECT t.session_id, sp.category, sp.start_ns, coalesce(sp.dur_ns, 0) FROM spans sp "
                 "JOIN tracks t ON t.id = sp.track_id",
                 [&](sqlite3_stmt* st) {
                     std::string cat(trace::enumName("category", static_cast<int>(colInt(st, 1))));
                     lanes.add(laneName(cat + " spans", colInt(st, 0)), colInt(st, 0), colInt(st, 2), colInt(st, 3));
                 });
    reader.query("SELECT session_id, result, start_ns, coalesce(dur_ns, 0) FROM module_loads WHERE start_ns IS NOT NULL",
                 [&](sqlite3_stmt* st) {
                     std::string res(trace::enumName("module_result", static_cast<int>(colInt(st, 1))));
                     lanes.add(laneName("module loads: " + res, colInt(st, 0)), colInt(st, 0), colInt(st, 2), colInt(st, 3));
                 });
    reader.query("SELECT session_id, api, start_ns, coalesce(dur_ns, 0) FROM cuda_programs", [&](sqlite3_stmt* st) {
        std::string api(trace::enumName("cuda_api", static_cast<int>(colInt(st, 1))));
        lanes.add(laneName(api + " programs", colInt(st, 0)), colInt(st, 0), colInt(st, 2), colInt(st, 3));
    });
    reader.query("SELECT session_id, operation, start_ns, coalesce(dur_ns, 0) FROM cuda_jit WHERE start_ns IS NOT NULL",
                 [&](sqlite3_stmt* st) {
                     std::string op(trace::enumName("jit_operation", static_cast<int>(colInt(st, 1))));
                     lanes.add(laneName("driver JIT " + op, colInt(st, 0)), colInt(st, 0), colInt(st, 2), colInt(st, 3));
                 });
    reader.query("SELECT session_id, start_ns, coalesce(dur_ns, 0) FROM kernel_launches", [&](sqlite3_stmt* st) {
        lanes.add(laneName("kernel launches", colInt(st, 0)), colInt(st, 0), colInt(st, 1), colInt(st, 2));
    });
    reader.query("SELECT session_id, tool, start_ns, dur_ns FROM phase_timings WHERE start_ns IS NOT NULL "
                 "AND parent_id IS NULL",
                 [&](sqlite3_stmt* st) {
                     std::string tool(trace::enumName("phase_tool", static_cast<int>(colInt(st, 1))));
                     lanes.add(laneName(tool + " phases", colInt(st, 0)), colInt(st, 0), colInt(st, 2), colInt(st, 3));
                 });
    reader.query("SELECT session_id, ts_ns, coalesce(compile_ns, 0) FROM cache_lookups WHERE verdict = " + kMiss,
                 [&](sqlite3_stmt* st) {
                     lanes.add(laneName("cache misses", colInt(st, 0)), colInt(st, 0), colInt(st, 1), colInt(st, 2),
                               true);
                 });
}

namespace {
constexpr int kLabelW = 190, kPlotW = 790, kRowH = 22, kAxisH = 24;

void renderLane(HtmlBuilder& h, const Timeline& t, const TimelineLane& l, int row) {
    const int y = kAxisH + row * kRowH;
    const double bw = static_cast<double>(kPlotW) / t.buckets;
    const double nsPerBucket = static_cast<double>(t.endNs - t.startNs) / t.buckets;
    h.open("g", {{"class", l.marks ? "lane marks" : "lane"}, {"data-events", l.events}});
    // Inside SVG, an HTML <span> (HtmlBuilder::shortText) would end the SVG in the HTML parser:
    // a cut label carries its full name in an SVG <title> instead.
    h.open("text", {{"x", kLabelW - 8}, {"y", y + 15}, {"class", "lane-label"}, {"text-anchor", "end"}});
    const std::string label = truncateUtf8(l.name, 30);
    if (label.size() != l.name.size()) h.leaf("title", l.name);
    h.text(label).close();
    h.open("rect", {{"class", "lane-bg"}, {"x", kLabelW}, {"y", y + 2}, {"width", kPlotW}, {"height", kRowH - 4}})
        .close();
    for (int b = 0; b < t.buckets; ++b) {
        auto events = l.bucketEvents[static_cast<size_t>(b)];
        auto busy = l.bucketBusyNs[static_cast<size_t>(b)];
        if (events == 0 && (busy == 0 || l.marks)) continue;
        double frac = std::clamp(static_cast<double>(busy) / nsPerBucket, 0.0, 1.0);
        double x = kLabelW + b * bw;
        if (l.marks) {
            double hgt = std::min(kRowH - 4.0, 6.0 + 3.0 * std::log2(1.0 + static_cast<double>(events)));
            h.open("rect", {{"class", "tick"}, {"x", x + bw / 2 - 1}, {"y", y + kRowH - 2 - hgt}, {"width", 2.0},
                            {"height", hgt}});
        } else {
            h.open("rect", {{"class", "busy"}, {"x", x}, {"y", y + 3.0}, {"width", std::max(bw - 0.3, 0.8)},
                            {"height", kRowH - 6.0}, {"fill-opacity", 0.25 + 0.75 * frac}});
        }
        auto from = static_cast<std::int64_t>(b * nsPerBucket), to = static_cast<std::int64_t>((b + 1) * nsPerBucket);
        h.leaf("title", l.name + ": " + std::to_string(events) + " started, busy " + util::formatDuration(busy) +
                            " (+" + util::formatDuration(from) + " .. +" + util::formatDuration(to) + ")");
        h.close();
    }
    h.close();
}
}  // namespace

void renderTimeline(HtmlBuilder& h, const std::vector<TraceReport>& traces) {
    std::int64_t lanes = 0;
    for (const auto& t : traces) lanes += static_cast<std::int64_t>(t.timeline.lanes.size());
    openSection(h, "timeline", "Timeline", lanes);
    h.leaf("p",
           "Activity per lane, aggregated into buckets; a darker bucket was busier. Ticks mark cache misses. "
           "Hover a bucket for its counts.",
           {{"class", "hint"}});
    for (const auto& tr : traces) {
        traceHeading(h, traces, tr);
        const Timeline& t = tr.timeline;
        if (t.lanes.empty()) {
            emptyNote(h, "No timed activity (spans, module loads, CUDA programs, launches, misses) in this trace.");
            continue;
        }
        const int height = kAxisH + static_cast<int>(t.lanes.size()) * kRowH + 6;
        const int width = kLabelW + kPlotW + 20;
        h.open("svg", {{"class", "timeline"}, {"viewBox", "0 0 " + std::to_string(width) + " " + std::to_string(height)},
                       {"width", width}, {"height", height}, {"role", "img"}, {"data-trace", tr.label},
                       {"data-buckets", t.buckets}});
        h.leaf("title", "Timeline of " + tr.label);
        for (int i = 0; i <= 4; ++i) {
            double x = kLabelW + kPlotW * i / 4.0;
            h.open("line", {{"class", "grid"}, {"x1", x}, {"x2", x}, {"y1", kAxisH - 4}, {"y2", height - 4}}).close();
            h.open("text", {{"class", "axis"}, {"x", x}, {"y", 14},
                            {"text-anchor", i == 0 ? "start" : i == 4 ? "end" : "middle"}})
                .text("+")
                .text(util::formatDuration((t.endNs - t.startNs) * i / 4))
                .close();
        }
        for (size_t i = 0; i < t.lanes.size(); ++i) renderLane(h, t, t.lanes[i], static_cast<int>(i));
        h.close();
        openTable(h, {{"class", "compact lanes"}}, {"lane", "#events", "#busy"});
        for (const auto& l : t.lanes) {
            h.open("tr").open("td").shortText(l.name, 80).close();
            h.leaf("td", std::to_string(l.events), {{"class", "num"}});
            h.leaf("td", util::formatDuration(l.busyNs), {{"class", "num"}});
            h.close();
        }
        h.close().close();
    }
    h.close();
}

}  // namespace cs::report
