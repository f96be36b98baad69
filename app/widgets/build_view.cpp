#include "build_view.h"

#include "filtered_table.h"

#include "core/util/saturating.h"

#include <QLabel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

namespace {
// A titled table: the title says what the rows are and that they lead to the timeline.
QWidget* titled(const QString& title, FilteredTable* table, QWidget* parent) {
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

BuildView::BuildView(QWidget* parent)
    : QWidget(parent), m_files(makeBuildFilesModel(this)), m_path(makeBuildPathModel(this)),
      m_headers(makeBuildCostModel(QStringLiteral("Header"), this)), m_templates(makeBuildCostModel(QStringLiteral("Template"), this)),
      m_headline(new QLabel(this)) {
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setText(noBuild());
    m_filesTable = new FilteredTable(m_files, QStringLiteral("Filter files"), this);
    m_pathTable = new FilteredTable(m_path, QStringLiteral("Filter the critical path"), this);
    auto* headers = new FilteredTable(m_headers, QStringLiteral("Filter headers"), this);
    auto* templates = new FilteredTable(m_templates, QStringLiteral("Filter templates"), this);
    headers->view()->setTextElideMode(Qt::ElideMiddle);  // a path's end names the header

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(titled(QStringLiteral("<b>Files</b>, slowest first (click a header to sort; Enter shows the compile on the timeline)"),
                          m_filesTable, top));
    top->addWidget(titled(QStringLiteral("<b>Critical path</b>, in build order"), m_pathTable, top));
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(titled(QStringLiteral("<b>Headers</b> by inclusive parse time over all files"), headers, bottom));
    bottom->addWidget(titled(QStringLiteral("<b>Template instantiations</b> by time over all files"), templates, bottom));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(bottom);
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
    for (auto [table, model] : {std::pair{headers, m_headers}, std::pair{templates, m_templates}}) {
        // A header or template leads to its most expensive span, the evidence (no range known here).
        connect(table, &FilteredTable::activated, this, [this, model = model](const QModelIndex& i) {
            if (const auto* c = model->rowAt(i.row())) emit spanRequested(c->worstSpanId, 0, 0);
        });
        // Header paths and template names run to hundreds of characters: their column is capped so
        // that the times beside them stay in view (each cut name is whole in its tooltip). Connected
        // after the table's own resize on reset, so it runs after it.
        connect(model, &QAbstractItemModel::modelReset, table, [t = table] {
            if (t->view()->columnWidth(0) > kNameWidth) t->view()->setColumnWidth(0, kNameWidth);
        });
    }
}

void BuildView::setDocument(const TraceDocument& doc) {
    BuildReportPtr report = doc.analyses && doc.analyses->trace ? doc.analyses->trace->build : nullptr;
    if (report && report->empty()) report = nullptr;
    if (report == m_report) return;  // the same snapshot: keep the user's sorting and selection
    m_report = report;
    m_headline->setText(report ? buildHeadline(*report) : noBuild());
    m_files->setRows(buildFileRows(report));
    m_path->setRows(report ? buildPathRows(*report) : std::make_shared<const std::vector<BuildPathRow>>());
    m_headers->setRows(report ? buildCostRows(report, report->headers) : buildCostRows(nullptr, {}));
    m_templates->setRows(report ? buildCostRows(report, report->templates) : buildCostRows(nullptr, {}));
}

QString BuildView::headline() const { return m_headline->text(); }

}  // namespace cs::gui
