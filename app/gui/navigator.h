// Navigator: owns the jumps between the window's views. A view asks for a place (a typed NavTarget:
// which view, which row) and the navigator shows that view with that row selected; findings,
// evidence, the Build view's spans, cache lookups and search hits all go through it.
//
// Why typed targets: each jump used to be written out where it was asked for, each with its own idea
// of which table a row id belongs to. A NavTarget names the view and the row once, so the finding's
// evidence, a rank's evidence and a timeline mark reach a row by the same path.
#pragma once

#include "core/engine/common/finding.h"
#include "core/engine/timeline/timeline_data.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

class QTabWidget;
class QWidget;

namespace cs::gui {

class CacheView;
class DocumentSet;
class FindingsView;
class InvalidationsView;
class ModulesView;
class OverviewView;
class SearchView;
class TimelineView;
struct SearchRow;

// A place in one of the views: the view, and the row it selects there.
struct NavTarget {
    enum class View { Overview, Timeline, Findings, Cache, Modules, Invalidations, Search };
    View view = View::Overview;
    // Cache: a lookup's Lookup::id; Modules: a module_loads.id; Invalidations: a tree's number from 1;
    // Findings: a finding's index; Timeline: the row id of a lane of kind `lane`; else unused.
    std::int64_t rowId = 0;
    engine::LaneSource lane = engine::LaneSource::Spans;  // Timeline only
};

// The place where the view that lists evidence row `e` shows it; none for a table no view lists.
std::optional<NavTarget> targetOf(const engine::Evidence& e);

// The views the navigator moves between (owned by the window's tabs).
struct NavViews {
    QTabWidget* tabs = nullptr;
    OverviewView* overview = nullptr;
    TimelineView* timeline = nullptr;
    FindingsView* findings = nullptr;
    SearchView* search = nullptr;
    CacheView* cache = nullptr;
    ModulesView* modules = nullptr;
    InvalidationsView* invalidations = nullptr;
};

class Navigator {
public:
    // `selectDocument` makes an open trace the current one (the chooser and the tables follow);
    // `say` puts a sentence on the status line when a place cannot be shown.
    Navigator(const DocumentSet& docs, NavViews views, std::function<void(int)> selectDocument,
              std::function<void(const QString&)> say);

    // Selects the row of `t` in its view without showing that view (the Timeline is shown, as its
    // selection scrolls); returns the view, or null when it holds no such row.
    QWidget* select(const NavTarget& t);
    // Selects the row of `t` and shows its view; false when the view holds no such row.
    bool go(const NavTarget& t);
    // Shows trace `doc` (a rank) at `t`, or only makes it current when `t` is empty.
    void goInDocument(int doc, const std::optional<NavTarget>& t);

    // Finding `index` of the current trace: its evidence rows and its timeline range; without a
    // range, the view of its first evidence row.
    void activateFinding(int index);
    // Evidence row `evidence` of finding `finding` of the current trace, in the view that lists it.
    void activateEvidence(int finding, int evidence);
    // Span `spanId` of the current trace on the timeline, or [startNs, endNs) where no lane holds it.
    void showSpan(std::int64_t spanId, std::int64_t startNs, std::int64_t endNs);
    // A cache-lookup mark of timeline source `source` -> its Cache row.
    void lookupInCache(int source, std::int64_t lookupId);
    // A Cache row -> its mark on the timeline (or a module load's span).
    void lookupOnTimeline(std::int64_t lookupId);
    // A Search hit -> its item on the timeline.
    void searchHit(const SearchRow& r);

private:
    QWidget* viewOf(NavTarget::View v) const;
    QWidget* selectModuleLoad(std::int64_t loadId);
    bool selectLaneRow(engine::LaneSource kind, std::int64_t rowId);
    const engine::Finding* currentFinding(int index) const;

    const DocumentSet& m_docs;
    NavViews m_v;
    std::function<void(int)> m_selectDocument;
    std::function<void(const QString&)> m_say;
};

}  // namespace cs::gui
