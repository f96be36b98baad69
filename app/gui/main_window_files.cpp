// MainWindow's menus and the ways a trace opens: File > Open…, Open recent, Attach to a live
// recording, drag and drop, and the command line (openTraces).
#include "main_window.h"

#include "app/models/text.h"
#include "app/models/trace_loader.h"
#include "app/widgets/start_screen.h"
#include "app/widgets/timeline_view.h"
#include "core/trace/live_registry.h"

#include <QApplication>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>

namespace cs::gui {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");
}  // namespace

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
        setStatus(error.isEmpty() ? QStringLiteral("Wrote %1").arg(path) : QStringLiteral("Report failed: %1").arg(error));
    });
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    view->addAction(QStringLiteral("Fit timeline"), this, [this] { m_timeline->plot()->fitAll(); });
    view->addAction(QStringLiteral("Find…"), QKeySequence::Find, this, [this] { m_searchBox->setFocus(); });
    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    help->addAction(QStringLiteral("&Keyboard shortcuts (?)"), this, &MainWindow::showShortcuts);
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
        setStatus(QStringLiteral("No recording in progress (looked in %1; start one with `compilescope record -o TRACE -- CMD`)")
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
        m_docs.add(d);
        m_traceChooser->addItem(d.label, d.path);
        addRecent(d.path);
    }
    relabelDocuments();
    if (!paths.isEmpty()) showTabs();
    if (m_docs.current() < 0 && !m_docs.empty()) setCurrentDocument(0);
    updateProgressUi();
}

// Each trace named by the shortest trailing path that tells it apart from the others open
// (DocumentSet::relabel: rank0/trace.cstrace). The label names its lanes' groups and its entry in
// the chooser.
void MainWindow::relabelDocuments() {
    bool changed = false;
    for (int i : m_docs.relabel()) {
        m_traceChooser->setItemText(i, m_docs.at(i).label);
        changed = changed || m_docs.at(i).timeline;
    }
    if (changed) refreshTimeline(true);
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

}  // namespace cs::gui
