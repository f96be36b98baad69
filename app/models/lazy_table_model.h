// A table over a shared, immutable vector of rows that hands the view its rows in batches and sorts
// the whole vector, not only the part already fetched.
//
// Why: a search can match a million spans. TableModel would hand them all to the view at once, and
// a QSortFilterProxyModel over a lazily fetched model sorts only what was fetched, so "longest
// first" would mean "longest of the first thousand in trace order". This model keeps a permutation
// of every row, sorted by the column's SortRole value, and fetches from its front; the view's header
// calls sort() on the model itself (SearchView), never on a proxy.
#pragma once

#include "table_model.h"

#include <QPartialOrdering>

#include <algorithm>
#include <numeric>

namespace cs::gui {

template <typename Row>
class LazyTableModel : public QAbstractTableModel {
public:
    static constexpr std::size_t kBatch = 1000;
    explicit LazyTableModel(std::vector<Column<Row>> columns, QObject* parent = nullptr)
        : QAbstractTableModel(parent), m_columns(std::move(columns)) {}

    // Swaps the snapshot in, keeping the current sort: the model never sees a half-built one.
    void setRows(std::shared_ptr<const std::vector<Row>> rows) {
        const Busy busy(m_busy);
        beginResetModel();
        m_rows = std::move(rows);
        m_order.resize(m_rows ? m_rows->size() : 0);
        std::iota(m_order.begin(), m_order.end(), std::size_t{0});
        if (m_sortColumn >= 0) sortOrder();
        m_fetched = std::min(m_order.size(), kBatch);
        endResetModel();
    }
    std::size_t totalRows() const { return m_order.size(); }
    // Row `i` of the sorted result (fetched or not).
    const Row* rowAt(int i) const {
        return i >= 0 && static_cast<std::size_t>(i) < m_order.size() ? &(*m_rows)[m_order[static_cast<std::size_t>(i)]] : nullptr;
    }
    int sortColumn() const { return m_sortColumn; }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : static_cast<int>(m_fetched); }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
    }
    bool canFetchMore(const QModelIndex& parent) const override { return !parent.isValid() && m_fetched < m_order.size(); }
    // Not while this model is announcing a change: a listener (a view, QAbstractItemModelTester) that
    // asks for more rows from inside a reset or an insertion would nest one change in another.
    void fetchMore(const QModelIndex& parent) override {
        if (m_busy || !canFetchMore(parent)) return;
        const Busy busy(m_busy);
        const std::size_t n = std::min(kBatch, m_order.size() - m_fetched);
        beginInsertRows({}, static_cast<int>(m_fetched), static_cast<int>(m_fetched + n - 1));
        m_fetched += n;
        endInsertRows();
    }
    // Sorts every row, fetched or not, and starts fetching again from the top.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override {
        if (column < 0 || column >= columnCount()) return;
        const Busy busy(m_busy);
        beginResetModel();
        m_sortColumn = column;
        m_sortOrder = order;
        sortOrder();
        m_fetched = std::min(m_order.size(), kBatch);
        endResetModel();
    }
    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
        const Row* row = rowAt(index.row());
        if (role == RowRole) return index.row();
        return columnData(m_columns[static_cast<std::size_t>(index.column())], *row, role);
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override { return columnHeader(m_columns, section, o, role); }

private:
    struct Busy {
        bool& flag;
        explicit Busy(bool& f) : flag(f) { flag = true; }
        ~Busy() { flag = false; }
        Busy(const Busy&) = delete;
        Busy& operator=(const Busy&) = delete;
    };
    void sortOrder() {
        const Column<Row>& c = m_columns[static_cast<std::size_t>(m_sortColumn)];
        std::vector<QVariant> keys(m_rows->size());
        for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = columnData(c, (*m_rows)[i], SortRole);
        const bool descending = m_sortOrder == Qt::DescendingOrder;
        std::iota(m_order.begin(), m_order.end(), std::size_t{0});
        std::stable_sort(m_order.begin(), m_order.end(), [&](std::size_t a, std::size_t b) {
            const QPartialOrdering o = QVariant::compare(keys[a], keys[b]);
            return descending ? o == QPartialOrdering::Greater : o == QPartialOrdering::Less;
        });
    }
    std::vector<Column<Row>> m_columns;
    std::shared_ptr<const std::vector<Row>> m_rows;
    std::vector<std::size_t> m_order;  // sorted position -> index into m_rows
    std::size_t m_fetched = 0;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_busy = false;  // inside setRows / sort / fetchMore
};

}  // namespace cs::gui
