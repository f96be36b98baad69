#include "main_window.h"

#include "app/widgets/loss_banner.h"

#include "app/models/text.h"
#include "core/engine/julia/invalidation_findings.h"
#include "core/engine/session_labels.h"
#include "core/trace/reader.h"
#include "core/trace/live_registry.h"
#include "app/models/arg_search_fetcher.h"
#include "app/models/trace_loader.h"
#include "app/widgets/build_view.h"
#include "app/widgets/diff_view.h"
#include "app/widgets/ranks_view.h"
#include "app/widgets/cache_view.h"
#include "app/widgets/findings_view.h"
#include "app/widgets/invalidations_view.h"
#include "app/widgets/modules_view.h"
#include "app/widgets/overview_view.h"
#include "app/widgets/search_view.h"
#include "app/widgets/shortcuts_help.h"
#include "app/widgets/start_screen.h"
#include "app/widgets/timeline_view.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QThread>
#include <QToolButton>

#include <limits>

namespace cs::gui {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_loader(new TraceLoader(this)), m_tabs(new QTabWidget(this)), m_overview(new OverviewView),
      m_timeline(new TimelineView), m_findings(new FindingsView), m_search(new SearchView),
      m_cache(new CacheView), m_modules(new ModulesView), m_invalidations(new InvalidationsView), m_build(new BuildView),
      m_traceChooser(new QComboBox(this)), m_searchBox(new QLineEdit(this)), m_searchTimer(new QTimer(this)),
      m_argSearch(new ArgSearchFetcher(this)), m_progress(new QProgressBar(this)), m_status(new QLabel(this)), m_cancel(new QToolButton(this)) {
    setWindowTitle(QStringLiteral("CompileScope"));
    setAcceptDrops(true);
    m_tabs->addTab(m_overview, QStringLiteral("Overview"));
    m_tabs->addTab(m_timeline, QStringLiteral("Timeline"));
    m_tabs->addTab(m_findings, QStringLiteral("Findings"));
    m_tabs->addTab(m_cache, QStringLiteral("Cache"));
    m_tabs->addTab(m_modules, QStringLiteral("Modules"));
    m_tabs->addTab(m_invalidations, QStringLiteral("Invalidations"));
    m_tabs->addTab(m_search, QStringLiteral("Search"));
    // Last, so that the other tabs keep their places (and screenshot numbers); shown only while the
    // trace chosen holds a build (refreshViews).
    m_tabs->addTab(m_build, QStringLiteral("Build"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_build), false);
    // Shown while several traces are open: they are compared as the ranks of one job.
    m_ranks = new RanksView;
    m_rankTimer = new QTimer(this);
    m_rankTimer->setSingleShot(true);
    m_rankTimer->setInterval(500);
    connect(m_rankTimer, &QTimer::timeout, this, [this] {
        std::vector<const TraceDocument*> all;
        for (const TraceDocument& d : m_docs)
            if (!d.baseline) all.push_back(&d);  // a baseline is compared by the Diff view, not as a rank
        refreshRanks(all, true);
    });
    m_tabs->addTab(m_ranks, QStringLiteral("Ranks"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_ranks), false);
    setUpCompare();  // the Diff tab, shown once a baseline is open (main_window_compare.cpp)
    setCentralWidget(m_tabs);
    // The details pane reads the trace a timeline source was drawn from: the analysed file (an
    // import's temporary trace, a live recording's mirror) once known, else the file opened.
    m_timeline->setTracePath([this](int source) {
        for (int i = 0; i < static_cast<int>(m_docs.size()); ++i)
            if (timelineSourceOf(i) == source) {
                const TraceDocument& d = m_docs[static_cast<std::size_t>(i)];
                if (d.analyses && d.analyses->trace && !d.analyses->trace->path.empty())
                    return QString::fromStdString(d.analyses->trace->path);
                return d.path;
            }
        return QString();
    });
    m_timeline->plot()->setAnalysesOf([this](int source) {
        for (int i = 0; i < static_cast<int>(m_docs.size()); ++i)
            if (timelineSourceOf(i) == source) return m_docs[static_cast<std::size_t>(i)].analyses;
        return AnalysesPtr();
    });

    auto* bar = addToolBar(QStringLiteral("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->addWidget(new QLabel(QStringLiteral(" Trace: ")));
    m_traceChooser->setMinimumContentsLength(24);
    m_traceChooser->setToolTip(QStringLiteral("The trace the tables show; the timeline shows every open trace"));
    bar->addWidget(m_traceChooser);
    bar->addSeparator();
    m_searchBox->setPlaceholderText(QStringLiteral("Search names, module hashes, span arguments and categories…"));
    m_searchBox->setClearButtonEnabled(true);
    m_searchBox->setMinimumWidth(320);
    bar->addWidget(m_searchBox);
    m_searchTimer->setSingleShot(true);
    m_searchTimer->setInterval(250);
    connect(m_searchBox, &QLineEdit::textChanged, m_searchTimer, qOverload<>(&QTimer::start));
    connect(m_searchBox, &QLineEdit::returnPressed, this, [this] { runSearch(true); });
    m_searchBox->installEventFilter(this);
    connect(m_searchTimer, &QTimer::timeout, this, [this] { runSearch(false); });  // typing: outline, do not jump
    connect(m_argSearch, &ArgSearchFetcher::ready, this, &MainWindow::argumentHitsArrived);
    connect(m_argSearch, &ArgSearchFetcher::failed, this, [this](int request, const QString& message) {
        if (request == m_argSearch->latest()) m_status->setText(QStringLiteral("Searching span arguments: %1").arg(message));
    });
    connect(m_traceChooser, qOverload<int>(&QComboBox::currentIndexChanged), this, &MainWindow::setCurrentDocument);

    m_cancel->setText(QStringLiteral("Cancel"));
    m_cancel->setToolTip(QStringLiteral("Stop loading; what is not loaded yet is not shown"));
    m_liveTicker = new QTimer(this);
    m_liveTicker->setInterval(1000);
    connect(m_liveTicker, &QTimer::timeout, this, &MainWindow::updateProgressUi);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, [this] {
        for (const auto& [id, p] : m_progressOf) m_loader->cancel(id);
    });
    updateProgressUi();

    connect(m_loader, &TraceLoader::progress, this, [this](int id, int percent, const QString& stage) {
        m_progressOf[id] = {percent, stage};
        updateProgressUi();
    });
    connect(m_loader, &TraceLoader::summaryReady, this, [this](int id, SummaryPtr s) {
        if (TraceDocument* d = doc(id)) d->summary = std::move(s);
        refreshViews();
    });
    connect(m_loader, &TraceLoader::timelineReady, this, [this](int id, TimelinePtr t) {
        bool again = false;  // a new snapshot of a trace already shown (a live recording)
        if (TraceDocument* d = doc(id)) {
            again = d->timeline != nullptr;
            d->timeline = std::move(t);
        }
        // Many traces arrive together (the ranks of a job, outline first): one layout and paint for
        // all that arrived since the last, not one each. A new trace fits the view; new snapshots of
        // traces shown (a live refresh, an outline's full timeline) keep what the user looks at.
        m_timelineFit = m_timelineFit || !again;
        if (m_timelinePending) return;
        m_timelinePending = true;
        QTimer::singleShot(0, this, &MainWindow::flushTimeline);
    });
    connect(m_loader, &TraceLoader::liveChanged, this, [this](int id, bool live) {
        if (live) {
            m_following[id] = {};
            m_liveTicker->start();
        } else {
            m_following.erase(id);
            if (m_following.empty()) m_liveTicker->stop();
        }
        updateProgressUi();
        if (TraceDocument* d = doc(id); d && !live) m_status->setText(QStringLiteral("Recording of %1 finished").arg(d->label));
    });
    connect(m_loader, &TraceLoader::liveRefreshed, this, [this](int id, LiveRefresh r) {
        auto it = m_following.find(id);
        TraceDocument* d = doc(id);
        if (it == m_following.end() || !d) return;
        std::int64_t events = 0;
        if (d->summary)
            for (const auto& [table, n] : d->summary->rowCounts) events += n;
        it->second.events = events;
        if (r.rowsRead > 0) it->second.lastCommit.restart();
        updateProgressUi();
    });
    connect(m_loader, &TraceLoader::analysesReady, this, [this](int id, AnalysesPtr a) {
        if (TraceDocument* d = doc(id)) d->analyses = std::move(a);
        refreshViews();
    });
    connect(m_loader, &TraceLoader::findingsReady, this, &MainWindow::publishFindings);
    connect(m_loader, &TraceLoader::failed, this, [this](int id, const QString& message) {
        TraceDocument* d = doc(id);
        QString what = d ? d->path : QString();
        m_status->setText(QStringLiteral("Could not open %1: %2").arg(what, message));
        if (m_afterLoad) return;  // unattended (screenshots): the status line is enough
        // Not modal: a queue of failures must not block loading the other traces.
        auto* box = new QMessageBox(QMessageBox::Warning, QStringLiteral("Could not open trace"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    connect(m_loader, &TraceLoader::finished, this, [this](int id, bool cancelled) {
        flushTimeline();  // a finished load is on the timeline before anyone is told it finished
        m_progressOf.erase(id);
        const bool wasFollowing = m_following.erase(id) != 0;
        if (m_following.empty()) m_liveTicker->stop();
        if (TraceDocument* d = doc(id)) {
            d->loading = false;
            if (d->timeline && d->timeline->outline) refreshTimeline(true);  // "not read", no longer "loading…"
            if (cancelled && wasFollowing)
                m_status->setText(QStringLiteral("Detached from %1: the recording goes on; what was shown stays").arg(d->label));
            else if (cancelled)
                m_status->setText(QStringLiteral("Loading of %1 cancelled").arg(d->label));
        }
        updateProgressUi();
        refreshViews();
        if (!isLoading() && m_afterLoad) {
            auto next = std::move(m_afterLoad);
            m_afterLoad = nullptr;
            next();
        }
    });
    connect(m_overview, &OverviewView::findingActivated, this, &MainWindow::activateFinding);
    connect(m_findings, &FindingsView::findingActivated, this, &MainWindow::activateFinding);
    connect(m_findings, &FindingsView::evidenceActivated, this, &MainWindow::activateEvidence);
    connect(m_modules, &ModulesView::findingActivated, this, &MainWindow::activateFinding);
    connect(m_build, &BuildView::spanRequested, this, &MainWindow::showSpanInTimeline);
    connect(m_ranks, &RanksView::rankActivated, this, [this](int doc) {
        setCurrentDocument(doc);
        m_tabs->setCurrentWidget(m_overview);
    });
    connect(m_ranks, &RanksView::evidenceActivated, this, [this](int doc, const engine::Evidence& e) {
        setCurrentDocument(doc);
        if (QWidget* view = showEvidence(e)) m_tabs->setCurrentWidget(view);
    });
    connect(m_timeline->plot(), &TimelinePlot::helpRequested, this, &MainWindow::showShortcuts);
    // A rank's group opened while its trace is still waiting to be read: read it next.
    connect(m_timeline->plot(), &TimelinePlot::loadingGroupExpanded, this, [this](int source) {
        for (int i = 0; i < static_cast<int>(m_docs.size()); ++i)
            if (timelineSourceOf(i) == source) m_loader->prioritise(m_docs[static_cast<std::size_t>(i)].id);
    });
    // A cache-lookup mark and its Cache row lead to each other.
    connect(m_timeline, &TimelineView::openLookup, this, [this](int source, std::int64_t lookupId) {
        for (int i = 0; i < static_cast<int>(m_docs.size()); ++i)
            if (timelineSourceOf(i) == source) setCurrentDocument(i);
        m_tabs->setCurrentWidget(m_cache);
        m_cache->showLookup(lookupId);
    });
    connect(m_cache, &CacheView::timelineRequested, this, [this](std::int64_t lookupId) {
        const int source = timelineSourceOf(m_current);
        if (source < 0) return;
        const TimelineSource& src = m_timeline->plot()->sources()[static_cast<std::size_t>(source)];
        for (std::size_t m = 0; m < src.data->marks.size(); ++m)
            if (auto mark = src.data->marks[m].lookups.find(lookupId)) {
                m_tabs->setCurrentWidget(m_timeline);
                m_timeline->plot()->select({source, -1, static_cast<int>(m), {}, *mark}, true);
                return;
            }
        // A Warp module load's lookup (Lookup::id = minus its module_loads.id) is a span of its
        // session's module-load lane.
        if (lookupId < 0 && selectLaneRow(engine::LaneSource::ModuleLoads, -lookupId)) return;
        m_status->setText(QStringLiteral("Lookup %1 has no mark on the timeline (no timestamp)").arg(lookupId));
    });
    connect(m_search, &SearchView::rowActivated, this, [this](const SearchRow& r) {
        TimelineSelection sel;
        sel.source = r.source;
        sel.lane = r.lane_index;
        sel.item = r.item;
        m_tabs->setCurrentWidget(m_timeline);
        m_timeline->plot()->select(sel, m_timeline->followSelection());
    });
    buildMenus();
    setUpStartScreen();  // shown until a trace opens (main_window_start.cpp)
    resize(1280, 800);
}

MainWindow::~MainWindow() {
    if (m_reportThread) m_reportThread->wait();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    m_recentMenu = file->addMenu(QStringLiteral("Open &recent"));
    rebuildRecentMenu();
    file->addAction(QStringLiteral("Attach to a &live recording…"), this, &MainWindow::attachDialog);
    file->addAction(QStringLiteral("&Compare with baseline…"), this, &MainWindow::compareDialog);
    file->addSeparator();
    file->addAction(QStringLiteral("Export plot as &PNG…"), this, [this] { exportPlot(false); });
    file->addAction(QStringLiteral("Export plot as &SVG…"), this, [this] { exportPlot(true); });
    m_reportAction = file->addAction(QStringLiteral("Export &HTML report…"), this, [this] {
        QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export HTML report"), QString(),
                                                    QStringLiteral("HTML (*.html)"));
        if (!path.isEmpty()) exportReportTo(path);
    });
    m_reportAction->setToolTip(QStringLiteral("One self-contained HTML file of every open trace (as `compilescope report`)"));
    m_tefAction = file->addAction(QStringLiteral("Export for Perfe&tto (JSON)…"), this, [this] {
        QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export trace for Perfetto"), QString(),
                                                    QStringLiteral("Trace Event Format JSON (*.json)"));
        if (!path.isEmpty()) exportTefTo(path);
    });
    m_tefAction->setToolTip(QStringLiteral("The trace chosen in the toolbar as Trace Event Format JSON, for Perfetto and "
                                           "chrome://tracing (as `compilescope export --format tef`)"));
    connect(this, &MainWindow::reportWritten, this, [this](const QString& path, const QString& error) {
        m_status->setText(error.isEmpty() ? QStringLiteral("Wrote %1").arg(path) : QStringLiteral("Report failed: %1").arg(error));
    });
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    view->addAction(QStringLiteral("Fit timeline"), this, [this] { m_timeline->plot()->fitAll(); });
    view->addAction(QStringLiteral("Find…"), QKeySequence::Find, this, [this] { m_searchBox->setFocus(); });
    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    help->addAction(QStringLiteral("&Keyboard shortcuts (?)"), this, &MainWindow::showShortcuts);
}

void MainWindow::showShortcuts() {
    if (!m_shortcuts) m_shortcuts = new ShortcutsHelp(this);
    m_shortcuts->show();
    m_shortcuts->raise();
}

void MainWindow::publishFindings(int docId, FindingsPtr findings) {
    if (TraceDocument* d = doc(docId)) d->findings = std::move(findings);
    refreshViews();
}

void MainWindow::openDialog() {
    QSettings settings;
    QStringList paths = QFileDialog::getOpenFileNames(this, QStringLiteral("Open traces"),
                                                      settings.value(QStringLiteral("lastDir")).toString(),
                                                      QStringLiteral("CompileScope traces (*.cstrace);;Logs and traces to import (*.log *.json *.txt *.csv);;All files (*)"));
    if (!paths.isEmpty()) settings.setValue(QStringLiteral("lastDir"), QFileInfo(paths.first()).absolutePath());
    openTraces(paths);
}

// The recordings in progress (live registry); the chosen one is opened and followed while it runs.
void MainWindow::attachDialog() {
    const std::vector<cs::trace::LiveRecording> live = cs::trace::findLiveRecordings();
    if (live.empty()) {
        QStringList dirs;
        for (const std::string& d : cs::trace::liveRegistrySearchDirs()) dirs << qs(d);
        m_status->setText(QStringLiteral("No recording in progress (looked in %1; start one with `compilescope record -o TRACE -- CMD`)")
                              .arg(dirs.isEmpty() ? QStringLiteral("no registry directory exists yet") : dirs.join(QStringLiteral(", "))));
        return;
    }
    QStringList items;
    for (const cs::trace::LiveRecording& r : live)
        items << QStringLiteral("%1 · pid %2 · %3").arg(qs(r.trace)).arg(r.pid).arg(qs(r.command));
    bool ok = false;
    QString chosen = QInputDialog::getItem(this, QStringLiteral("Attach to a live recording"),
                                           QStringLiteral("Recordings in progress:"), items, 0, false, &ok);
    if (ok) openTraces({qs(live[static_cast<std::size_t>(items.indexOf(chosen))].trace)});
}

void MainWindow::openTraces(const QStringList& paths) {
    // Over kExpandedTraces traces open (ranks), their groups start collapsed: each trace's outline is
    // shown first, and the full reads follow one per core (TraceLoader::load, load_gate.h).
    const bool outlineFirst = m_docs.size() + static_cast<std::size_t>(paths.size()) > TimelinePlot::kExpandedTraces;
    for (const QString& p : paths) {
        TraceDocument d;
        d.path = QFileInfo(p).absoluteFilePath();
        d.label = QFileInfo(p).fileName();
        d.id = m_loader->load(d.path, outlineFirst);
        m_progressOf[d.id] = {0, QStringLiteral("opening")};
        m_docs.push_back(d);
        m_traceChooser->addItem(d.label, d.path);
        addRecent(d.path);
    }
    relabelDocuments();
    if (!paths.isEmpty()) showTabs();
    if (m_current < 0 && !m_docs.empty()) setCurrentDocument(0);
    updateProgressUi();
}

// Each trace named by the shortest trailing path that tells it apart from the others open: the
// ranks of a job all write trace.cstrace, each in a folder of its own (rank0/trace.cstrace). The
// label names its lanes' groups and its entry in the chooser.
void MainWindow::relabelDocuments() {
    std::vector<std::string> paths;
    for (const TraceDocument& d : m_docs) paths.push_back(d.path.toStdString());
    const std::vector<std::string> names = cs::engine::distinguishingSuffixes(paths);
    bool changed = false;
    for (std::size_t i = 0; i < m_docs.size(); ++i) {
        const QString label = QString::fromStdString(names[i]);
        if (label == m_docs[i].label) continue;
        m_docs[i].label = label;
        m_traceChooser->setItemText(static_cast<int>(i), label);
        changed = changed || m_docs[i].timeline;
    }
    if (changed) refreshTimeline(true);
}

bool MainWindow::isLoading() const { return !m_progressOf.empty(); }

TraceDocument* MainWindow::doc(int id) {
    for (TraceDocument& d : m_docs)
        if (d.id == id) return &d;
    return nullptr;
}

const TraceDocument* MainWindow::doc(int id) const {
    for (const TraceDocument& d : m_docs)
        if (d.id == id) return &d;
    return nullptr;
}

void MainWindow::setCurrentDocument(int index) {
    if (index < 0 || index >= static_cast<int>(m_docs.size())) return;
    m_current = index;
    if (m_traceChooser->currentIndex() != index) m_traceChooser->setCurrentIndex(index);
    refreshViews();
}

void MainWindow::refreshViews() {
    if (m_current < 0) return;
    const TraceDocument& d = m_docs[static_cast<std::size_t>(m_current)];
    m_overview->setDocument(d);
    m_findings->setDocument(d);  // the findings, and each one's change (Show the change)
    m_cache->setDocument(d);
    m_modules->setDocument(d);
    m_invalidations->setDocument(d);
    m_build->setDocument(d);
    m_tabs->setTabVisible(m_tabs->indexOf(m_build), m_build->hasBuild());
    std::vector<const TraceDocument*> all;
    for (const TraceDocument& doc : m_docs) all.push_back(&doc);
    m_timeline->setLossText(lossBannerText(all));
    std::erase_if(all, [](const TraceDocument* doc) { return doc->baseline; });  // compared by the Diff view instead
    refreshRanks(all);
}

// The ranks compared again when a trace was opened, renamed or analysed (not on every progress step).
void MainWindow::refreshRanks(const std::vector<const TraceDocument*>& all, bool now) {
    m_tabs->setTabVisible(m_tabs->indexOf(m_ranks), all.size() >= 2);
    if (all.size() < 2) {
        if (!m_rankNotes.empty()) {
            m_rankNotes.clear();
            refreshTimeline(true);
        }
        return;
    }
    std::vector<const void*> inputs;
    for (const TraceDocument* d : all) inputs.push_back(d->analyses.get());
    QStringList labels;
    for (const TraceDocument* d : all) labels << d->label;
    if (inputs == m_rankInputs && labels == m_rankLabels) return;
    // While ranks load, their analyses arrive one by one (256 of them): the comparison and its tables
    // are redone at most twice a second then, and at once when the last load ends.
    if (isLoading() && !now) {
        if (!m_rankTimer->isActive()) m_rankTimer->start();
        return;
    }
    m_rankTimer->stop();
    m_rankInputs = std::move(inputs);
    m_rankLabels = labels;
    m_ranks->setRanks(compareDocuments(all, m_asRanks));
    // A slow or divergent rank says so on its timeline headers.
    std::vector<QString> notes = rankNotes(*m_ranks->ranks(), m_docs.size());
    if (notes == m_rankNotes) return;
    m_rankNotes = std::move(notes);
    refreshTimeline(true);
}

int MainWindow::timelineSourceOf(int docIndex) const {
    int source = 0;
    for (int i = 0; i < static_cast<int>(m_docs.size()); ++i) {
        if (!m_docs[static_cast<std::size_t>(i)].timeline) continue;
        if (i == docIndex) return source;
        ++source;
    }
    return -1;
}

void MainWindow::flushTimeline() {
    if (!m_timelinePending) return;
    m_timelinePending = false;
    const bool fit = m_timelineFit;
    m_timelineFit = false;
    refreshTimeline(!fit);
}

void MainWindow::refreshTimeline(bool keepView) {
    std::vector<TimelineSource> sources;
    for (std::size_t i = 0; i < m_docs.size(); ++i) {
        const TraceDocument& d = m_docs[i];
        if (!d.timeline) continue;
        // An outline whose load ended (cancelled, failed) says its events were not read.
        TimelineSource s{d.label, d.timeline, i < m_rankNotes.size() ? m_rankNotes[i] : QString(), !d.loading && d.timeline->outline,
                         d.baseline};
        if (d.baseline) s.note = QStringLiteral("baseline (dimmed)");
        sources.push_back(std::move(s));
    }
    m_timeline->plot()->setOpenTraces(m_docs.size());
    m_timeline->plot()->setSources(std::move(sources), keepView);
}

// "Following train.cstrace: 123,456 events, last commit 0.4 s ago": a live recording has no end to
// show progress towards, so the status says what arrives instead (and Cancel becomes Detach).
QString MainWindow::liveStatusText() const {
    QStringList parts;
    for (const auto& [id, f] : m_following) {
        const TraceDocument* d = doc(id);
        if (!d) continue;
        QString part = QStringLiteral("Following %1: %2 events").arg(d->label, groupedCount(f.events));
        part += f.lastCommit.isValid() ? QStringLiteral(", last commit %1 ago").arg(durationText(f.lastCommit.elapsed() * 1000000))
                                       : QStringLiteral(", no commit seen yet");
        parts << part;
    }
    return parts.join(QStringLiteral(" · "));
}

void MainWindow::updateProgressUi() {
    bool busy = isLoading();
    bool onlyFollowing = busy && !m_following.empty();
    for (const auto& [id, p] : m_progressOf) onlyFollowing = onlyFollowing && m_following.count(id);
    if (onlyFollowing) {
        m_progress->setVisible(false);
        m_cancel->setVisible(true);
        m_cancel->setText(QStringLiteral("Detach"));
        m_cancel->setToolTip(QStringLiteral("Stop following; the recording goes on, and what was shown stays"));
        m_status->setText(liveStatusText());
        return;
    }
    m_cancel->setText(QStringLiteral("Cancel"));
    m_cancel->setToolTip(QStringLiteral("Stop loading; what is not loaded yet is not shown"));
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (!busy) {
        if (!m_docs.empty() && !m_status->text().startsWith(QStringLiteral("Could not")) &&
            !m_status->text().contains(QStringLiteral("cancelled")) && !m_status->text().startsWith(QStringLiteral("Detached")))
            m_status->setText(QStringLiteral("%1 trace(s) open").arg(m_docs.size()));
        return;
    }
    int sum = 0;
    QString stage;
    for (const auto& [id, p] : m_progressOf) {
        sum += p.first;
        if (const TraceDocument* d = doc(id)) stage = QStringLiteral("Loading %1: %2").arg(d->label, p.second);
    }
    m_progress->setValue(sum / static_cast<int>(m_progressOf.size()));
    m_status->setText(stage);
}

QString MainWindow::statusText() const { return m_status->text(); }

void MainWindow::activateFinding(int index) {
    if (m_current < 0) return;
    const TraceDocument& d = m_docs[static_cast<std::size_t>(m_current)];
    if (!d.findings || index < 0 || index >= static_cast<int>(d.findings->size())) return;
    const engine::Finding& f = (*d.findings)[static_cast<std::size_t>(index)];
    m_findings->showFinding(index);
    // Its rows: the first evidence row a view can show.
    QWidget* shown = nullptr;
    for (const engine::Evidence& e : f.evidence)
        if ((shown = showEvidence(e))) break;
    int source = timelineSourceOf(m_current);
    if (f.startNs && f.endNs && source >= 0) {
        m_tabs->setCurrentWidget(m_timeline);
        // A finding's range is in its session's raw clock; the timeline may show shifted clocks.
        std::int64_t a = *f.startNs, b = *f.endNs;
        if (d.timeline) a = d.timeline->displayNs(f.sessionId, a), b = d.timeline->displayNs(f.sessionId, b);
        m_timeline->plot()->showRange(source, a, b);
    } else {
        // No time range: its tree, module or lookup.
        m_tabs->setCurrentWidget(shown ? shown : m_findings);
    }
}

QWidget* MainWindow::showEvidence(const engine::Evidence& e) {
    if (e.table == "cache_lookups" && m_cache->showLookup(e.rowId)) return m_cache;
    // A module load is a row of the Modules view and a lookup of the Warp kernel cache.
    if (e.table == "module_loads" && m_modules->showLoad(e.rowId)) {
        if (e.rowId != std::numeric_limits<std::int64_t>::min()) m_cache->showLookup(-e.rowId);  // Lookup::id of a load
        return m_modules;
    }
    if (e.table == engine::kInvalidationTreeEvidence && e.rowId > 0 &&
        m_invalidations->showTree(static_cast<std::size_t>(e.rowId - 1)))
        return m_invalidations;
    return nullptr;
}

bool MainWindow::selectLaneRow(engine::LaneSource kind, std::int64_t rowId) {
    const int source = timelineSourceOf(m_current);
    if (source < 0) return false;
    const TimelineSource& src = m_timeline->plot()->sources()[static_cast<std::size_t>(source)];
    for (std::size_t l = 0; l < src.data->lanes.size(); ++l) {
        if (src.data->lanes[l].source != kind) continue;
        if (auto it = src.data->lanes[l].spans.findRow(rowId)) {
            m_tabs->setCurrentWidget(m_timeline);
            m_timeline->plot()->select({source, static_cast<int>(l), -1, *it, {}}, true);
            return true;
        }
    }
    return false;
}

void MainWindow::showSpanInTimeline(std::int64_t spanId, std::int64_t startNs, std::int64_t endNs) {
    const int source = timelineSourceOf(m_current);
    if (source < 0 || (spanId != 0 && selectLaneRow(engine::LaneSource::Spans, spanId))) return;
    // Folded into an "N items" mark, or in no lane: its time range, where known.
    if (endNs > startNs) {
        m_tabs->setCurrentWidget(m_timeline);
        m_timeline->plot()->showRange(source, startNs, endNs);
        return;
    }
    m_status->setText(QStringLiteral("Span %1 is on no lane of the timeline").arg(spanId));
}

void MainWindow::activateEvidence(int finding, int evidence) {
    if (m_current < 0) return;
    const TraceDocument& d = m_docs[static_cast<std::size_t>(m_current)];
    if (!d.findings || finding < 0 || finding >= static_cast<int>(d.findings->size())) return;
    const engine::Finding& f = (*d.findings)[static_cast<std::size_t>(finding)];
    if (evidence < 0 || evidence >= static_cast<int>(f.evidence.size())) return;
    if (QWidget* view = showEvidence(f.evidence[static_cast<std::size_t>(evidence)])) m_tabs->setCurrentWidget(view);
}

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
    if (jump && !m_timeline->stepHit(+1)) m_status->setText(QStringLiteral("No match for \"%1\" on the timeline").arg(needle));
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

QWidget* MainWindow::view(const QString& tabName) const {
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->tabText(i) == tabName) return m_tabs->widget(i);
    return nullptr;
}

void MainWindow::addRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& p : recent) m_recentMenu->addAction(p, this, [this, p] { openTraces({p}); });
    m_recentMenu->setEnabled(!recent.isEmpty());
    if (m_start) m_start->setRecent(recent);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    QStringList paths;
    for (const QUrl& url : e->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    openTraces(paths);
    e->acceptProposedAction();
}

void MainWindow::takeScreenshots(const QString& dir, std::function<void()> done) {
    auto shoot = [this, dir, done] {
        QDir().mkpath(dir);
        if (m_docs.empty()) {  // no trace: the start screen is what the user sees
            grab().save(QStringLiteral("%1/00-start.png").arg(dir));
            return done();
        }
        for (int i = 0; i < m_tabs->count(); ++i) {
            if (!m_tabs->isTabVisible(i)) continue;  // a view for facts the traces do not hold
            m_tabs->setCurrentIndex(i);
            if (m_tabs->widget(i) == m_search && m_searchBox->text().isEmpty()) {
                m_searchBox->setText(QStringLiteral("compile"));
                runSearch(false);
                // The hits by span argument come from a worker thread: the picture shows them too.
                QElapsedTimer waited;
                waited.start();
                while (m_search->argumentsPending() && waited.elapsed() < 5000) QApplication::processEvents(QEventLoop::AllEvents, 50);
            }
            // The diff against a baseline comes from a worker thread too.
            if (m_tabs->widget(i) == m_diffView) {
                QElapsedTimer waited;
                waited.start();
                while (m_diffView->pending() && waited.elapsed() < 60000) QApplication::processEvents(QEventLoop::AllEvents, 50);
            }
            QApplication::processEvents();
            if (m_tabs->widget(i) == m_timeline) m_timeline->plot()->replot();
            QString name = m_tabs->tabText(i).toLower().remove(QLatin1Char('&'));
            grab().save(QStringLiteral("%1/%2-%3.png").arg(dir).arg(i + 1, 2, 10, QLatin1Char('0')).arg(name));
        }
        done();
    };
    if (isLoading()) m_afterLoad = shoot;
    else QTimer::singleShot(0, this, shoot);
}

}  // namespace cs::gui
