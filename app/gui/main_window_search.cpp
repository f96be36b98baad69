// MainWindow's search box: names answer at once from memory, span arguments from the files on a
// worker thread; the hits are listed in Search and outlined on the timeline, where Enter steps
// through them.
#include "main_window.h"

#include "app/widgets/search_view.h"
#include "app/widgets/timeline_view.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>

namespace cs::gui {

void MainWindow::runSearch(bool jump) {
    m_searchTimer->stop();
    QString needle = m_searchBox->text().trimmed();
    if (needle.isEmpty()) return;
    // Names answer at once from memory; span arguments are read from the files on a worker thread
    // and their hits join these when they come (argumentHitsArrived).
    std::vector<SearchInput> inputs;
    QStringList paths;
    m_argSearchDocs.clear();
    for (const TraceDocument& d : m_docs)
        if (d.timeline) {
            inputs.push_back({d.label, d.timeline, {}});
            paths << d.path;
            m_argSearchDocs.push_back(d.id);
        }
    publishSearch(needle, inputs, jump, true);
    if (!paths.isEmpty()) {
        m_argSearch->request(paths, needle);
        m_search->setArgumentsPending(true);
    }
}

void MainWindow::argumentHitsArrived(int request, const QString& needle, const ArgMatchesPtr& matches) {
    if (request != m_argSearch->latest() || needle != m_searchBox->text().trimmed()) return;
    m_search->setArgumentsPending(false);
    std::vector<SearchInput> inputs;
    bool any = false;
    for (const TraceDocument& d : m_docs) {
        if (!d.timeline) continue;
        SearchInput in{d.label, d.timeline, {}};
        auto at = std::find(m_argSearchDocs.begin(), m_argSearchDocs.end(), d.id);
        if (at != m_argSearchDocs.end() && static_cast<std::size_t>(at - m_argSearchDocs.begin()) < matches->size()) {
            in.args = (*matches)[static_cast<std::size_t>(at - m_argSearchDocs.begin())];
            any = any || !in.args.empty();
        }
        inputs.push_back(std::move(in));
    }
    if (any) publishSearch(needle, inputs, false, false);
}

void MainWindow::publishSearch(const QString& needle, const std::vector<SearchInput>& inputs, bool jump, bool reveal) {
    auto rows = searchNames(inputs, needle);
    m_search->setResults(needle, rows, searchTotals(inputs, *rows));
    if (m_tabs->currentWidget() != m_timeline) {
        if (reveal) m_tabs->setCurrentWidget(m_search);
        return;
    }
    // On the timeline, as in Perfetto: the hits are outlined there, and Enter steps through them.
    std::vector<TimelineSelection> hits;
    for (const SearchRow& r : *rows) {
        TimelineSelection sel;
        sel.source = r.source;
        sel.lane = r.lane_index;
        sel.item = r.item;
        hits.push_back(sel);
    }
    m_timeline->setSearchHits(needle, std::move(hits));
    if (jump && !m_timeline->stepHit(+1)) setStatus(QStringLiteral("No match for \"%1\" on the timeline").arg(needle));
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // Enter / Shift+Enter in the search box step through the timeline's hits of the same text.
    if (watched == m_searchBox && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && m_tabs->currentWidget() == m_timeline &&
            m_timeline->searchNeedle() == m_searchBox->text().trimmed() && m_timeline->hitCount() > 0) {
            m_searchTimer->stop();
            m_timeline->stepHit(key->modifiers() & Qt::ShiftModifier ? -1 : +1);
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

}  // namespace cs::gui
