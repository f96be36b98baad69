#include "build_view.h"

#include "filtered_table.h"

#include "core/util/saturating.h"

#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

namespace {
// A titled table: the title says what the rows are and that they lead to the timeline.
QWidget* titled(const QString& title, QWidget* table, QWidget* parent) {
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(title, box);
    label->setWordWrap(true);
    layout->addWidget(label);
    layout->addWidget(table, 1);
    return box;
}
constexpr int kNameWidth = 340;
QString noBuild() { return QStringLiteral("No clang time traces and no .ninja_log in this trace."); }
}  // namespace

namespace {
// Each cost table: its first column, its filter's placeholder, its tab and the report's rows.
struct CostSpec {
    const char* what;
    const char* filter;
    const char* tab;
    const char* tip;
    const std::vector<engine::build::Cost> engine::build::BuildReport::*rows;
};
constexpr std::array<CostSpec, BuildView::CostTableCount> kCostSpecs{{
    {"Header", "Filter headers", "Headers", "Headers by inclusive parse time over all files (Source events)",
     &engine::build::BuildReport::headers},
    {"Template", "Filter templates", "Templates", "Template instantiations by time over all files (InstantiateClass / InstantiateFunction)",
     &engine::build::BuildReport::templates},
    {"Template set", "Filter template sets", "Template sets",
     "Template instantiations with their arguments folded ($): the cost of a template over all its uses",
     &engine::build::BuildReport::templateSets},
    {"Function", "Filter functions", "Functions optimised", "Functions by optimisation time over all files (OptFunction)",
     &engine::build::BuildReport::optimisedFunctions},
    {"Function", "Filter functions", "Functions generated", "Functions by code generation time over all files (CodeGen Function)",
     &engine::build::BuildReport::generatedFunctions},
}};
}  // namespace

BuildView::BuildView(QWidget* parent)
    : QWidget(parent), m_files(makeBuildFilesModel(this)), m_path(makeBuildPathModel(this)), m_costTabs(new QTabWidget(this)),
      m_headline(new QLabel(this)) {
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setText(noBuild());
    m_filesTable = new FilteredTable(m_files, QStringLiteral("Filter files"), this);
    m_pathTable = new FilteredTable(m_path, QStringLiteral("Filter the critical path"), this);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(titled(QStringLiteral("<b>Files</b>, slowest first (click a header to sort; Enter shows the compile on the timeline)"),
                          m_filesTable, top));
    top->addWidget(titled(QStringLiteral("<b>Critical path</b>, in build order"), m_pathTable, top));
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    for (int k = 0; k < CostTableCount; ++k) {
        const CostSpec& spec = kCostSpecs[static_cast<size_t>(k)];
        auto* model = makeBuildCostModel(QString::fromUtf8(spec.what), this);
        auto* table = new FilteredTable(model, QString::fromUtf8(spec.filter), this);
        m_costs[static_cast<size_t>(k)] = model;
        m_costTables[static_cast<size_t>(k)] = table;
        if (k == Headers) table->view()->setTextElideMode(Qt::ElideMiddle);  // a path's end names the header
        const int tab = m_costTabs->addTab(table, QString::fromUtf8(spec.tab));
        m_costTabs->setTabToolTip(tab, QString::fromUtf8(spec.tip) + QStringLiteral("; Enter shows the most expensive span on the timeline"));
        // A row leads to its most expensive span, the evidence (no range known here).
        connect(table, &FilteredTable::activated, this, [this, model](const QModelIndex& i) {
            if (const auto* c = model->rowAt(i.row())) emit spanRequested(c->worstSpanId, 0, 0);
        });
        // Header paths, template and function names run to hundreds of characters: their column is
        // capped so that the times beside them stay in view (each cut name is whole in its tooltip).
        // Connected after the table's own resize on reset, so it runs after it.
        connect(model, &QAbstractItemModel::modelReset, table, [t = table] {
            if (t->view()->columnWidth(0) > kNameWidth) t->view()->setColumnWidth(0, kNameWidth);
        });
    }
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(titled(QStringLiteral("<b>What the build spends its time on</b>, over all files (Enter on a row shows its most expensive span)"),
                            m_costTabs, split));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(split, 1);

    connect(m_filesTable, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        if (const auto* f = m_files->rowAt(i.row())) emit spanRequested(f->spanId, f->startNs, util::satAdd(f->startNs, f->totalNs));
    });
    connect(m_pathTable, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        if (const auto* p = m_path->rowAt(i.row()))
            emit spanRequested(p->path.spanId, p->path.startNs, util::satAdd(p->path.startNs, p->path.durNs));
    });
}

void BuildView::setDocument(const TraceDocument& doc) {
    BuildReportPtr report = doc.analyses && doc.analyses->trace ? doc.analyses->trace->build : nullptr;
    if (report && report->empty()) report = nullptr;
    if (report == m_report) return;  // the same snapshot: keep the user's sorting and selection
    m_report = report;
    m_headline->setText(report ? buildHeadline(*report) : noBuild());
    m_files->setRows(buildFileRows(report));
    m_path->setRows(report ? buildPathRows(*report) : std::make_shared<const std::vector<BuildPathRow>>());
    for (size_t k = 0; k < m_costs.size(); ++k)
        m_costs[k]->setRows(report ? buildCostRows(report, (*report).*kCostSpecs[k].rows) : buildCostRows(nullptr, {}));
}

QString BuildView::headline() const { return m_headline->text(); }

}  // namespace cs::gui
