#include "modules_view.h"

#include "filtered_table.h"

#include <QLabel>

#include <algorithm>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

FindingsPtr findingsOfKind(const FindingsPtr& all, const std::string& prefix, std::vector<int>* indices) {
    auto out = std::make_shared<std::vector<engine::Finding>>();
    if (!all) return out;
    for (std::size_t i = 0; i < all->size(); ++i)
        if ((*all)[i].kind.rfind(prefix, 0) == 0) {
            out->push_back((*all)[i]);
            if (indices) indices->push_back(static_cast<int>(i));
        }
    return out;
}

ModulesView::ModulesView(QWidget* parent)
    : QWidget(parent), m_model(makeModulesModel(this)), m_findings(makeFindingsModel(this)) {
    m_table = new FilteredTable(m_model, QStringLiteral("Filter modules, hashes, differences"), this);
    auto* findings = new FilteredTable(m_findings, QStringLiteral("Filter Warp findings"), this);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(findings);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(QStringLiteral("Repeated hashes: a module name built under several identities "
                                                "(kernel set × options × block_dim × generic instances) builds once per identity.")));
    layout->addWidget(split, 1);
    connect(findings, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        if (const FindingItem* it = m_findings->itemAt(i)) emit findingActivated(it->findingIndex);  // index in the full list
    });
}

void ModulesView::setDocument(const TraceDocument& doc) {
    auto report = doc.analyses ? doc.analyses->modules : nullptr;
    if (report != m_report || !m_tree) {
        m_report = report;
        m_tree = buildModuleTree(report);
        m_model->setTree(m_tree);
        if (m_tree->nodes.size() < 500) m_table->view()->expandAll();  // identities and differences at a glance
        m_table->resizeColumns();
    }
    std::vector<int> indices;
    findingsOfKind(doc.findings, "warp.", &indices);
    auto tree = std::make_shared<FindingTreeSnapshot>();
    tree->findings = doc.findings;
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const engine::Finding& f = (*doc.findings)[static_cast<std::size_t>(indices[k])];
        int node = tree->add({&f, -1, indices[k]});
        for (std::size_t e = 0; e < f.evidence.size(); ++e) tree->add({&f, static_cast<int>(e), indices[k]}, node);
    }
    m_findings->setTree(tree);
}

bool ModulesView::showLoad(std::int64_t id) {
    if (!m_tree) return false;
    for (std::size_t n = 0; n < m_tree->nodes.size(); ++n) {
        const ModuleItem& it = m_tree->nodes[n].item;
        if (it.identity < 0 || it.change) continue;
        const auto& loads = it.module->identities[static_cast<std::size_t>(it.identity)].loadIds;
        if (std::find(loads.begin(), loads.end(), id) != loads.end()) {
            m_table->selectSource(m_model->indexOfNode(static_cast<int>(n)));
            return true;
        }
    }
    return false;
}

}  // namespace cs::gui
