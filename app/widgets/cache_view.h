// Cache view: the acceptance verdict, misses per step, every lookup with the replay's verdict and
// the miss's cause, the moved components before / after, and the cache's problems (poisoned
// entries, stale handles, holes). Warp module loads join as lookups of their kernel cache
// (core/engine/warp/warp_cache_lookups.h): compiled = miss, cached = hit.
#pragma once

#include "app/models/cache_models.h"

#include <QWidget>

class QLabel;
class QToolButton;
class QTextBrowser;

namespace cs::gui {

class BarChart;
class FilteredTable;

class CacheView : public QWidget {
    Q_OBJECT
public:
    explicit CacheView(QWidget* parent = nullptr);
    void setDocument(const TraceDocument& doc);
    CacheLookupModel* lookups() const { return m_lookups; }
    CacheIssueModel* issues() const { return m_issues; }
    BarChart* chart() const { return m_chart; }
    QString verdict() const;
    QString details() const;
    // Selects the lookup with Lookup::id == id: a cache_lookups.id, or minus a module_loads.id.
    bool showLookup(std::int64_t id);
    // Lookup::id of the selected lookup (a cache_lookups.id, or minus a module_loads.id); meaningful
    // when showInTimelineButton() is enabled.
    std::int64_t selectedLookup() const { return m_selected; }
    QToolButton* showInTimelineButton() const { return m_showInTimeline; }

signals:
    // "Show in timeline" (or Enter / a double click on a lookup): its mark on the timeline.
    void timelineRequested(std::int64_t lookupId);

private:
    QLabel* m_verdict;
    BarChart* m_chart;
    CacheLookupModel* m_lookups;
    CacheIssueModel* m_issues;
    FilteredTable* m_lookupTable;
    QTextBrowser* m_details;
    std::shared_ptr<const engine::CacheAnalysis> m_analysis;
    QToolButton* m_showInTimeline;
    std::int64_t m_selected = -1;
    std::shared_ptr<const engine::CacheAnalysis> m_moduleCache;  // Warp module loads as lookups
};

}  // namespace cs::gui
