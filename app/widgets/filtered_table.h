// A filter box over a sortable tree/table view: the one way every table of the GUI is shown.
// Filtering and sorting live in a proxy (docs/practices.md 6); activation reports the source index. Columns
// are fitted to the view's width (column_fit.h) on each reset and resize until the user drags one.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;
class QAbstractItemModel;
class QModelIndex;

namespace cs::gui {

class FilteredTable : public QWidget {
    Q_OBJECT
public:
    explicit FilteredTable(QAbstractItemModel* model, const QString& placeholder, QWidget* parent = nullptr);
    QTreeView* view() const { return m_view; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QLineEdit* filter() const { return m_filter; }
    // Fits the columns to their content and the view's width (column_fit.h).
    void resizeColumns();
    // The sentence shown in place of the table while its model has no row (what the trace lacks and
    // how to record it, how_to_record.h); "" shows the empty table.
    void setEmptyText(const QString& text);
    // The sentence shown now; "" while the table shows rows (or no sentence is set).
    QString shownEmptyText() const;
    // Selects and scrolls to a source index.
    void selectSource(const QModelIndex& source);

signals:
    void activated(const QModelIndex& source);
    void current(const QModelIndex& source);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool m_fitting = false;    // resizeColumns is resizing: not the user
    bool m_userSized = false;  // the user dragged a column: window resizes keep their widths
    void updateEmpty();
    QLineEdit* m_filter;
    QLabel* m_empty;  // setEmptyText's sentence, shown instead of the table
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
};

}  // namespace cs::gui
