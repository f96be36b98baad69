#include "findings_view.h"

#include "filtered_table.h"

#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

FindingsView::FindingsView(QWidget* parent)
    : QWidget(parent), m_model(makeFindingsModel(this)), m_details(new QTextBrowser(this)) {
    m_table = new FilteredTable(m_model, QStringLiteral("Filter findings (title, kind, evidence)"), this);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_details);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);
    m_details->setHtml(QStringLiteral("<p>No findings yet.</p>"));
    connect(m_table, &FilteredTable::current, this, [this](const QModelIndex& i) {
        if (const FindingItem* it = m_model->itemAt(i)) m_details->setHtml(findingHtml(*it->finding));
    });
    connect(m_table, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        const FindingItem* it = m_model->itemAt(i);
        if (!it) return;
        // An evidence row is a link to its own view; the finding row leads to all of its evidence.
        if (it->evidence >= 0 && !evidenceView(it->finding->evidence[static_cast<std::size_t>(it->evidence)]).isEmpty())
            emit evidenceActivated(it->findingIndex, it->evidence);
        else
            emit findingActivated(it->findingIndex);
    });
}

void FindingsView::setFindings(FindingsPtr findings) {
    m_tree = buildFindingTree(findings);
    m_model->setTree(m_tree);
    m_table->view()->expandToDepth(0);
    m_details->setHtml(findings && !findings->empty()
                           ? QStringLiteral("<p>%1 finding(s). Select one for its mechanism, evidence, cost and fix; "
                                            "activate it (Enter, double-click) to see it on the timeline.</p>")
                                 .arg(findings->size())
                           : QStringLiteral("<p>No findings: no analysis found a problem in this trace.</p>"));
    if (findings && !findings->empty()) showFinding(0);  // the most severe first, explained
}

void FindingsView::showFinding(int index) {
    if (!m_tree) return;
    for (int root : m_tree->roots)
        if (m_tree->nodes[static_cast<std::size_t>(root)].item.findingIndex == index) {
            m_table->selectSource(m_model->indexOfNode(root));
            m_details->setHtml(findingHtml(*m_tree->nodes[static_cast<std::size_t>(root)].item.finding));
        }
}

QString FindingsView::details() const { return m_details->toPlainText(); }

}  // namespace cs::gui
