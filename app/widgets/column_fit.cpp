// Fitting a table's columns to its width (column_fit.h says why).
#include "column_fit.h"

#include <QAbstractItemView>
#include <QHeaderView>
#include <QHelpEvent>
#include <QRegularExpression>
#include <QToolTip>
#include <QTreeView>

#include <algorithm>
#include <vector>

namespace cs::gui {

namespace {
constexpr int kSampleRows = 200;  // rows read to tell a figure column from a name column
constexpr int kMinNameChars = 14;  // a name column keeps this much of its text at least

struct Column {
    int natural = 0;  // content and header, as resizeColumnToContents measures them
    int least = 0;    // what it keeps when the view is narrow
};

// A column of figures: every sampled cell is one (or empty).
bool figureColumn(const QAbstractItemModel* m, int column) {
    for (int r = 0; r < std::min(m->rowCount(), kSampleRows); ++r) {
        const QString text = m->index(r, column).data().toString();
        if (!text.isEmpty() && !isFigureText(text)) return false;
    }
    return true;
}

// The widest name width T such that the columns, each min(natural, max(least, T)), fill `room`.
int nameCap(const std::vector<Column>& cols, int room) {
    auto total = [&](int cap) {
        int sum = 0;
        for (const Column& c : cols) sum += std::min(c.natural, std::max(c.least, cap));
        return sum;
    };
    int lo = 0, hi = 0;
    for (const Column& c : cols) hi = std::max(hi, c.natural);
    if (total(hi) <= room) return hi;
    while (lo < hi) {  // the largest cap whose total fits
        const int mid = (lo + hi + 1) / 2;
        if (total(mid) <= room) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}
}  // namespace

bool isFigureText(const QString& text) {
    // "2047 s", "96.9%", "1389", "0.000374", "lookup-free" figures such as "n/a", "×2.1", "3 / 5".
    static const QRegularExpression figure(QStringLiteral(
        R"(^\s*(n/a|—|-|[<>~≈+−×x-]?\s*\d[\d.,:]*\s*(ns|µs|ms|s|min|h|%|×|x|B|KiB|MiB|GiB)?(\s*/\s*\d+)?)\s*$)"));
    return figure.match(text).hasMatch();
}

void fitColumns(QTreeView* view) {
    QHeaderView* header = view->header();
    const QAbstractItemModel* m = view->model();
    if (!m || m->columnCount() == 0) return;
    std::vector<Column> cols(static_cast<std::size_t>(m->columnCount()));
    const int nameLeast = view->fontMetrics().averageCharWidth() * kMinNameChars;
    for (int c = 0; c < m->columnCount(); ++c) {
        Column& col = cols[static_cast<std::size_t>(c)];
        if (header->isSectionHidden(c) || header->sectionResizeMode(c) != QHeaderView::Interactive) {
            col.natural = col.least = header->isSectionHidden(c) ? 0 : header->sectionSize(c);
            continue;
        }
        view->resizeColumnToContents(c);
        col.natural = header->sectionSize(c);
        col.least = figureColumn(m, c) ? col.natural : std::min(col.natural, std::max(header->sectionSizeHint(c), nameLeast));
    }
    const int cap = nameCap(cols, view->viewport()->width());
    for (int c = 0; c < m->columnCount(); ++c) {
        const Column& col = cols[static_cast<std::size_t>(c)];
        if (!header->isSectionHidden(c) && header->sectionResizeMode(c) == QHeaderView::Interactive)
            header->resizeSection(c, std::min(col.natural, std::max(col.least, cap)));
    }
}

bool ElidedTipDelegate::helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                                  const QModelIndex& index) {
    if (event->type() != QEvent::ToolTip || !index.isValid() || index.data(Qt::ToolTipRole).isValid())
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    const QString text = index.data().toString();
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const int margin = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    const int room = view->visualRect(index).width() - margin - (opt.decorationSize.width() * !opt.icon.isNull());
    if (text.isEmpty() || opt.fontMetrics.horizontalAdvance(text) <= room) {
        QToolTip::hideText();
        return true;
    }
    QToolTip::showText(event->globalPos(), text, view);
    return true;
}

}  // namespace cs::gui
