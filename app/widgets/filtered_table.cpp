#include "filtered_table.h"

#include "app/models/table_model.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

FilteredTable::FilteredTable(QAbstractItemModel* model, const QString& placeholder, QWidget* parent)
    : QWidget(parent), m_filter(new QLineEdit(this)), m_proxy(new QSortFilterProxyModel(this)), m_view(new QTreeView(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_filter->setPlaceholderText(placeholder);
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(SortRole);
    m_proxy->setFilterRole(FilterRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setRootIsDecorated(qobject_cast<QAbstractTableModel*>(model) == nullptr);
    m_view->sortByColumn(-1, Qt::AscendingOrder);  // snapshot order until the user sorts
    m_view->header()->setStretchLastSection(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& i) { emit activated(m_proxy->mapToSource(i)); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& i) { emit current(m_proxy->mapToSource(i)); });
    connect(model, &QAbstractItemModel::modelReset, this, &FilteredTable::resizeColumns);
}

void FilteredTable::resizeColumns() {
    for (int c = 0; c + 1 < m_proxy->columnCount(); ++c) m_view->resizeColumnToContents(c);
}

void FilteredTable::selectSource(const QModelIndex& source) {
    QModelIndex i = m_proxy->mapFromSource(source);
    if (!i.isValid()) return;
    m_view->setCurrentIndex(i);
    m_view->scrollTo(i);
}

}  // namespace cs::gui
