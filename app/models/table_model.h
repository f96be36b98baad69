// The two generic models every table and tree of the GUI is made of (one flat table, one tree: every view is one of them).
//
// Why templates over immutable snapshots: the engine hands out const vectors and trees computed on a
// worker thread; a model only maps (row, column) to text, so each view's model is a list of
// Column<Row> lambdas, not a hand-written QAbstractItemModel. Sorting and filtering happen in a
// QSortFilterProxyModel over SortRole, never by mutating the snapshot.
#pragma once

#include <QAbstractItemModel>
#include <QString>
#include <QVariant>

#include <functional>
#include <memory>
#include <vector>

namespace cs::gui {

enum ModelRole {
    SortRole = Qt::UserRole + 1,  // value to sort by (numbers as numbers)
    RowRole,                      // index of the row / node in the snapshot
    FilterRole,                   // text a filter box matches
    ToneRole                      // a Tone: how the views colour the cell (models stay QtCore-only)
};

// What a cell's colour says; the widgets map it to a colour (filtered_table.cpp).
// Link: the cell opens another view when activated (a finding's evidence row).
enum class Tone { Neutral = 0, Good = 1, Notice = 2, Bad = 3, Link = 4 };

template <typename Row>
struct Column {
    QString header;
    std::function<QVariant(const Row&)> display;
    std::function<QVariant(const Row&)> sort{};     // empty: sort by display
    Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter;
    std::function<QVariant(const Row&)> tooltip{};  // empty: the cell's own text
    std::function<Tone(const Row&)> tone{};         // empty: neutral
};

template <typename Row>
QVariant columnData(const Column<Row>& c, const Row& row, int role) {
    switch (role) {
    case Qt::DisplayRole: return c.display(row);
    case FilterRole: return c.display(row).toString();
    case SortRole: return c.sort ? c.sort(row) : c.display(row);
    case Qt::TextAlignmentRole: return QVariant::fromValue(c.align);
    case ToneRole: return c.tone ? QVariant(static_cast<int>(c.tone(row))) : QVariant();
    // One rule for elided text: a cell without a tooltip of its own shows its full text.
    case Qt::ToolTipRole: {
        if (c.tooltip) return c.tooltip(row);
        QVariant v = c.display(row);
        return v.typeId() == QMetaType::QString && !v.toString().isEmpty() ? v : QVariant();
    }
    default: return {};
    }
}

template <typename Row>
QVariant columnHeader(const std::vector<Column<Row>>& columns, int section, Qt::Orientation o, int role) {
    if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= static_cast<int>(columns.size())) return {};
    return columns[static_cast<std::size_t>(section)].header;
}

// A flat table over a shared, immutable vector of rows.
template <typename Row>
class TableModel : public QAbstractTableModel {
public:
    explicit TableModel(std::vector<Column<Row>> columns, QObject* parent = nullptr)
        : QAbstractTableModel(parent), m_columns(std::move(columns)) {}

    // Swaps the snapshot in whole: the view never sees a half-built one.
    void setRows(std::shared_ptr<const std::vector<Row>> rows) {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
    const Row* rowAt(int i) const {
        return m_rows && i >= 0 && i < static_cast<int>(m_rows->size()) ? &(*m_rows)[static_cast<std::size_t>(i)] : nullptr;
    }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() || !m_rows ? 0 : static_cast<int>(m_rows->size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
    }
    QVariant data(const QModelIndex& index, int role) const override {
        const Row* row = index.isValid() ? rowAt(index.row()) : nullptr;
        if (!row || index.column() >= columnCount()) return {};
        if (role == RowRole) return index.row();
        return columnData(m_columns[static_cast<std::size_t>(index.column())], *row, role);
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override { return columnHeader(m_columns, section, o, role); }

private:
    std::vector<Column<Row>> m_columns;
    std::shared_ptr<const std::vector<Row>> m_rows;
};

// An immutable tree: nodes in one vector, node 0..roots-1 are not special; parent == -1 for roots.
template <typename Item>
struct Tree {
    struct Node {
        Item item;
        int parent = -1;
        int indexInParent = 0;
        std::vector<int> children;
    };
    std::vector<Node> nodes;
    std::vector<int> roots;

    int add(Item item, int parent = -1) {
        int id = static_cast<int>(nodes.size());
        std::vector<int>& siblings = parent < 0 ? roots : nodes[static_cast<std::size_t>(parent)].children;
        nodes.push_back({std::move(item), parent, static_cast<int>(siblings.size()), {}});
        (parent < 0 ? roots : nodes[static_cast<std::size_t>(parent)].children).push_back(id);
        return id;
    }
};

// A tree model over a shared, immutable Tree<Item>; an index's internalId is the node id.
template <typename Item>
class TreeModel : public QAbstractItemModel {
public:
    using TreeType = Tree<Item>;
    explicit TreeModel(std::vector<Column<Item>> columns, QObject* parent = nullptr)
        : QAbstractItemModel(parent), m_columns(std::move(columns)) {}

    void setTree(std::shared_ptr<const TreeType> tree) {
        beginResetModel();
        m_tree = std::move(tree);
        endResetModel();
    }
    const Item* itemAt(const QModelIndex& index) const {
        return index.isValid() && m_tree ? &m_tree->nodes[index.internalId()].item : nullptr;
    }
    QModelIndex indexOfNode(int node) const {
        if (!m_tree || node < 0 || node >= static_cast<int>(m_tree->nodes.size())) return {};
        return createIndex(m_tree->nodes[static_cast<std::size_t>(node)].indexInParent, 0, static_cast<quintptr>(node));
    }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override {
        if (!m_tree || row < 0 || column < 0 || column >= columnCount()) return {};
        const std::vector<int>& kids = children(parent);
        if (row >= static_cast<int>(kids.size())) return {};
        return createIndex(row, column, static_cast<quintptr>(kids[static_cast<std::size_t>(row)]));
    }
    QModelIndex parent(const QModelIndex& child) const override {
        if (!child.isValid() || !m_tree) return {};
        int p = m_tree->nodes[child.internalId()].parent;
        return p < 0 ? QModelIndex() : indexOfNode(p);
    }
    int rowCount(const QModelIndex& parent = {}) const override {
        if (!m_tree || (parent.isValid() && parent.column() != 0)) return 0;
        return static_cast<int>(children(parent).size());
    }
    int columnCount(const QModelIndex& = {}) const override { return static_cast<int>(m_columns.size()); }
    QVariant data(const QModelIndex& index, int role) const override {
        const Item* item = itemAt(index);
        if (!item) return {};
        if (role == RowRole) return static_cast<int>(index.internalId());
        return columnData(m_columns[static_cast<std::size_t>(index.column())], *item, role);
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override { return columnHeader(m_columns, section, o, role); }

private:
    const std::vector<int>& children(const QModelIndex& parent) const {
        return parent.isValid() ? m_tree->nodes[parent.internalId()].children : m_tree->roots;
    }
    std::vector<Column<Item>> m_columns;
    std::shared_ptr<const TreeType> m_tree;
};

}  // namespace cs::gui
