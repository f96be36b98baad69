// Search results: every span, module, program or kernel whose name contains the search text;
// activating one selects it on the timeline.
#pragma once

#include "app/models/search_model.h"

#include <QWidget>

class QLabel;

namespace cs::gui {

class FilteredTable;

class SearchView : public QWidget {
    Q_OBJECT
public:
    explicit SearchView(QWidget* parent = nullptr);
    void setResults(const QString& needle, std::shared_ptr<const std::vector<SearchRow>> rows);
    SearchModel* model() const { return m_model; }

signals:
    void rowActivated(const cs::gui::SearchRow& row);

private:
    SearchModel* m_model;
    FilteredTable* m_table;
    QLabel* m_summary;
};

}  // namespace cs::gui
