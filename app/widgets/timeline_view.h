// Timeline view: the lanes of every open trace, zoom / pan / fit tools, and the selection details.
#pragma once

#include "app/plots/timeline_plot.h"

#include <QColor>
#include <QList>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>

namespace cs::engine {
struct RowDetails;
}

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QPlainTextEdit;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace cs::gui {

class FilteredTable;
class RowDetailsFetcher;
struct RangeTableRow;
template <typename Row>
class TableModel;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    TimelinePlot* plot() const { return m_plot; }
    // The selection's details: what the timeline knows at once, then every stored column and
    // argument of its row (read on a worker thread: RowDetailsFetcher).
    QString details() const;
    bool detailsComplete() const { return m_detailsComplete; }
    // The Shift-drag range table (TimelinePlot::selectRange): one row per span name.
    FilteredTable* rangeTable() const { return m_rangeTable; }
    QString rangeHeadline() const;
    QTabWidget* bottomTabs() const { return m_tabs; }
    // Where the trace of timeline source `source` is, for the details read on demand ("" = none).
    void setTracePath(std::function<QString(int source)> path) { m_tracePath = std::move(path); }
    QString statusText() const;
    // The sentence shown instead of the plot when nothing has a time; "" while the plot shows.
    QString emptyText() const;
    // The legend's entries, as drawn above the plot ("compile", "cache load", "cache miss", ...).
    QStringList legendEntries() const;
    QList<QColor> legendColors() const;  // each entry's colour, in the same order
    // The Details tab's "Raw" toggle: the stored columns as they are, below the words.
    QCheckBox* rawToggle() const { return m_raw; }
    // What the open traces are missing (loss_banner.h): shown above the plot, hidden when "".
    void setLossText(const QString& text);
    QString lossBanner() const;
    bool followSelection() const;
    QToolButton* openInCacheButton() const { return m_openInCache; }
    // Search hits on the timeline: outlined, and stepped through with Enter / Shift+Enter in the
    // search box (stepHit(+1 / -1)), each selected and brought into view.
    void setSearchHits(const QString& needle, std::vector<TimelineSelection> hits);
    const QString& searchNeedle() const { return m_needle; }
    bool stepHit(int delta);  // false without hits
    int currentHit() const { return m_hit; }
    int hitCount() const { return static_cast<int>(m_hits.size()); }
    QString hitText() const;  // "match 3 of 12 for "gradient" (Enter: next, Shift+Enter: previous)"; "" without hits

signals:
    // "Open in Cache" on a selected cache-lookup mark: source and cache_lookups.id.
    void openLookup(int source, std::int64_t lookupId);

private:
    // The parts the constructor puts together (timeline_view.cpp).
    QHBoxLayout* makeTools();
    void setUpDetails();
    QWidget* makeRangePage();
    void setUpDetailTabs(QWidget* rangePage);
    QSplitter* makeSplit();
    void showHitLabel();  // "match i of n for ..." for the current hit
    void updateStatus();
    void showSelection();
    void renderDetails();  // the selection in words (and raw with the toggle) into the Details tab
    void showRange();
    TimelinePlot* m_plot;
    QPlainTextEdit* m_details;
    QTabWidget* m_tabs;
    RowDetailsFetcher* m_fetcher;
    bool m_detailsComplete = true;
    std::function<QString(int)> m_tracePath;
    TableModel<RangeTableRow>* m_rangeModel;
    FilteredTable* m_rangeTable;
    QLabel* m_rangeHeadline;
    QLabel* m_legend;
    // The plot, or a sentence in its place when the traces hold nothing with a time (no bare axis).
    QStackedWidget* m_plotPages = nullptr;
    QLabel* m_nothingToDraw = nullptr;
    QToolButton* m_openInCache;
    QString m_needle;
    std::vector<TimelineSelection> m_hits;
    int m_hit = -1;
    QLabel* m_hitLabel;
    QString m_legendHtml;
    QCheckBox* m_follow;
    QLabel* m_status;
    QLabel* m_loss = nullptr;
    QCheckBox* m_raw;
    std::shared_ptr<const engine::RowDetails> m_row;  // the selected row as read, null until it arrives
};

}  // namespace cs::gui
