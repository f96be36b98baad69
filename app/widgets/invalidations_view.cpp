#include "invalidations_view.h"

#include "filtered_table.h"
#include "how_to_record.h"
#include "icicle_view.h"
#include "app/models/text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <set>

namespace cs::gui {

InvalidationsView::InvalidationsView(QWidget* parent)
    : QWidget(parent), m_model(makeInvalidationsModel(this)), m_module(new QComboBox(this)), m_path(new QLineEdit(this)),
      m_summary(new QLabel(this)) {
    m_table = new FilteredTable(m_model, QStringLiteral("Search the trees (method, signature, MethodInstance)"), this);
    m_icicle = new IcicleView(this);
    m_path->setPlaceholderText(QStringLiteral("Path to a method: type part of a MethodInstance, press Enter"));
    m_module->setToolTip(QStringLiteral("Only trees whose root method is defined in this module (SnoopCompile filtermod)"));
    auto* tools = new QHBoxLayout;
    tools->addWidget(new QLabel(QStringLiteral("Module:")));
    tools->addWidget(m_module);
    tools->addWidget(m_path, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(tools);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_icicle);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    connect(m_icicle, &IcicleView::nodeClicked, this, [this](int node) {
        m_table->filter()->clear();
        m_table->selectSource(m_model->indexOfNode(node));
    });
    connect(m_module, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { rebuild(); });
    connect(m_path, &QLineEdit::returnPressed, this, [this] { showPathTo(m_path->text()); });
}

void InvalidationsView::setDocument(const TraceDocument& doc) {
    auto forest = doc.analyses ? doc.analyses->invalidations : nullptr;
    m_table->setEmptyText(lacksSentence(doc.summary.get(), QStringLiteral("Julia invalidation"), QStringLiteral("Julia")) +
                          QStringLiteral(", or import SnoopCompile's printed trees: compilescope import trees.txt -o t.cstrace"));
    m_figures = doc.analyses ? doc.analyses->figures : nullptr;
    if (forest == m_forest && m_tree) return;
    m_forest = forest;
    QSignalBlocker block(m_module);
    m_module->clear();
    m_module->addItem(QStringLiteral("(all modules)"));
    if (forest) {
        std::set<std::string> modules;
        for (const engine::MethodInvalidations& t : forest->trees)
            if (!t.module.empty()) modules.insert(t.module);
        for (const std::string& m : modules) m_module->addItem(qs(m));
    }
    rebuild();
}

void InvalidationsView::rebuild() {
    m_shown = m_forest;
    if (m_forest && m_module->currentIndex() > 0) m_shown = engine::filterTrees(*m_forest, m_module->currentText().toStdString(), 0);
    // The whole forest's rows and summary show its keyed figures (engine/analysis/trace_figures.h); a module's
    // trees are a filter's own counts.
    const engine::TraceFigures* figures = m_shown == m_forest ? m_figures.get() : nullptr;
    m_tree = buildInvalidationTree(m_shown, figures);
    m_model->setTree(m_tree);
    m_icicle->setTree(m_tree);
    // Most children first: the trees worth reading come on top (SnoopCompile prints them last).
    m_table->view()->sortByColumn(1, Qt::DescendingOrder);
    if (m_tree->nodes.size() < 500) m_table->view()->expandToDepth(3);
    m_table->resizeColumns();
    if (!m_shown) {
        m_summary->setText(QStringLiteral("No Julia invalidation log in this trace."));
        return;
    }
    m_summary->setText(forestSummary(*m_shown, *m_forest, figures));
}

// "2 trees (4 children, 7 invalidated MethodInstances) from 31 log items, 20.8 s of recompilation
// joined": the whole forest's counts are its keyed figures; children and MethodInstances labelled apart.
QString InvalidationsView::forestSummary(const engine::InvalidationForest& shown, const engine::InvalidationForest& all,
                                         const engine::TraceFigures* figures) {
    std::int64_t cost = 0, children = 0, invalidated = 0;
    for (const engine::MethodInvalidations& t : shown.trees) {
        cost += t.recompileNs;
        children += t.children;
        invalidated += t.invalidatedInstances;
    }
    auto text = [figures](const char* key, QString fallback) {
        const engine::Figure* f = figures ? figures->find(key) : nullptr;
        return f ? qs(engine::figureText(*f)) : fallback;
    };
    const QString trees = text("invalidations.trees", groupedCount(static_cast<std::int64_t>(shown.trees.size())));
    return QStringLiteral("%1 %2 (%3 children, %4 invalidated MethodInstances) from %5 log items%6%7")
        .arg(trees, shown.trees.size() == 1 ? QStringLiteral("tree") : QStringLiteral("trees"),
             text("invalidations.children", groupedCount(children)), text("invalidations.invalidated", groupedCount(invalidated)),
             text("invalidations.items", groupedCount(all.items + all.printedLines)))
        .arg(all.costJoined ? QStringLiteral(", %1 of recompilation joined").arg(text("invalidations.recompile_ns", durationText(cost)))
                            : QStringLiteral(", no compile timings to join"))
        .arg(all.problems.empty() ? QString() : QStringLiteral(", %1 problem(s) reading the log").arg(text("invalidations.problems", groupedCount(static_cast<std::int64_t>(all.problems.size())))));
}

bool InvalidationsView::showPathTo(const QString& needle) {
    if (!m_shown || needle.trimmed().isEmpty()) return false;
    auto path = engine::findCaller(*m_shown, needle.trimmed().toStdString());
    if (!path || path->nodes.empty()) {
        m_summary->setText(QStringLiteral("No MethodInstance contains “%1”.").arg(needle));
        return false;
    }
    std::int32_t target = path->nodes.back();
    if (target < 0 || static_cast<std::size_t>(target) >= m_tree->itemOfNode.size()) return false;
    m_table->selectSource(m_model->indexOfNode(m_tree->itemOfNode[static_cast<std::size_t>(target)]));
    return true;
}

bool InvalidationsView::showTree(std::size_t index) {
    if (!m_forest || index >= m_forest->trees.size()) return false;
    if (m_shown != m_forest) m_module->setCurrentIndex(0);  // rebuilds over the whole forest
    if (!m_tree || index >= m_tree->itemOfTree.size()) return false;
    const QModelIndex root = m_model->indexOfNode(m_tree->itemOfTree[index]);
    m_table->filter()->clear();
    m_table->selectSource(root);
    return root.isValid();
}

QString InvalidationsView::summary() const { return m_summary->text(); }

}  // namespace cs::gui
