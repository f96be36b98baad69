#include "timeline_view.h"

#include "app/models/row_details_fetcher.h"
#include "app/models/table_model.h"
#include "app/models/text.h"
#include "app/plots/category_colors.h"
#include "app/plots/time_axis.h"
#include "app/widgets/filtered_table.h"
#include "app/widgets/loss_banner.h"
#include "core/engine/timeline/timeline_data.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <optional>

namespace cs::gui {

// One row of the range table, as displayed.
struct RangeTableRow {
    QString name, category;
    std::size_t count = 0;
    std::int64_t inRangeNs = 0, longestNs = 0;
};

namespace {
QToolButton* button(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    return b;
}
}  // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), m_plot(new TimelinePlot(this)), m_details(new QPlainTextEdit(this)), m_tabs(new QTabWidget(this)),
      m_fetcher(new RowDetailsFetcher(this)), m_follow(new QCheckBox(QStringLiteral("Follow selection"), this)),
      m_status(new QLabel(this)), m_raw(new QCheckBox(QStringLiteral("Raw"), this)) {
    QHBoxLayout* tools = makeTools();
    setUpDetails();
    setUpDetailTabs(makeRangePage());
    QSplitter* split = makeSplit();
    m_legend = new QLabel(this);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setToolTip(QStringLiteral("Colours of what is drawn: span categories, cache-lookup marks"));
    auto* layout = new QVBoxLayout(this);
    m_loss = makeLossBanner(this);
    layout->addWidget(m_loss);
    layout->addLayout(tools);
    layout->addWidget(m_legend);
    m_hitLabel = new QLabel(this);
    m_hitLabel->setVisible(false);
    layout->addWidget(m_hitLabel);
    layout->addWidget(split, 1);
}

// The zoom buttons, "Follow selection" and the status (the window in time) above the plot.
QHBoxLayout* TimelineView::makeTools() {
    auto* tools = new QHBoxLayout;
    auto* fit = button(QStringLiteral("Fit all"), QStringLiteral("Show every lane and the whole time range (0)"), this);
    auto* in = button(QStringLiteral("Zoom in"), QStringLiteral("Zoom in (W, or the mouse wheel)"), this);
    auto* out = button(QStringLiteral("Zoom out"), QStringLiteral("Zoom out (S)"), this);
    auto* fitSel = button(QStringLiteral("Fit selection"), QStringLiteral("Zoom to the selected span (F)"), this);
    m_follow->setChecked(true);
    m_follow->setToolTip(QStringLiteral("Zoom to whatever a finding or a search result selects"));
    for (QWidget* w : {static_cast<QWidget*>(fit), static_cast<QWidget*>(in), static_cast<QWidget*>(out),
                       static_cast<QWidget*>(fitSel), static_cast<QWidget*>(m_follow)})
        tools->addWidget(w);
    tools->addStretch(1);
    tools->addWidget(m_status);
    connect(fit, &QToolButton::clicked, m_plot, &TimelinePlot::fitAll);
    connect(in, &QToolButton::clicked, m_plot, [this] { m_plot->zoomBy(2); });
    connect(out, &QToolButton::clicked, m_plot, [this] { m_plot->zoomBy(0.5); });
    connect(fitSel, &QToolButton::clicked, m_plot, [this] {
        const TimelineSelection& s = m_plot->selection();
        if (s.valid() && s.lane >= 0) m_plot->showRange(s.source, s.item.startNs, s.item.endNs);
    });
    return tools;
}

// The Details tab: the selection in words, then the row as read from the trace (on a worker thread).
void TimelineView::setUpDetails() {
    m_details->setReadOnly(true);
    m_details->setPlainText(m_plot->selectionText());
    connect(m_plot, &TimelinePlot::selectionChanged, this, &TimelineView::showSelection);
    connect(m_fetcher, &RowDetailsFetcher::ready, this, [this](int request, std::shared_ptr<const engine::RowDetails> d) {
        if (request != m_fetcher->latest()) return;
        m_row = std::move(d);
        renderDetails();
        m_detailsComplete = true;
    });
    m_raw->setToolTip(QStringLiteral("Show the stored columns of the selected row as they are in the trace"));
    connect(m_raw, &QCheckBox::toggled, this, &TimelineView::renderDetails);
    connect(m_fetcher, &RowDetailsFetcher::failed, this, [this](int request, const QString& message) {
        if (request != m_fetcher->latest()) return;
        m_details->setPlainText(m_plot->selectionText() + QStringLiteral("\n\ndetails unavailable: ") + message);
        m_detailsComplete = true;
    });
    connect(m_plot, &TimelinePlot::replotted, this, &TimelineView::updateStatus);
}

// The range table: what a Shift-drag band holds, per span name.
QWidget* TimelineView::makeRangePage() {
    m_rangeModel = new TableModel<RangeTableRow>(
        {{QStringLiteral("Name"), [](const RangeTableRow& r) { return QVariant(r.name); }},
         {QStringLiteral("Category"), [](const RangeTableRow& r) { return QVariant(r.category); }},
         {QStringLiteral("Spans"), [](const RangeTableRow& r) { return QVariant(qulonglong(r.count)); }, {},
          Qt::AlignRight | Qt::AlignVCenter},
         {QStringLiteral("Time in range"), [](const RangeTableRow& r) { return QVariant(durationText(r.inRangeNs)); },
          [](const RangeTableRow& r) { return QVariant(qlonglong(r.inRangeNs)); }, Qt::AlignRight | Qt::AlignVCenter},
         {QStringLiteral("Longest (whole)"), [](const RangeTableRow& r) { return QVariant(durationText(r.longestNs)); },
          [](const RangeTableRow& r) { return QVariant(qlonglong(r.longestNs)); }, Qt::AlignRight | Qt::AlignVCenter}},
        this);
    auto* rangePage = new QWidget(this);
    auto* rangeLayout = new QVBoxLayout(rangePage);
    rangeLayout->setContentsMargins(0, 0, 0, 0);
    m_rangeHeadline = new QLabel(QStringLiteral("Shift-drag across lanes to sum what a time range holds."), rangePage);
    m_rangeHeadline->setWordWrap(true);
    m_rangeTable = new FilteredTable(m_rangeModel, QStringLiteral("Filter names"), rangePage);
    rangeLayout->addWidget(m_rangeHeadline);
    rangeLayout->addWidget(m_rangeTable, 1);
    connect(m_plot, &TimelinePlot::rangeSelected, this, &TimelineView::showRange);
    return rangePage;
}

void TimelineView::setUpDetailTabs(QWidget* rangePage) {
    // A cache-lookup mark leads to its row in the Cache view (which leads back, "Show in timeline").
    m_openInCache = button(QStringLiteral("Open in Cache"), QStringLiteral("Show this lookup in the Cache view: why it missed, "
                                                                           "what moved (Enter on the timeline)"), this);
    m_openInCache->setVisible(false);
    auto open = [this] {
        const TimelineSelection& s = m_plot->selection();
        if (s.valid() && s.lane < 0 && s.mark.count == 1) emit openLookup(s.source, s.mark.rowId);
    };
    connect(m_openInCache, &QToolButton::clicked, this, open);
    connect(m_plot, &TimelinePlot::selectionActivated, this, open);
    auto* corner = new QWidget(this);
    auto* cornerLayout = new QHBoxLayout(corner);
    cornerLayout->setContentsMargins(0, 0, 0, 0);
    cornerLayout->addWidget(m_openInCache);
    cornerLayout->addWidget(m_raw);
    m_tabs->setCornerWidget(corner, Qt::TopRightCorner);
    m_tabs->addTab(m_details, QStringLiteral("Details"));
    m_tabs->addTab(rangePage, QStringLiteral("Range"));
}

// The plot (or the sentence shown when nothing has a time) over the Details and Range tabs.
QSplitter* TimelineView::makeSplit() {
    auto* split = new QSplitter(Qt::Vertical, this);
    m_plotPages = new QStackedWidget(this);
    m_plotPages->addWidget(m_plot);
    m_nothingToDraw = new QLabel(
        QStringLiteral("Nothing to draw on a timeline: this trace records no event with a time (SnoopCompile's printed "
                       "trees, an invalidation list or a log without timestamps have none). The other views list what it "
                       "holds. To see compiles in time, record the program: compilescope record -o t.cstrace -- CMD"),
        this);
    m_nothingToDraw->setWordWrap(true);
    m_nothingToDraw->setAlignment(Qt::AlignCenter);
    m_nothingToDraw->setMargin(24);
    m_plotPages->addWidget(m_nothingToDraw);
    split->addWidget(m_plotPages);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({600, 150});
    return split;
}

void TimelineView::renderDetails() {
    const TimelineSelection& s = m_plot->selection();
    QString text = m_plot->selectionText();
    if (const QString story = m_plot->storyText(s); !story.isEmpty()) text += QStringLiteral("\n\n") + story;
    if (m_row && !m_row->words.empty()) {
        text += QLatin1Char('\n');
        for (const engine::DetailField& f : m_row->words) text += QStringLiteral("\n%1: %2").arg(qs(f.key), qs(f.value));
    }
    if (m_row && m_raw->isChecked()) {
        text += QStringLiteral("\n\nraw row: %1 #%2").arg(qs(m_row->table)).arg(m_row->rowId);
        for (const engine::DetailField& f : m_row->fields) text += QStringLiteral("\n%1: %2").arg(qs(f.key), qs(f.value));
    }
    m_details->setPlainText(text);
}

void TimelineView::showSelection() {
    m_row.reset();
    renderDetails();
    m_tabs->setCurrentWidget(m_details);
    const TimelineSelection& s = m_plot->selection();
    m_openInCache->setVisible(s.valid() && s.lane < 0 && s.mark.count == 1);
    m_detailsComplete = true;
    if (!s.valid()) return;
    const TimelineSource& src = m_plot->sources()[static_cast<std::size_t>(s.source)];
    const QString path = m_tracePath ? m_tracePath(s.source) : QString();
    if (path.isEmpty()) return;
    // One row: read everything stored about it. A fold has no single row.
    if (s.lane >= 0 && s.item.count == 1) {
        const engine::TimelineLane& lane = src.data->lanes[static_cast<std::size_t>(s.lane)];
        m_detailsComplete = false;
        m_fetcher->request(path, QString::fromLatin1(engine::laneSourceTable(lane.source)), s.item.rowId);
    } else if (s.lane < 0 && s.mark.count == 1) {
        m_detailsComplete = false;
        m_fetcher->request(path, QStringLiteral("cache_lookups"), s.mark.rowId);
    }
}

void TimelineView::showRange() {
    const TimelineRange& r = m_plot->range();
    auto rows = std::make_shared<std::vector<RangeTableRow>>();
    if (!r.valid()) {
        m_rangeModel->setRows(rows);
        m_rangeHeadline->setText(QStringLiteral("The band crossed no lane."));
        m_tabs->setCurrentIndex(1);
        return;
    }
    const engine::TimelineData& d = *m_plot->sources()[static_cast<std::size_t>(r.source)].data;
    for (const engine::RangeNameRow& n : r.summary.rows)
        rows->push_back({qs(d.str(n.name)), categoryName(n.category), n.count, n.inRangeNs, n.longestNs});
    m_rangeModel->setRows(rows);
    m_rangeTable->resizeColumns();
    const double a = static_cast<double>(r.summary.t0 - d.minNs) * 1e-9, b = static_cast<double>(r.summary.t1 - d.minNs) * 1e-9;
    m_rangeHeadline->setText(QStringLiteral("%1 to %2 (%3) over %4 lanes: %5 spans, %6 names. Time in range is clipped to the "
                                            "range; nested spans count at every depth.")
                                 .arg(secondsText(a), secondsText(b), durationText(r.summary.t1 - r.summary.t0))
                                 .arg(r.summary.lanes)
                                 .arg(r.summary.spans)
                                 .arg(r.summary.rows.size()));
    m_tabs->setCurrentIndex(1);
}

void TimelineView::setSearchHits(const QString& needle, std::vector<TimelineSelection> hits) {
    // More hits of the same text (span arguments arrive after names): the current one stays current.
    std::optional<TimelineSelection> current;
    if (needle == m_needle && m_hit >= 0 && m_hit < static_cast<int>(m_hits.size())) current = m_hits[static_cast<std::size_t>(m_hit)];
    m_needle = needle;
    m_hits = std::move(hits);
    m_hit = -1;
    m_hitLabel->clear();
    m_hitLabel->setVisible(false);
    m_plot->setHighlights(m_hits);
    if (!current) return;
    for (std::size_t i = 0; i < m_hits.size(); ++i)
        if (m_hits[i].source == current->source && m_hits[i].lane == current->lane && m_hits[i].item.rowId == current->item.rowId &&
            m_hits[i].item.startNs == current->item.startNs) {
            m_hit = static_cast<int>(i);
            showHitLabel();
            break;
        }
}

void TimelineView::showHitLabel() {
    m_hitLabel->setText(QStringLiteral("match %1 of %2 for \"%3\" (Enter: next, Shift+Enter: previous)").arg(m_hit + 1).arg(m_hits.size()).arg(m_needle));
    m_hitLabel->setVisible(true);
}

bool TimelineView::stepHit(int delta) {
    if (m_hits.empty()) return false;
    const int n = static_cast<int>(m_hits.size());
    m_hit = m_hit < 0 ? (delta >= 0 ? 0 : n - 1) : ((m_hit + delta) % n + n) % n;
    m_plot->select(m_hits[static_cast<std::size_t>(m_hit)], true);
    showHitLabel();
    return true;
}

QString TimelineView::hitText() const { return m_hitLabel->text(); }

QString TimelineView::rangeHeadline() const { return m_rangeHeadline->text(); }

void TimelineView::updateStatus() {
    // Every trace read whole, and none holds a lane, a lookup or a step: a sentence, not a bare axis.
    bool nothing = !m_plot->sources().empty();
    for (const TimelineSource& s : m_plot->sources()) {
        if (!s.data || s.data->outline || !s.data->lanes.empty()) nothing = false;
        if (s.data)
            for (const auto& m : s.data->marks) nothing = nothing && m.lookups.size() == 0 && m.steps.size() == 0;
    }
    m_plotPages->setCurrentIndex(nothing ? 1 : 0);
    m_status->setText(QStringLiteral("%1 items drawn · window %2").arg(m_plot->lastPaintItems()).arg(m_plot->windowText()));
    // The legend: what the colours on screen mean, and nothing that is not on screen.
    QString legend;
    auto chip = [](const QColor& c, const QString& name) {
        return QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2&nbsp;&nbsp; ").arg(c.name(), name.toHtmlEscaped());
    };
    for (int c : m_plot->lastPaintCategories()) legend += chip(categoryColor(c), categoryName(c));
    if (m_plot->lastPaintMarks())
        legend += QStringLiteral("<span style='color:%1'>&#9646;</span>&nbsp;cache miss (labelled)&nbsp;&nbsp; "
                                 "<span style='color:%2'>&#9662;</span>&nbsp;cache hit (short tick)&nbsp;&nbsp; ")
                      .arg(lookupColor(true).name(), lookupColor(false).name());
    if (legend != m_legendHtml) {
        m_legendHtml = legend;
        m_legend->setText(legend);
    }
}

QStringList TimelineView::legendEntries() const {
    QStringList out;
    for (int c : m_plot->lastPaintCategories()) out << categoryName(c);
    if (m_plot->lastPaintMarks()) out << QStringLiteral("cache miss") << QStringLiteral("cache hit");
    return out;
}

QList<QColor> TimelineView::legendColors() const {
    QList<QColor> out;
    for (int c : m_plot->lastPaintCategories()) out << categoryColor(c);
    if (m_plot->lastPaintMarks()) out << lookupColor(true) << lookupColor(false);
    return out;
}

QString TimelineView::details() const { return m_details->toPlainText(); }
QString TimelineView::statusText() const { return m_status->text(); }
QString TimelineView::emptyText() const { return m_plotPages->currentIndex() == 1 ? m_nothingToDraw->text() : QString(); }

void TimelineView::setLossText(const QString& text) { showLossBanner(m_loss, text); }
QString TimelineView::lossBanner() const { return m_loss->isVisibleTo(this) ? m_loss->text() : QString(); }
bool TimelineView::followSelection() const { return m_follow->isChecked(); }

}  // namespace cs::gui
