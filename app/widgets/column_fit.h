// Column widths that keep every figure in view (issue 39, "Tables").
//
// Why: the tables were sized once to their content and then cut by the window: at 1280 x 800 a
// session's lifetime read "204" for 2047 s, the load sequence lost its ↺ mark and the counts sat
// off-screen behind a long name. Here every column gets its content's width; where the view is
// narrower than that, only the columns of names give way (elided in the middle, whole in their
// tooltip), the widest first, never below their header; the view scrolls sideways only when the
// names at that width still do not fit.
#pragma once

#include <QStyledItemDelegate>

class QTreeView;

namespace cs::gui {

// Whether a cell's text is a figure (a count, a duration, a share): those columns never shrink.
bool isFigureText(const QString& text);

// Sizes the Interactive columns of `view` as above, to its viewport's width.
void fitColumns(QTreeView* view);

// Shows a cell's whole text as its tooltip when the cell elides it and the model gives no tooltip.
class ElidedTipDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option, const QModelIndex& index) override;
};

}  // namespace cs::gui
