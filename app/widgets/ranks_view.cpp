#include "ranks_view.h"

#include "filtered_table.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

RanksView::RanksView(QWidget* parent)
    : QWidget(parent), m_model(makeRanksModel(this)), m_findings(makeFindingsModel(this)), m_headline(new QLabel(this)) {
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setWordWrap(true);
    m_findingsTable = new FilteredTable(m_findings, QStringLiteral("Filter rank findings"), this);
    m_table = new FilteredTable(m_model, QStringLiteral("Filter ranks"), this);
    m_table->view()->sortByColumn(1, Qt::DescendingOrder);  // slowest first, as the report lists them
    // A divergent program's title names every rank: it takes the width there is, elided (its tooltip
    // is whole), so that severity, cost and kind stay in view.
    QHeaderView* header = m_findingsTable->view()->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(0, QHeaderView::Stretch);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_findingsTable);
    split->addWidget(m_table);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(split, 1);
    connect(m_table, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        if (const RankRow* r = m_model->rowAt(i.row())) emit rankActivated(r->doc);
    });
    connect(m_findingsTable, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        const FindingItem* it = m_findings->itemAt(i);
        if (!it || !m_ranks) return;
        // The finding itself opens its first evidence row: the rank that diverges or is slow.
        const std::size_t e = it->evidence >= 0 ? static_cast<std::size_t>(it->evidence) : 0;
        if (e >= it->finding->evidence.size()) return;
        const engine::Evidence& ev = it->finding->evidence[e];
        const int doc = rankDocOf(*m_ranks, ev);
        if (doc >= 0) emit evidenceActivated(doc, ev);
    });
}

void RanksView::setRanks(RanksPtr ranks) {
    m_ranks = std::move(ranks);
    m_headline->setText(m_ranks ? ranksHeadline(*m_ranks) : QString());
    m_model->setRows(m_ranks ? std::shared_ptr<const std::vector<RankRow>>(m_ranks, &m_ranks->rows) : nullptr);
    m_findings->setTree(buildFindingTree(m_ranks ? m_ranks->findings : nullptr));
    m_findingsTable->view()->expandAll();
    m_table->resizeColumns();
    m_findingsTable->resizeColumns();

}

QString RanksView::headline() const { return m_headline->text(); }

}  // namespace cs::gui
