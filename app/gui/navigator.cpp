// Navigator (navigator.h): every jump from one view to a row of another, by typed target.
#include "app/gui/navigator.h"

#include "app/models/document_set.h"
#include "app/models/search_model.h"
#include "app/widgets/cache_view.h"
#include "app/widgets/findings_view.h"
#include "app/widgets/invalidations_view.h"
#include "app/widgets/modules_view.h"
#include "app/widgets/overview_view.h"
#include "app/widgets/search_view.h"
#include "app/widgets/timeline_view.h"
#include "core/engine/julia/invalidation_findings.h"

#include <QTabWidget>

#include <limits>

namespace cs::gui {

std::optional<NavTarget> targetOf(const engine::Evidence& e) {
    if (e.table == "cache_lookups") return NavTarget{NavTarget::View::Cache, e.rowId, engine::LaneSource::Spans};
    // A module load is a row of the Modules view (and a lookup of the Warp kernel cache).
    if (e.table == "module_loads") return NavTarget{NavTarget::View::Modules, e.rowId, engine::LaneSource::Spans};
    if (e.table == engine::kInvalidationTreeEvidence)
        return NavTarget{NavTarget::View::Invalidations, e.rowId, engine::LaneSource::Spans};
    return std::nullopt;
}

Navigator::Navigator(const DocumentSet& docs, NavViews views, std::function<void(int)> selectDocument,
                     std::function<void(const QString&)> say)
    : m_docs(docs), m_v(views), m_selectDocument(std::move(selectDocument)), m_say(std::move(say)) {}

QWidget* Navigator::viewOf(NavTarget::View v) const {
    switch (v) {
    case NavTarget::View::Overview: return m_v.overview;
    case NavTarget::View::Timeline: return m_v.timeline;
    case NavTarget::View::Findings: return m_v.findings;
    case NavTarget::View::Cache: return m_v.cache;
    case NavTarget::View::Modules: return m_v.modules;
    case NavTarget::View::Invalidations: return m_v.invalidations;
    case NavTarget::View::Search: return m_v.search;
    }
    return nullptr;
}

QWidget* Navigator::select(const NavTarget& t) {
    switch (t.view) {
    case NavTarget::View::Cache: return m_v.cache->showLookup(t.rowId) ? m_v.cache : nullptr;
    case NavTarget::View::Modules: return selectModuleLoad(t.rowId);
    case NavTarget::View::Invalidations:
        return t.rowId > 0 && m_v.invalidations->showTree(static_cast<std::size_t>(t.rowId - 1)) ? m_v.invalidations : nullptr;
    case NavTarget::View::Timeline: return selectLaneRow(t.lane, t.rowId) ? m_v.timeline : nullptr;
    case NavTarget::View::Findings: m_v.findings->showFinding(static_cast<int>(t.rowId)); return m_v.findings;
    case NavTarget::View::Overview:
    case NavTarget::View::Search: return viewOf(t.view);
    }
    return nullptr;
}

bool Navigator::go(const NavTarget& t) {
    QWidget* view = select(t);
    if (view) m_v.tabs->setCurrentWidget(view);
    return view != nullptr;
}

void Navigator::goInDocument(int doc, const std::optional<NavTarget>& t) {
    m_selectDocument(doc);
    if (t) go(*t);
}

QWidget* Navigator::selectModuleLoad(std::int64_t loadId) {
    if (!m_v.modules->showLoad(loadId)) return nullptr;
    // The Warp kernel cache lists the load as a lookup too: Lookup::id is minus its module_loads.id.
    if (loadId != std::numeric_limits<std::int64_t>::min()) m_v.cache->showLookup(-loadId);
    return m_v.modules;
}

bool Navigator::selectLaneRow(engine::LaneSource kind, std::int64_t rowId) {
    const int source = m_docs.timelineSourceOf(m_docs.current());
    if (source < 0) return false;
    const TimelineSource& src = m_v.timeline->plot()->sources()[static_cast<std::size_t>(source)];
    for (std::size_t l = 0; l < src.data->lanes.size(); ++l) {
        if (src.data->lanes[l].source != kind) continue;
        if (auto it = src.data->lanes[l].spans.findRow(rowId)) {
            m_v.tabs->setCurrentWidget(m_v.timeline);
            m_v.timeline->plot()->select({source, static_cast<int>(l), -1, *it, {}}, true);
            return true;
        }
    }
    return false;
}

const engine::Finding* Navigator::currentFinding(int index) const {
    const TraceDocument* d = m_docs.currentDocument();
    if (!d || !d->findings || index < 0 || index >= static_cast<int>(d->findings->size())) return nullptr;
    return &(*d->findings)[static_cast<std::size_t>(index)];
}

void Navigator::activateFinding(int index) {
    const engine::Finding* f = currentFinding(index);
    if (!f) return;
    const TraceDocument& d = *m_docs.currentDocument();
    m_v.findings->showFinding(index);
    // Its rows: the first evidence row a view can show.
    QWidget* shown = nullptr;
    for (const engine::Evidence& e : f->evidence)
        if (auto t = targetOf(e); t && (shown = select(*t))) break;
    const int source = m_docs.timelineSourceOf(m_docs.current());
    if (f->startNs && f->endNs && source >= 0) {
        m_v.tabs->setCurrentWidget(m_v.timeline);
        // A finding's range is in its session's raw clock; the timeline may show shifted clocks.
        std::int64_t a = *f->startNs, b = *f->endNs;
        if (d.timeline) a = d.timeline->displayNs(f->sessionId, a), b = d.timeline->displayNs(f->sessionId, b);
        m_v.timeline->plot()->showRange(source, a, b);
    } else {
        // No time range: its tree, module or lookup.
        m_v.tabs->setCurrentWidget(shown ? shown : m_v.findings);
    }
}

void Navigator::activateEvidence(int finding, int evidence) {
    const engine::Finding* f = currentFinding(finding);
    if (!f || evidence < 0 || evidence >= static_cast<int>(f->evidence.size())) return;
    if (auto t = targetOf(f->evidence[static_cast<std::size_t>(evidence)])) go(*t);
}

void Navigator::showSpan(std::int64_t spanId, std::int64_t startNs, std::int64_t endNs) {
    const int source = m_docs.timelineSourceOf(m_docs.current());
    if (source < 0 || (spanId != 0 && selectLaneRow(engine::LaneSource::Spans, spanId))) return;
    // Folded into an "N items" mark, or in no lane: its time range, where known.
    if (endNs > startNs) {
        m_v.tabs->setCurrentWidget(m_v.timeline);
        m_v.timeline->plot()->showRange(source, startNs, endNs);
        return;
    }
    m_say(QStringLiteral("Span %1 is on no lane of the timeline").arg(spanId));
}

void Navigator::lookupInCache(int source, std::int64_t lookupId) {
    if (const int doc = m_docs.documentOfSource(source); doc >= 0) m_selectDocument(doc);
    m_v.tabs->setCurrentWidget(m_v.cache);
    m_v.cache->showLookup(lookupId);
}

void Navigator::lookupOnTimeline(std::int64_t lookupId) {
    const int source = m_docs.timelineSourceOf(m_docs.current());
    if (source < 0) return;
    const TimelineSource& src = m_v.timeline->plot()->sources()[static_cast<std::size_t>(source)];
    for (std::size_t m = 0; m < src.data->marks.size(); ++m)
        if (auto mark = src.data->marks[m].lookups.find(lookupId)) {
            m_v.tabs->setCurrentWidget(m_v.timeline);
            m_v.timeline->plot()->select({source, -1, static_cast<int>(m), {}, *mark}, true);
            return;
        }
    // A Warp module load's lookup (Lookup::id = minus its module_loads.id) is a span of its
    // session's module-load lane.
    if (lookupId < 0 && go(NavTarget{NavTarget::View::Timeline, -lookupId, engine::LaneSource::ModuleLoads})) return;
    m_say(QStringLiteral("Lookup %1 has no mark on the timeline (no timestamp)").arg(lookupId));
}

void Navigator::searchHit(const SearchRow& r) {
    TimelineSelection sel;
    sel.source = r.source;
    sel.lane = r.lane_index;
    sel.item = r.item;
    m_v.tabs->setCurrentWidget(m_v.timeline);
    m_v.timeline->plot()->select(sel, m_v.timeline->followSelection());
}

}  // namespace cs::gui
