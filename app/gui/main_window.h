// MainWindow: opens traces (dialog, command line, drag and drop, recent files), shows loading
// progress with cancel, and hosts one tab per view. All traces share the timeline; the tables
// show the trace chosen in the toolbar.
//
// The window is thin over three parts: the open traces and their analyses are a DocumentSet
// (app/models/document_set.h); the jumps between views are the Navigator's (navigator.h: typed
// targets, a view and a row); the views are app/widgets. Its sources, by what they hold:
// main_window.cpp (the parts put together, the loader's snapshots), main_window_status.cpp (progress
// and the status line), main_window_files.cpp (menus, opening, recent files), main_window_search.cpp,
// main_window_compare.cpp, main_window_export.cpp, main_window_start.cpp.
#pragma once

#include "app/gui/navigator.h"
#include "app/models/arg_search_fetcher.h"
#include "app/models/document_set.h"
#include "app/models/search_model.h"
#include "app/models/trace_document.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <iosfwd>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QToolButton;
class QAction;
class QThread;

namespace cs::gui {

class BuildView;
class DiffRunner;
class DiffView;
class RanksView;
class CacheView;
class ShortcutsHelp;
class FindingsView;
class InvalidationsView;
class ModulesView;
class OverviewView;
class SearchView;
class StartScreen;
class TimelineView;
class TraceLoader;
struct LiveRefresh;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openTraces(const QStringList& paths);
    bool isLoading() const;
    // Every view, one after the other, saved as DIR/NN-view.png once loading is done; then `done`.
    void takeScreenshots(const QString& dir, std::function<void()> done);

    const std::vector<TraceDocument>& documents() const { return m_docs.all(); }
    int currentDocument() const { return m_docs.current(); }
    void setCurrentDocument(int index);
    QTabWidget* tabs() const { return m_tabs; }
    OverviewView* overview() const { return m_overview; }
    TimelineView* timeline() const { return m_timeline; }
    FindingsView* findings() const { return m_findings; }
    SearchView* search() const { return m_search; }
    // The page shown until a trace opens (main_window_start.cpp); the tabs replace it then.
    StartScreen* startScreen() const { return m_start; }
    bool showsStartScreen() const;
    CacheView* cache() const { return m_cache; }
    // The keyboard help ("?" on the timeline, Help menu); nullptr until first shown.
    void showShortcuts();
    ShortcutsHelp* shortcutsHelp() const { return m_shortcuts; }
    ModulesView* modules() const { return m_modules; }
    InvalidationsView* invalidations() const { return m_invalidations; }
    BuildView* build() const { return m_build; }
    RanksView* ranks() const { return m_ranks; }
    // --ranks: the open traces are the ranks of one job, compared even when they ran different
    // programs; otherwise only traces of one program are (engine/analysis/rank_compare.h). Before openTraces.
    void setCompareAsRanks(bool asRanks) { m_asRanks = asRanks; }
    // File > Compare with baseline…: opens `path` as the baseline (dimmed on the timeline, aligned at its
    // start like every trace) and shows the Diff view of it against the current trace.
    void compareWithBaseline(const QString& path);
    DiffView* diffView() const { return m_diffView; }
    // Selects span `spanId` of the current document on the timeline (as Search does), or shows
    // [startNs, endNs) of the display axis where no lane holds it; the Build view's rows call it.
    void showSpanInTimeline(std::int64_t spanId, std::int64_t startNs, std::int64_t endNs);
    QWidget* view(const QString& tabName) const;
    QLineEdit* searchBox() const { return m_searchBox; }
    QAction* reportAction() const { return m_reportAction; }
    // Writes the HTML report of every open trace to `path` on a worker thread (the report reads
    // SQLite); reportWritten() tells the outcome.
    void exportReportTo(const QString& path);
    // Writes the current document as Trace Event Format JSON (for Perfetto) to `path` on a worker
    // thread, with the exporter of `compilescope export --format tef`; reportWritten() tells the outcome.
    void exportTefTo(const QString& path);
    QAction* tefAction() const { return m_tefAction; }
    QString statusText() const;
    // Findings of a document arrive here from the loader (tests hand in findings of their own).
    void publishFindings(int docId, FindingsPtr findings);
    // Shows finding `index` of the current document: its evidence rows (in the Cache, Modules or
    // Invalidations view) and its timeline range; without a range, the view of its first evidence row.
    void activateFinding(int index);
    // Opens evidence row `evidence` of finding `finding` in the view that lists it.
    void activateEvidence(int finding, int evidence);

signals:
    void reportWritten(const QString& path, const QString& error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    // What the status line says, and whether it stays when loading ends: a failure or a cancel stays
    // until something else is said; anything else gives way to "N trace(s) open".
    enum class Status { Passing, Stays };
    void setStatus(const QString& text, Status kind = Status::Passing);
    void setUpTabs();
    void setUpTimelineSources();
    void setUpToolBar();
    void setUpStatusBar();
    void connectLoader();
    void connectNavigation();
    // The loader's signals (main_window.cpp, main_window_status.cpp).
    void timelineArrived(int id, TimelinePtr t);
    void liveChanged(int id, bool live);
    void liveRefreshed(int id, const LiveRefresh& r);
    void loadFailed(int id, const QString& message);
    void loadFinished(int id, bool cancelled);
    void buildMenus();
    void setUpStartScreen();
    void showTabs();
    StartScreen* m_start = nullptr;
    QStackedWidget* m_pages = nullptr;
    void openDialog();
    void attachDialog();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    TraceDocument* doc(int id) { return m_docs.byId(id); }
    const TraceDocument* doc(int id) const { return m_docs.byId(id); }
    void refreshViews();
    // `now`: also while traces load (the throttle's timer); otherwise at most every 500 ms until they have.
    void refreshRanks(const std::vector<const TraceDocument*>& all, bool now = false);
    void refreshTimeline(bool keepView = false);
    void flushTimeline();  // the timeline refresh queued by timelineReady, now (and once)
    void relabelDocuments();  // each trace named by the path that tells it apart from the others open
    void updateProgressUi();
    void runSearch(bool jump);  // jump: select the first hit when on the timeline (Enter), not while typing
    // Shows the hits of `inputs` in Search and on the timeline; `reveal`: switch to Search when the
    // timeline is not showing (a new search), not when argument hits arrive later.
    void publishSearch(const QString& needle, const std::vector<SearchInput>& inputs, bool jump, bool reveal);
    void argumentHitsArrived(int request, const QString& needle, const ArgMatchesPtr& matches);
    void exportPlot(bool svg);
    void writeInBackground(const QString& path, std::function<void(std::ostream&)> write);

    TraceLoader* m_loader;
    DocumentSet m_docs;
    std::unique_ptr<Navigator> m_nav;
    Status m_statusKind = Status::Passing;
    ShortcutsHelp* m_shortcuts = nullptr;
    QTabWidget* m_tabs;
    OverviewView* m_overview;
    TimelineView* m_timeline;
    FindingsView* m_findings;
    SearchView* m_search;
    CacheView* m_cache;
    ModulesView* m_modules;
    InvalidationsView* m_invalidations;
    BuildView* m_build;
    RanksView* m_ranks = nullptr;
    DiffView* m_diffView = nullptr;
    DiffRunner* m_diffRunner = nullptr;
    void setUpCompare();
    void compareDialog();
    void runDiff();  // the baseline against the current trace (or the first other one), on a worker thread
    QTimer* m_rankTimer = nullptr;  // the throttle of refreshRanks while traces load
    std::vector<const void*> m_rankInputs;  // the analyses the Ranks view compared (refreshRanks)
    QStringList m_rankLabels;
    bool m_asRanks = false;  // setCompareAsRanks
    std::vector<QString> m_rankNotes;  // per document: what sets it apart as a rank (timeline headers)
    QComboBox* m_traceChooser;
    QLineEdit* m_searchBox;
    QTimer* m_searchTimer;
    ArgSearchFetcher* m_argSearch;
    std::vector<int> m_argSearchDocs;  // doc ids of the newest argument search, in request order
    QMenu* m_recentMenu = nullptr;
    QAction* m_reportAction = nullptr;
    QAction* m_tefAction = nullptr;
    QProgressBar* m_progress;
    QLabel* m_status;
    QToolButton* m_cancel;
    std::map<int, std::pair<int, QString>> m_progressOf;  // doc id -> percent, stage
    // Documents followed while they are recorded: their events and when their last new rows came.
    struct Following {
        std::int64_t events = 0;
        QElapsedTimer lastCommit;  // invalid until a refresh brings new rows
    };
    std::map<int, Following> m_following;
    QTimer* m_liveTicker;  // keeps "last commit T ago" current
    bool m_timelinePending = false;  // a timeline refresh is queued (snapshots that arrived together)
    bool m_timelineFit = false;      // and one of them was a new trace: fit the view
    QString liveStatusText() const;
    std::function<void()> m_afterLoad;
    QThread* m_reportThread = nullptr;
};

}  // namespace cs::gui
