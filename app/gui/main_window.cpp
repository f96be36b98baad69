// MainWindow (main_window.h): the window put together from its parts (the tabs, the toolbar, the
// status bar, the document set, the navigator), and the loader's snapshots handed to the views.
#include "main_window.h"

#include "app/widgets/loss_banner.h"

#include "app/models/arg_search_fetcher.h"
#include "app/models/rank_models.h"
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
#include "app/widgets/timeline_view.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QThread>
#include <QToolButton>

namespace cs::gui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_loader(new TraceLoader(this)), m_tabs(new QTabWidget(this)), m_overview(new OverviewView),
      m_timeline(new TimelineView), m_findings(new FindingsView), m_search(new SearchView),
      m_cache(new CacheView), m_modules(new ModulesView), m_invalidations(new InvalidationsView), m_build(new BuildView),
      m_traceChooser(new QComboBox(this)), m_searchBox(new QLineEdit(this)), m_searchTimer(new QTimer(this)),
      m_argSearch(new ArgSearchFetcher(this)), m_progress(new QProgressBar(this)), m_status(new QLabel(this)), m_cancel(new QToolButton(this)) {
    setWindowTitle(QStringLiteral("CompileScope"));
    setAcceptDrops(true);
    m_nav = std::make_unique<Navigator>(
        m_docs, NavViews{m_tabs, m_overview, m_timeline, m_findings, m_search, m_cache, m_modules, m_invalidations},
        [this](int doc) { setCurrentDocument(doc); }, [this](const QString& text) { setStatus(text); });
    setUpTabs();
    setUpTimelineSources();
    setUpToolBar();
    setUpStatusBar();
    connectLoader();
    connectNavigation();
    buildMenus();
    setUpStartScreen();  // shown until a trace opens (main_window_start.cpp)
    resize(1280, 800);
}

MainWindow::~MainWindow() {
    if (m_reportThread) m_reportThread->wait();
}

void MainWindow::setUpTabs() {
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
        std::vector<const TraceDocument*> all = m_docs.pointers();
        std::erase_if(all, [](const TraceDocument* d) { return d->baseline; });  // compared by the Diff view, not as a rank
        refreshRanks(all, true);
    });
    m_tabs->addTab(m_ranks, QStringLiteral("Ranks"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_ranks), false);
    setUpCompare();  // the Diff tab, shown once a baseline is open (main_window_compare.cpp)
    setCentralWidget(m_tabs);
}

// The details pane reads the trace a timeline source was drawn from: the analysed file (an import's
// temporary trace, a live recording's mirror) once known, else the file opened.
void MainWindow::setUpTimelineSources() {
    m_timeline->setTracePath([this](int source) {
        const int i = m_docs.documentOfSource(source);
        return i < 0 ? QString() : analysedPath(m_docs.at(i));
    });
    m_timeline->plot()->setAnalysesOf([this](int source) {
        const int i = m_docs.documentOfSource(source);
        return i < 0 ? AnalysesPtr() : m_docs.at(i).analyses;
    });
}

void MainWindow::setUpToolBar() {
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
        if (request == m_argSearch->latest()) setStatus(QStringLiteral("Searching span arguments: %1").arg(message));
    });
    connect(m_traceChooser, qOverload<int>(&QComboBox::currentIndexChanged), this, &MainWindow::setCurrentDocument);
}

void MainWindow::connectLoader() {
    connect(m_loader, &TraceLoader::progress, this, [this](int id, int percent, const QString& stage) {
        m_progressOf[id] = {percent, stage};
        updateProgressUi();
    });
    connect(m_loader, &TraceLoader::summaryReady, this, [this](int id, SummaryPtr s) {
        if (TraceDocument* d = doc(id)) d->summary = std::move(s);
        refreshViews();
    });
    connect(m_loader, &TraceLoader::timelineReady, this, &MainWindow::timelineArrived);
    connect(m_loader, &TraceLoader::liveChanged, this, &MainWindow::liveChanged);
    connect(m_loader, &TraceLoader::liveRefreshed, this, &MainWindow::liveRefreshed);
    connect(m_loader, &TraceLoader::analysesReady, this, [this](int id, AnalysesPtr a) {
        if (TraceDocument* d = doc(id)) d->analyses = std::move(a);
        refreshViews();
    });
    connect(m_loader, &TraceLoader::findingsReady, this, &MainWindow::publishFindings);
    connect(m_loader, &TraceLoader::failed, this, &MainWindow::loadFailed);
    connect(m_loader, &TraceLoader::finished, this, &MainWindow::loadFinished);
}

// The jumps between views, each to the navigator (navigator.h) as a typed target.
void MainWindow::connectNavigation() {
    connect(m_overview, &OverviewView::findingActivated, this, &MainWindow::activateFinding);
    connect(m_findings, &FindingsView::findingActivated, this, &MainWindow::activateFinding);
    connect(m_findings, &FindingsView::evidenceActivated, this, &MainWindow::activateEvidence);
    connect(m_modules, &ModulesView::findingActivated, this, &MainWindow::activateFinding);
    connect(m_build, &BuildView::spanRequested, this, &MainWindow::showSpanInTimeline);
    connect(m_ranks, &RanksView::rankActivated, this, [this](int doc) {
        m_nav->goInDocument(doc, NavTarget{NavTarget::View::Overview, 0, engine::LaneSource::Spans});
    });
    connect(m_ranks, &RanksView::evidenceActivated, this,
            [this](int doc, const engine::Evidence& e) { m_nav->goInDocument(doc, targetOf(e)); });
    connect(m_timeline->plot(), &TimelinePlot::helpRequested, this, &MainWindow::showShortcuts);
    // A rank's group opened while its trace is still waiting to be read: read it next.
    connect(m_timeline->plot(), &TimelinePlot::loadingGroupExpanded, this, [this](int source) {
        if (const int i = m_docs.documentOfSource(source); i >= 0) m_loader->prioritise(m_docs.at(i).id);
    });
    // A cache-lookup mark and its Cache row lead to each other.
    connect(m_timeline, &TimelineView::openLookup, this,
            [this](int source, std::int64_t lookupId) { m_nav->lookupInCache(source, lookupId); });
    connect(m_cache, &CacheView::timelineRequested, this, [this](std::int64_t lookupId) { m_nav->lookupOnTimeline(lookupId); });
    connect(m_search, &SearchView::rowActivated, this, [this](const SearchRow& r) { m_nav->searchHit(r); });
}

void MainWindow::timelineArrived(int id, TimelinePtr t) {
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
}

void MainWindow::loadFailed(int id, const QString& message) {
    TraceDocument* d = doc(id);
    QString what = d ? d->path : QString();
    setStatus(QStringLiteral("Could not open %1: %2").arg(what, message), Status::Stays);
    if (m_afterLoad) return;  // unattended (screenshots): the status line is enough
    // Not modal: a queue of failures must not block loading the other traces.
    auto* box = new QMessageBox(QMessageBox::Warning, QStringLiteral("Could not open trace"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::loadFinished(int id, bool cancelled) {
    flushTimeline();  // a finished load is on the timeline before anyone is told it finished
    m_progressOf.erase(id);
    const bool wasFollowing = m_following.erase(id) != 0;
    if (m_following.empty()) m_liveTicker->stop();
    if (TraceDocument* d = doc(id)) {
        d->loading = false;
        if (d->timeline && d->timeline->outline) refreshTimeline(true);  // "not read", no longer "loading…"
        if (cancelled && wasFollowing)
            setStatus(QStringLiteral("Detached from %1: the recording goes on; what was shown stays").arg(d->label), Status::Stays);
        else if (cancelled)
            setStatus(QStringLiteral("Loading of %1 cancelled").arg(d->label), Status::Stays);
    }
    updateProgressUi();
    refreshViews();
    if (!isLoading() && m_afterLoad) {
        auto next = std::move(m_afterLoad);
        m_afterLoad = nullptr;
        next();
    }
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

bool MainWindow::isLoading() const { return !m_progressOf.empty(); }

void MainWindow::setCurrentDocument(int index) {
    if (!m_docs.setCurrent(index)) return;
    if (m_traceChooser->currentIndex() != index) m_traceChooser->setCurrentIndex(index);
    refreshViews();
}

void MainWindow::refreshViews() {
    const TraceDocument* current = m_docs.currentDocument();
    if (!current) return;
    const TraceDocument& d = *current;
    m_overview->setDocument(d);
    m_findings->setDocument(d);  // the findings, and each one's change (Show the change)
    m_cache->setDocument(d);
    m_modules->setDocument(d);
    m_invalidations->setDocument(d);
    m_build->setDocument(d);
    m_tabs->setTabVisible(m_tabs->indexOf(m_build), m_build->hasBuild());
    std::vector<const TraceDocument*> all = m_docs.pointers();
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
        const TraceDocument& d = m_docs.all()[i];
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

void MainWindow::activateFinding(int index) { m_nav->activateFinding(index); }

void MainWindow::activateEvidence(int finding, int evidence) { m_nav->activateEvidence(finding, evidence); }

void MainWindow::showSpanInTimeline(std::int64_t spanId, std::int64_t startNs, std::int64_t endNs) {
    m_nav->showSpan(spanId, startNs, endNs);
}

QWidget* MainWindow::view(const QString& tabName) const {
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->tabText(i) == tabName) return m_tabs->widget(i);
    return nullptr;
}

}  // namespace cs::gui
