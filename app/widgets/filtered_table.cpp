#include "filtered_table.h"

#include "column_fit.h"

#include "app/models/table_model.h"

#include <QEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QColor>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

namespace {
// The proxy that turns a model's Tone (table_model.h) into the cell's text colour (and a link's
// underline).
class ToneProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QVariant data(const QModelIndex& index, int role) const override {
        if (role != Qt::ForegroundRole && role != Qt::FontRole) return QSortFilterProxyModel::data(index, role);
        const QVariant tone = QSortFilterProxyModel::data(index, ToneRole);
        if (!tone.isValid()) return QSortFilterProxyModel::data(index, role);
        if (role == Qt::FontRole) {
            if (static_cast<Tone>(tone.toInt()) != Tone::Link) return QSortFilterProxyModel::data(index, role);
            QFont f;
            f.setUnderline(true);
            return f;
        }
        switch (static_cast<Tone>(tone.toInt())) {
        case Tone::Link: return QColor(0x15, 0x65, 0xc0);
        case Tone::Good: return QColor(0x2e, 0x7d, 0x32);
        case Tone::Notice: return QColor(0xb2, 0x6a, 0x00);
        case Tone::Bad: return QColor(0xc6, 0x28, 0x28);
        case Tone::Neutral: break;
        }
        return {};
    }
};
}  // namespace

FilteredTable::FilteredTable(QAbstractItemModel* model, const QString& placeholder, QWidget* parent)
    : QWidget(parent), m_filter(new QLineEdit(this)), m_empty(new QLabel(this)), m_proxy(new ToneProxy(this)), m_view(new QTreeView(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_filter->setPlaceholderText(placeholder);
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);
    layout->addWidget(m_empty, 1);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);  // the record command, to copy
    m_empty->hide();
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
    m_view->setTextElideMode(Qt::ElideMiddle);  // a name keeps its start and end; the whole is its tooltip
    m_view->setItemDelegate(new ElidedTipDelegate(m_view));
    m_view->viewport()->installEventFilter(this);
    connect(m_view->header(), &QHeaderView::sectionResized, this, [this] {
        if (!m_fitting && QGuiApplication::mouseButtons() != Qt::NoButton) m_userSized = true;
    });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& i) { emit activated(m_proxy->mapToSource(i)); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& i) { emit current(m_proxy->mapToSource(i)); });
    connect(model, &QAbstractItemModel::modelReset, this, &FilteredTable::resizeColumns);
    connect(model, &QAbstractItemModel::modelReset, this, &FilteredTable::updateEmpty);
    connect(model, &QAbstractItemModel::rowsInserted, this, &FilteredTable::updateEmpty);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &FilteredTable::updateEmpty);
}

void FilteredTable::resizeColumns() {
    m_fitting = true;
    fitColumns(m_view);
    m_fitting = false;
}

bool FilteredTable::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize && !m_userSized) resizeColumns();
    return QWidget::eventFilter(watched, event);
}

void FilteredTable::selectSource(const QModelIndex& source) {
    QModelIndex i = m_proxy->mapFromSource(source);
    if (!i.isValid()) return;
    m_view->setCurrentIndex(i);
    m_view->scrollTo(i);
}

void FilteredTable::setEmptyText(const QString& text) {
    m_empty->setText(text);
    updateEmpty();
}

QString FilteredTable::shownEmptyText() const { return m_empty->isVisibleTo(this) ? m_empty->text() : QString(); }

void FilteredTable::updateEmpty() {
    const bool empty = !m_empty->text().isEmpty() && m_proxy->sourceModel()->rowCount() == 0;
    m_empty->setVisible(empty);
    m_view->setVisible(!empty);
    m_filter->setVisible(!empty);
}

}  // namespace cs::gui
