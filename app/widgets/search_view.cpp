#include "search_view.h"

#include "filtered_table.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

SearchView::SearchView(QWidget* parent)
    : QWidget(parent), m_model(makeSearchModel(this)), m_totals(makeSearchTotalsModel(this)),
      m_perName(new QCheckBox(QStringLiteral("Per name: count, total, longest"), this)), m_stack(new QStackedWidget(this)),
      m_summary(new QLabel(QStringLiteral("Type in the search box above to find any name, hash, span argument or category in the open traces."), this)) {
    m_table = new FilteredTable(m_model, QStringLiteral("Narrow the results"), this);
    m_totalsTable = new FilteredTable(m_totals, QStringLiteral("Narrow the names"), this);
    // The model sorts every match (lazy_table_model.h); the proxy only filters what was fetched.
    QTreeView* view = m_table->view();
    view->setSortingEnabled(false);
    view->header()->setSectionsClickable(true);
    view->header()->setSortIndicatorShown(true);
    view->header()->setSortIndicator(-1, Qt::AscendingOrder);
    connect(view->header(), &QHeaderView::sortIndicatorChanged, m_model,
            [this](int column, Qt::SortOrder order) { m_model->sort(column, order); });
    m_totalsTable->view()->sortByColumn(2, Qt::DescendingOrder);  // the largest total first
    m_stack->addWidget(m_table);
    m_stack->addWidget(m_totalsTable);
    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_perName);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_stack, 1);
    connect(m_perName, &QCheckBox::toggled, this, [this](bool on) { m_stack->setCurrentWidget(on ? m_totalsTable : m_table); });
    connect(m_table, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        if (const SearchRow* r = m_model->rowAt(i.row())) emit rowActivated(*r);
    });
}

void SearchView::setResults(const QString& needle, std::shared_ptr<const std::vector<SearchRow>> rows,
                            std::shared_ptr<const std::vector<SearchTotalRow>> totals) {
    m_found = QStringLiteral("%1 match(es) for “%2”%3")
                  .arg(rows->size())
                  .arg(needle)
                  .arg(totals ? QStringLiteral(" in %1 name(s)").arg(totals->size()) : QString());
    m_summary->setText(m_found);
    m_model->setRows(std::move(rows));
    m_totals->setRows(totals ? std::move(totals) : std::make_shared<const std::vector<SearchTotalRow>>());
}

void SearchView::setArgumentsPending(bool pending) {
    m_pending = pending;
    m_summary->setText(pending ? m_found + QStringLiteral(" · searching span arguments…") : m_found);
}

QString SearchView::summary() const { return m_summary->text(); }

}  // namespace cs::gui
