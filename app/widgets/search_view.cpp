#include "search_view.h"

#include "filtered_table.h"

#include <QLabel>
#include <QVBoxLayout>

namespace cs::gui {

SearchView::SearchView(QWidget* parent)
    : QWidget(parent), m_model(makeSearchModel(this)),
      m_summary(new QLabel(QStringLiteral("Type in the search box above to find any name in the open traces."), this)) {
    m_table = new FilteredTable(m_model, QStringLiteral("Narrow the results"), this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    connect(m_table, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        if (const SearchRow* r = m_model->rowAt(i.row())) emit rowActivated(*r);
    });
}

void SearchView::setResults(const QString& needle, std::shared_ptr<const std::vector<SearchRow>> rows) {
    m_summary->setText(QStringLiteral("%1 match(es) for “%2”%3")
                           .arg(rows->size())
                           .arg(needle)
                           .arg(rows->size() >= 2000 ? QStringLiteral(" (first 2000 shown)") : QString()));
    m_model->setRows(std::move(rows));
}

}  // namespace cs::gui
