#include "modules_view.h"

#include "filtered_table.h"
#include "how_to_record.h"

#include "app/models/text.h"

#include <QLabel>

#include <algorithm>
#include <optional>
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

QString moduleHeadline(const engine::warp::ModuleReport* report, std::int64_t repeatedNames) {
    if (!report || (report->loadCount == 0 && report->counters.empty())) return QStringLiteral("No Warp module loads in this trace.");
    QString text = QStringLiteral("<b>%1 module loads</b>: %2 compiled, %3 cached, %4 errors; %5 module names, %6 built under "
                                  "several identities.")
                       .arg(groupedCount(report->loadCount), groupedCount(report->compiled), groupedCount(report->cached),
                            groupedCount(report->errors), groupedCount(static_cast<std::int64_t>(report->modules.size())),
                            groupedCount(repeatedNames));
    // The probe's own figures (warp_probe_importer.h), per session that ran one.
    for (const auto& entry : report->counters) {
        const auto& counters = entry.second;  // a named reference: clang 14 cannot capture a structured binding
        auto get = [&](const char* name) -> std::optional<std::int64_t> {
            auto it = counters.find(std::string("warp.probe/") + name);
            return it == counters.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
        };
        auto cold = get("cold_module_ns_median");
        if (!cold) continue;
        text += QStringLiteral("<br><b>Probe</b> (%1 samples): cold module %2 median").arg(get("samples").value_or(0)).arg(durationText(*cold));
        if (auto mad = get("cold_module_ns_mad")) text += QStringLiteral(" (MAD %1)").arg(durationText(*mad));
        if (auto warm = get("warm_module_ns_median")) text += QStringLiteral(", warm module %1").arg(durationText(*warm));
        if (auto native = get("native_compile_ns_median")) text += QStringLiteral(", native compile %1").arg(durationText(*native));
        text += QStringLiteral("; %1 compiled, %2 cached events").arg(get("compiled_events").value_or(0)).arg(get("cached_events").value_or(0));
    }
    return text;
}

ModulesView::ModulesView(QWidget* parent)
    : QWidget(parent), m_model(makeModulesModel(this)), m_findings(makeFindingsModel(this)), m_headline(new QLabel(this)) {
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setWordWrap(true);
    m_table = new FilteredTable(m_model, QStringLiteral("Filter modules, hashes, differences"), this);
    auto* findings = new FilteredTable(m_findings, QStringLiteral("Filter Warp findings"), this);
    findings->setEmptyText(QStringLiteral("No Warp finding: no module was built under several hashes or identities."));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(findings);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(new QLabel(QStringLiteral("Repeated hashes: a module name built under several identities "
                                                "(kernel set × options × block_dim × generic instances) builds once per identity.")));
    layout->addWidget(split, 1);
    connect(findings, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        if (const FindingItem* it = m_findings->itemAt(i)) emit findingActivated(it->findingIndex);  // index in the full list
    });
}

void ModulesView::setDocument(const TraceDocument& doc) {
    auto report = doc.analyses ? doc.analyses->modules : nullptr;
    m_table->setEmptyText(lacksSentence(doc.summary.get(), QStringLiteral("Warp module load"), QStringLiteral("Warp")));
    m_headline->setText(moduleHeadline(report.get(), doc.analyses && doc.analyses->trace ? doc.analyses->trace->repeatedModules() : 0));
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

QString ModulesView::headline() const { return m_headline->text(); }

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
