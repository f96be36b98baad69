// Hover tooltips of the timeline: what a span, a fold of spans or a cache-lookup mark is, with
// durations in adaptive units. Kept apart from the painting code; nothing here runs on a repaint.
#include "timeline_plot.h"

#include "time_axis.h"
#include "app/models/text.h"
#include "core/engine/analysis/row_story.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <optional>

namespace cs::gui {

namespace {
QString nsText(std::int64_t ns) { return secondsText(static_cast<double>(ns) * 1e-9); }

// What a span's category says about how the work ended: compiled, or taken from a cache.
QString outcomeOf(int category) {
    switch (category) {
    case CS_CAT_COMPILE: return QStringLiteral("compiled");
    case CS_CAT_CACHE_LOAD: return QStringLiteral("loaded from a cache");
    case CS_CAT_LINK: return QStringLiteral("linked");
    default: return {};
    }
}
}  // namespace

QString TimelinePlot::tooltipAt(QPoint pos) const { return tooltipText(hitAt(pos)); }

QString TimelinePlot::storyText(const TimelineSelection& s) const {
    if (!s.valid() || !m_analysesOf) return {};
    const AnalysesPtr a = m_analysesOf(s.source);
    if (!a || !a->trace) return {};
    const engine::TimelineData& d = *m_sources[static_cast<std::size_t>(s.source)].data;
    std::optional<engine::RowStory> story;
    if (s.lane < 0 && s.mark.count == 1) {
        story = engine::lookupStory(*a->trace, s.mark.rowId);
    } else if (s.lane >= 0 && s.item.count == 1) {
        const engine::TimelineLane& lane = d.lanes[static_cast<std::size_t>(s.lane)];
        const std::int64_t off = d.clocks.offsetOf(lane.sessionId);
        if (lane.source == engine::LaneSource::ModuleLoads) story = engine::moduleLoadStory(*a->trace, s.item.rowId);
        else if (lane.source == engine::LaneSource::LookupCompiles) story = engine::lookupStory(*a->trace, s.item.rowId);
        else if (s.item.category == CS_CAT_COMPILE)
            story = engine::compileCauseStory(*a->trace, lane.sessionId, s.item.startNs - off, s.item.endNs - off);
    }
    if (!story) return {};
    QString text = qs(story->headline);
    for (const std::string& line : story->lines) text += QLatin1Char('\n') + qs(line);
    return text;
}

QString TimelinePlot::tooltipText(const TimelineSelection& s) const {
    if (!s.valid()) return {};
    const engine::TimelineData& d = *m_sources[static_cast<std::size_t>(s.source)].data;
    auto at = [&](std::int64_t ns) { return QStringLiteral("at +%1").arg(nsText(ns - d.minNs)); };
    if (s.lane < 0) {
        const engine::SessionMarks& sm = d.marks[static_cast<std::size_t>(s.marks)];
        if (s.mark.count > 1)
            return QStringLiteral("%1 cache lookups, %2 misses, %3 hits\nfrom %4\n%5")
                .arg(s.mark.count).arg(s.mark.flagged).arg(s.mark.count - s.mark.flagged)
                .arg(at(s.mark.tsNs), qs(sm.process));
        const QString story = storyText(s);
        return QStringLiteral("cache lookup of %1, %2\n%3\n%4")
            .arg(qs(d.str(s.mark.label)), at(s.mark.tsNs),
                 story.isEmpty() ? (s.mark.flagged ? QStringLiteral("miss") : QStringLiteral("hit")) : story, qs(sm.process));
    }
    const engine::TimelineLane& lane = d.lanes[static_cast<std::size_t>(s.lane)];
    const engine::TimelineItem& it = s.item;
    const QString where = laneLabel(s.source, s.lane);
    if (it.count > 1) {
        const auto fold = lane.spans.summarize(it.depth, it.startNs, it.endNs);
        QString text = QStringLiteral("%1 items folded, %2 busy over %3\n%4")
                           .arg(groupedCount(static_cast<std::int64_t>(it.count)), nsText(fold.busyNs),
                                nsText(cs::util::satSub(it.endNs, it.startNs)), at(it.startNs));
        if (!fold.top.empty()) {
            text += fold.scanned < fold.count ? QStringLiteral("\nlongest of the first %1:").arg(groupedCount(static_cast<std::int64_t>(fold.scanned)))
                                              : QStringLiteral("\nlongest:");
            for (const auto& n : fold.top)
                text += QStringLiteral("\n  %1 × %2, %3").arg(qs(d.str(n.name))).arg(n.count).arg(nsText(n.ns));
        }
        return text + QStringLiteral("\n(zoom in to see them)\n") + where;
    }
    QString text = QStringLiteral("%1\n%2, %3 %4").arg(qs(d.str(it.name)), categoryName(it.category),
                                                       nsText(cs::util::satSub(it.endNs, it.startNs)), at(it.startNs));
    const QString story = storyText(s);
    const QString outcome = outcomeOf(it.category);
    if (!outcome.isEmpty()) text += QStringLiteral("\noutcome: ") + outcome;
    if (!story.isEmpty()) text += QLatin1Char('\n') + story;
    return text + QLatin1Char('\n') + where;
}

}  // namespace cs::gui
