#include "cache_view.h"

#include "acceptance_verdict.h"
#include "filtered_table.h"
#include "how_to_record.h"
#include "app/models/text.h"
#include "app/plots/bar_chart.h"

#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace cs::gui {

namespace {
// The Warp module cache in words, under the acceptance verdict (which it is no part of); its counts
// are the keyed figures (engine/analysis/trace_figures.h) that check, explain and the report give.
QString moduleCacheHtml(const engine::CacheAnalysis* modules, const engine::TraceFigures* figures) {
    if (!modules || !figures) return {};
    return QStringLiteral("<br><b>Warp module loads</b> replayed as the kernel cache (key: module hash, device, "
                          "block_dim): %1 compiled = misses, %2 cached = hits.")
        .arg(qs(engine::figureText(*figures, "modules.cache.misses.replayed")),
             qs(engine::figureText(*figures, "modules.cache.hits.replayed")));
}

// First compiles and recompiles per program, in the order of the attribution, busiest first.
void missesPerProgram(const engine::CacheAnalysis& a, QStringList& labels, QVector<double>& first, QVector<double>& again) {
    std::map<engine::Sid, std::pair<int, int>> counts;  // program -> (first compiles, recompiles)
    std::vector<engine::Sid> order;
    for (const engine::MissExplanation& m : a.attribution.misses) {
        if (m.lookup >= a.facts.lookups.size()) continue;
        const engine::Sid p = a.facts.lookups[m.lookup].program;
        auto [it, fresh] = counts.emplace(p, std::make_pair(0, 0));
        if (fresh) order.push_back(p);
        (m.cause == engine::MissCause::FirstCompile ? it->second.first : it->second.second) += 1;
    }
    std::stable_sort(order.begin(), order.end(), [&](engine::Sid x, engine::Sid y) {
        return counts[x].first + counts[x].second > counts[y].first + counts[y].second;
    });
    labels.clear();
    first.clear();
    again.clear();
    for (engine::Sid p : order) {
        labels << qs(a.facts.str(p));
        first << counts[p].first;
        again << counts[p].second;
    }
}
// The misses chart's sentence when it has no bar: no lookup at all, none missed, or misses without a
// step. The counts are the keyed "lookups" and "misses" (one definition per runtime, trace_figures.h).
QString noMissesText(const engine::TraceFigures* figures, const engine::CompileSummary* s) {
    const engine::Figure* lookups = figures ? figures->find("lookups") : nullptr;
    const engine::Figure* misses = figures ? figures->find("misses") : nullptr;
    if (!lookups || !misses) return lacksSentence(s, QStringLiteral("cache lookup"));
    if (misses->value.value_or(0) == 0) return QStringLiteral("No miss: each of the %1 lookups hit the cache.").arg(qs(engine::figureText(*lookups)));
    return QStringLiteral("%1 misses, none at a numbered step: the Lookups table below lists them.").arg(qs(engine::figureText(*misses)));
}
}  // namespace

CacheView::CacheView(QWidget* parent)
    : QWidget(parent), m_verdict(new QLabel(this)), m_chart(new BarChart(Qt::Vertical, this)),
      m_lookups(makeCacheLookupModel(this)), m_issues(makeCacheIssueModel(this)), m_details(new QTextBrowser(this)) {
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_lookupTable = new FilteredTable(m_lookups, QStringLiteral("Filter lookups (program, handle, verdict, cause)"), this);
    auto* issues = new FilteredTable(m_issues, QStringLiteral("Filter cache problems"), this);
    issues->setEmptyText(QStringLiteral("No cache problem: no poisoned entry, stale handle or hole."));
    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(m_chart);
    top->addWidget(issues);
    top->setSizes({450, 750});
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_lookupTable);
    bottom->addWidget(m_details);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(1, 2);
    m_showInTimeline = new QToolButton(this);
    m_showInTimeline->setText(QStringLiteral("Show in timeline"));
    m_showInTimeline->setToolTip(QStringLiteral("The selected lookup's mark on the timeline (Enter or a double click on the row)"));
    m_showInTimeline->setEnabled(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(boundedVerdictBox(m_verdict, this));
    layout->addWidget(m_showInTimeline, 0, Qt::AlignRight);
    layout->addWidget(split, 1);
    m_details->setHtml(QStringLiteral("<p>Select a lookup: a miss shows the key components that moved, before and after.</p>"));
    connect(m_lookupTable, &FilteredTable::current, this, [this](const QModelIndex& i) {
        if (const CacheLookupRow* r = m_lookups->rowAt(i.row())) {
            m_details->setHtml(missDetailsHtml(*r));
            m_selected = r->l().id;
            m_showInTimeline->setEnabled(true);
        }
    });
    connect(m_lookupTable, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        if (const CacheLookupRow* r = m_lookups->rowAt(i.row())) emit timelineRequested(r->l().id);
    });
    connect(m_showInTimeline, &QToolButton::clicked, this, [this] {
        if (m_showInTimeline->isEnabled()) emit timelineRequested(m_selected);  // ids of Warp loads are negative
    });
    connect(issues, &FilteredTable::current, this, [this](const QModelIndex& i) {
        if (const CacheIssueRow* r = m_issues->rowAt(i.row()); r && r->lookupId) showLookup(r->lookupId);
    });
}

void CacheView::setDocument(const TraceDocument& doc) {
    auto analysis = doc.analyses ? doc.analyses->cache : nullptr;
    auto modules = doc.analyses && doc.analyses->trace ? doc.analyses->trace->moduleCache : nullptr;
    const engine::TraceFigures* figures = doc.analyses ? doc.analyses->figures.get() : nullptr;
    m_verdict->setText(acceptanceVerdictHtml(doc) + moduleCacheHtml(modules.get(), figures));
    m_lookupTable->setEmptyText(lacksSentence(doc.summary.get(), QStringLiteral("cache lookup")));
    m_chart->setEmptyText(noMissesText(figures, doc.summary.get()));
    if (analysis == m_analysis && modules == m_moduleCache && (analysis || modules)) return;
    m_analysis = analysis;
    m_moduleCache = modules;
    m_lookups->setRows(cacheLookupRows(analysis, modules));
    m_issues->setRows(cacheIssueRows(analysis.get(), modules.get()));
    // Misses per step, a program's first compile apart from its recompiles: only the second kind is
    // what the acceptance criterion (and the user) worries about.
    QStringList labels;
    BarChart::Series first{QStringLiteral("first compile"), QColor(0x90, 0xa4, 0xae), {}};
    BarChart::Series again{QStringLiteral("recompile"), QColor(0xd3, 0x2f, 0x2f), {}};
    if (analysis) {
        std::map<std::int64_t, int> column;
        for (const engine::StepMisses& s : analysis->acceptance.series) {
            column[s.step] = static_cast<int>(labels.size());
            labels << QString::number(s.step);
        }
        first.values.fill(0.0, labels.size());
        again.values.fill(0.0, labels.size());
        for (const engine::MissExplanation& m : analysis->attribution.misses) {
            if (m.lookup >= analysis->facts.lookups.size()) continue;
            const auto& step = analysis->facts.lookups[m.lookup].step;
            auto at = step ? column.find(*step) : column.end();
            if (at == column.end()) continue;
            (m.cause == engine::MissCause::FirstCompile ? first : again).values[at->second] += 1.0;
        }
    }
    if (labels.isEmpty() && modules) {
        // Warp loads have no steps: their misses per module instead, most first.
        missesPerProgram(*modules, labels, first.values, again.values);
        m_chart->setStackedBars(labels, {first, again}, QStringLiteral("Warp misses per module"), true);
    } else {
        m_chart->setStackedBars(labels, {first, again}, QStringLiteral("misses per step"), true);
    }
    // Open on the first miss whose key moved: usually the one the user came for.
    for (const engine::CacheAnalysis* a : {analysis.get(), modules.get()})
        if (a)
            for (const engine::MissExplanation& m : a->attribution.misses)
                if (m.cause == engine::MissCause::KeyMoved && m.lookup < a->facts.lookups.size()) {
                    showLookup(a->facts.lookups[m.lookup].id);
                    return;
                }
}

bool CacheView::showLookup(std::int64_t id) {
    for (int r = 0; r < m_lookups->rowCount(); ++r)
        if (m_lookups->rowAt(r)->l().id == id) {
            m_lookupTable->selectSource(m_lookups->index(r, 0));
            m_details->setHtml(missDetailsHtml(*m_lookups->rowAt(r)));
            m_selected = id;
            m_showInTimeline->setEnabled(true);
            return true;
        }
    return false;
}

QString CacheView::verdict() const { return m_verdict->text(); }
QString CacheView::details() const { return m_details->toPlainText(); }

}  // namespace cs::gui
