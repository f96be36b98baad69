#include "overview_view.h"

#include "acceptance_verdict.h"
#include "how_to_record.h"
#include "app/widgets/loss_banner.h"
#include "filtered_table.h"
#include "app/models/text.h"
#include "app/plots/bar_chart.h"
#include "app/plots/category_colors.h"

#include <QGridLayout>
#include <QTabWidget>
#include <QGroupBox>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

namespace {
QWidget* boxed(const QString& title, QWidget* content) {
    auto* box = new QGroupBox(title);
    auto* l = new QVBoxLayout(box);
    l->setContentsMargins(4, 4, 4, 4);
    l->addWidget(content);
    return box;
}
}  // namespace

// The timeline's colour of each compile label of the summary (app/plots/category_colors.h).
QColor chartColor(const std::string& label) {
    static const std::pair<const char*, int> map[] = {
        {"compile", CS_CAT_COMPILE},        {"inference", CS_CAT_INFERENCE},    {"codegen", CS_CAT_CODEGEN},
        {"link", CS_CAT_LINK},              {"compiler phase", CS_CAT_PHASE},   {"module build", CS_CAT_MODULE_LOAD},
        {"NVRTC", CS_CAT_COMPILE},          {"nvJitLink", CS_CAT_LINK},         {"driver JIT", CS_CAT_CODEGEN},
        {"program compile", CS_CAT_COMPILE}, {"Julia compile share", CS_CAT_INFERENCE}};
    for (const auto& [name, category] : map)
        if (label == name) return categoryColor(category);
    return categoryColor(CS_CAT_OTHER);
}

// The figures of the engine's compile accounting (docs/accounting.md), each the text of its
// TraceFigures key (issue 35: the headline shows no figure that is not keyed). The share is of the
// clocked compile time: work from a log without a clock is said apart, never inside the wall time.
QString compileHeadline(const engine::CompileSummary& s, const engine::TraceFigures& f) {
    // Nothing compiled: say what the trace lacks and how to record it, not "0 ns compiling".
    if (const QString none = noCompileSentence(s); !none.isEmpty()) return none;
    auto text = [&f](const char* key) { return qs(engine::figureText(f, key)); };
    auto value = [&f](const char* key) {
        const engine::Figure* x = f.find(key);
        return x ? x->value : std::nullopt;
    };
    // Compiles printed without their time and none timed: unknown, not 0 ns (issue 35).
    const bool unknown = f.find("compile_ns") && !value("compile_ns");
    const std::int64_t untimed = value("compiles_untimed").value_or(0);
    const QString compiles = untimed == 1 ? QStringLiteral("1 compile") : QStringLiteral("%1 compiles").arg(text("compiles_untimed"));
    const auto clocked = value("compile.clocked_ns"), wall = value("wall_ns");
    QString out = unknown ? QStringLiteral("unknown time compiling (%1, no time printed)").arg(compiles)
                          : QStringLiteral("%1 compiling").arg(text("compile_ns"));
    // A share of an unknown time is no figure: the wall time alone then.
    if (clocked && wall && *wall > 0) {
        const QString share = percentText(static_cast<double>(*clocked) / static_cast<double>(*wall));
        if (value("compile.unclocked_ns").value_or(0) > 0)
            out += QStringLiteral(": %1 (%2) of %3 clocked wall time, %4 in logs without a clock")
                       .arg(text("compile.clocked_ns"), share, text("wall_ns"), text("compile.unclocked_ns"));
        else
            out += QStringLiteral(", %1 of %2 clocked wall time").arg(share, text("wall_ns"));
    } else if (unknown && wall && *wall > 0) {
        out += QStringLiteral(" in %1 clocked wall time").arg(text("wall_ns"));
    } else if (!unknown) {
        out += QStringLiteral(" (no wall clock: durations only)");
    }
    if (untimed && !unknown) out += QStringLiteral(" + %1 with time not recorded").arg(compiles);
    if (value("cache_load_ns").value_or(0) > 0) out += QStringLiteral(" · %1 cache loads").arg(text("cache_load_ns"));
    return out + QStringLiteral(" · %1 session(s)").arg(text("sessions"));
}

OverviewView::OverviewView(QWidget* parent)
    : QWidget(parent),
      m_loss(makeLossBanner(this)),
      m_headline(new QLabel(QStringLiteral("No trace open: File > Open (Ctrl+O), or drop a trace, a Warp log, a Julia printout or a TEF file here."), this)),
      m_verdict(new QLabel(this)),
      m_chart(new BarChart(Qt::Horizontal, this)),
      m_categories(makeShareModel(QStringLiteral("Category"), this)),
      m_runtimes(makeShareModel(QStringLiteral("Runtime"), this)),
      m_sessions(makeSessionModel(this)),
      m_findings(makeFindingsModel(this)),
      m_problems(makeProblemModel(this)),
      m_figures(makeFiguresModel(this)) {
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    big.setBold(true);
    m_headline->setFont(big);
    m_headline->setWordWrap(true);
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_findingsTable = new FilteredTable(m_findings, QStringLiteral("Filter top findings"), this);
    connect(m_findingsTable, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        if (const FindingItem* it = m_findings->itemAt(i)) emit findingActivated(it->findingIndex);
    });
    auto* grid = new QGridLayout;
    grid->addWidget(boxed(QStringLiteral("Compile time by category"), m_chart), 0, 0);
    m_categoryTable = new FilteredTable(m_categories, QStringLiteral("Filter categories"));
    m_runtimeTable = new FilteredTable(m_runtimes, QStringLiteral("Filter runtimes"));
    m_sessionTable = new FilteredTable(m_sessions, QStringLiteral("Filter sessions"));
    auto* problems = new FilteredTable(m_problems, QStringLiteral("Filter problems"));
    problems->setEmptyText(QStringLiteral("Nothing dropped or malformed: every input was read."));
    m_findingsTable->setEmptyText(QStringLiteral("No finding: no recompile, repeated build or invalidation that a change could save."));
    grid->addWidget(boxed(QStringLiteral("Categories"), m_categoryTable), 0, 1);
    grid->addWidget(boxed(QStringLiteral("Runtimes"), m_runtimeTable), 1, 0);
    grid->addWidget(boxed(QStringLiteral("Top findings"), m_findingsTable), 1, 1);
    grid->addWidget(boxed(QStringLiteral("Sessions"), m_sessionTable), 2, 0);
    auto* figures = new FilteredTable(m_figures, QStringLiteral("Filter figures"));
    figures->setEmptyText(QStringLiteral("The figures follow once the trace is analysed."));
    // Problems first (what the trace lost); every keyed figure one tab away, so that at 1280 x 800
    // the tables above keep room for their rows.
    auto* lastCell = new QTabWidget(this);
    lastCell->addTab(problems, QStringLiteral("Trace problems"));
    lastCell->addTab(figures, QStringLiteral("Every figure (compilescope info --json)"));
    grid->addWidget(lastCell, 2, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_loss);
    layout->addWidget(m_headline);
    layout->addWidget(boundedVerdictBox(m_verdict, this));
    layout->addLayout(grid, 1);
}

void OverviewView::setDocument(const TraceDocument& doc) {
    if (!doc.summary) {
        m_headline->setText(doc.loading ? QStringLiteral("Loading %1…").arg(doc.label) : QStringLiteral("No trace open"));
        return;
    }
    showLossBanner(m_loss, lossBannerText({&doc}));
    const engine::CompileSummary& s = *doc.summary;
    // The analysis's figures once it is done; the summary's time figures while it runs (the same keys).
    const engine::TraceFigures early = doc.analyses && doc.analyses->figures ? engine::TraceFigures{} : engine::timeFigures(s);
    m_headline->setText(doc.label + QStringLiteral(": ") +
                        compileHeadline(s, doc.analyses && doc.analyses->figures ? *doc.analyses->figures : early));
    m_verdict->setText(acceptanceVerdictHtml(doc));
    const QString noTime = lacksSentence(&s, QStringLiteral("compile with a duration"));
    for (FilteredTable* t : {m_categoryTable, m_runtimeTable}) t->setEmptyText(noTime);
    m_sessionTable->setEmptyText(lacksSentence(&s, QStringLiteral("session")));
    m_chart->setEmptyText(noTime);
    m_categories->setRows(shareRows(s, s.byCategory));
    m_runtimes->setRows(shareRows(s, s.byRuntime, &runtimeDisplayName));
    m_sessions->setRows(std::make_shared<const std::vector<engine::SessionSummary>>(s.sessions));
    m_problems->setRows(std::make_shared<const std::vector<std::string>>(s.problems));
    m_figures->setRows(figureRows(doc));
    m_findings->setTree(buildFindingTree(doc.findings, 5));
    QStringList labels;
    QVector<double> values;
    QVector<QColor> colors;
    for (const engine::TimeShare& t : s.byCategory) {
        labels << qs(t.name);
        values << static_cast<double>(t.ns) / 1e9;
        colors << chartColor(t.name);
    }
    m_chart->setBars(labels, values, colors, QStringLiteral("seconds (union of intervals)"));
}

QString OverviewView::headline() const { return m_headline->text(); }
QString OverviewView::lossBanner() const { return m_loss->isVisibleTo(this) ? m_loss->text() : QString(); }
QString OverviewView::verdict() const { return m_verdict->text(); }

}  // namespace cs::gui
