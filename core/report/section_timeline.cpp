// The aggregated timeline: the engine's digest (engine/timeline/timeline_digest.h), one lane per
// kind of activity, each reduced to a fixed number of buckets, drawn as inline SVG.
#include "core/report/sections.h"

#include "core/util/saturating.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace cs::report {

namespace {
constexpr int kLabelW = 190, kPlotW = 790, kRowH = 22, kAxisH = 24;

void renderLane(HtmlBuilder& h, const Timeline& t, const TimelineLane& l, int row) {
    const int y = kAxisH + row * kRowH;
    const double bw = static_cast<double>(kPlotW) / t.buckets;
    const double nsPerBucket = (static_cast<double>(t.endNs) - static_cast<double>(t.startNs)) / t.buckets;
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
        auto from = util::clampToInt64(b * nsPerBucket), to = util::clampToInt64((b + 1) * nsPerBucket);
        h.leaf("title", l.name + ": " + std::to_string(events) + " started, busy " + util::formatDuration(busy) +
                            " (" + util::formatOffset(from) + " .. " + util::formatOffset(to) + ")");
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
        if (!t.notDrawn.empty()) {
            std::string names;
            for (size_t i = 0; i < t.notDrawn.size() && i < 8; ++i) names += (i ? ", " : "") + t.notDrawn[i];
            if (t.notDrawn.size() > 8) names += ", ...";
            h.leaf("p", std::to_string(t.notDrawn.size()) +
                            " session(s) without timestamps (durations laid end to end) are not drawn beside the "
                            "clocked work: " + names + ". Their compile time is in the summary.",
                   {{"class", "hint not-drawn"}});
        }
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
                .text(util::formatOffset(util::satSub(t.endNs, t.startNs) / 4 * i))
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
