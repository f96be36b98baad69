// Search results: every span, module load (by name or hash), program or kernel whose name contains
// the search text, every span with an argument holding it, and every item of a category whose name
// does; activating one selects it on the timeline. All matches, fetched as the list scrolls and
// sorted whole by the header; or, per name, how many, their total and their longest duration.
#pragma once

#include "app/models/search_model.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QStackedWidget;

namespace cs::gui {

class FilteredTable;

class SearchView : public QWidget {
    Q_OBJECT
public:
    explicit SearchView(QWidget* parent = nullptr);
    void setResults(const QString& needle, std::shared_ptr<const std::vector<SearchRow>> rows,
                    std::shared_ptr<const std::vector<SearchTotalRow>> totals = nullptr);
    // While span arguments are still being read from the files (their hits come after the names').
    void setArgumentsPending(bool pending);
    bool argumentsPending() const { return m_pending; }
    SearchModel* model() const { return m_model; }
    SearchTotalsModel* totalsModel() const { return m_totals; }
    FilteredTable* table() const { return m_table; }
    QCheckBox* perName() const { return m_perName; }
    QString summary() const;

signals:
    void rowActivated(const cs::gui::SearchRow& row);

private:
    SearchModel* m_model;
    SearchTotalsModel* m_totals;
    FilteredTable* m_table;
    FilteredTable* m_totalsTable;
    QCheckBox* m_perName;
    QStackedWidget* m_stack;
    QLabel* m_summary;
    QString m_found;  // "N match(es) for ..." of the results shown
    bool m_pending = false;
};

}  // namespace cs::gui
