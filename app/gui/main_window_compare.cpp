// MainWindow's comparison with a baseline run (File > Compare with baseline…): the baseline opens as
// one more trace, aligned at its start like every trace and dimmed on the timeline, and the Diff tab
// shows `compilescope diff BASELINE TRACE` of it against the trace chosen in the toolbar. The diff is
// the measure layer's, computed on a worker thread once both analyses are in (an imported log is
// diffed through the trace it was imported into).
#include "main_window.h"

#include "app/models/trace_loader.h"
#include "app/widgets/diff_view.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QTabWidget>

namespace cs::gui {

void MainWindow::setUpCompare() {
    m_diffView = new DiffView;
    m_diffRunner = new DiffRunner(this);
    m_tabs->addTab(m_diffView, QStringLiteral("Diff"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_diffView), false);
    connect(m_diffRunner, &DiffRunner::ready, m_diffView, &DiffView::setDiff);
    connect(m_diffRunner, &DiffRunner::failed, m_diffView, &DiffView::setError);
    // Once a trace's analyses are stored: the loader's thread emits findingsReady after analysesReady,
    // so its event reaches the window after the one that stores them.
    connect(m_loader, &TraceLoader::findingsReady, this, [this] { runDiff(); });
    connect(m_traceChooser, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { runDiff(); }, Qt::QueuedConnection);
    // A baseline (or the trace compared) that cannot be read: the Diff view says which and why.
    connect(m_loader, &TraceLoader::failed, this, [this](int id, const QString& message) {
        const TraceDocument* d = doc(id);
        if (d && (d->baseline || m_docs.baseline()))
            m_diffView->setError(QStringLiteral("%1 could not be read: %2").arg(d->label, message));
    });
}

void MainWindow::compareDialog() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Compare with baseline"),
                                                      settings.value(QStringLiteral("lastDir")).toString(),
                                                      QStringLiteral("CompileScope traces (*.cstrace);;Logs and traces to import (*.log *.json *.txt *.csv);;All files (*)"));
    if (!path.isEmpty()) compareWithBaseline(path);
}

void MainWindow::compareWithBaseline(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    m_docs.setBaseline(-1);  // one baseline at a time
    int open = m_docs.indexOfPath(abs);
    if (open < 0) {
        openTraces({abs});
        open = static_cast<int>(m_docs.size()) - 1;
    }
    m_docs.setBaseline(open);
    // The tables keep showing the trace compared, not the baseline.
    if (const TraceDocument* current = m_docs.currentDocument(); current && current->baseline) {
        if (const int other = m_docs.comparedWithBaseline(); other >= 0) setCurrentDocument(other);
    }
    m_tabs->setTabVisible(m_tabs->indexOf(m_diffView), true);
    m_tabs->setCurrentWidget(m_diffView);
    refreshTimeline(true);
    refreshViews();
    runDiff();
}

void MainWindow::runDiff() {
    const TraceDocument* base = m_docs.baseline();
    if (!base) return;
    const int compared = m_docs.comparedWithBaseline();
    if (compared < 0) {
        m_diffView->setError(QStringLiteral("open the trace to compare with the baseline (File > Open…)"));
        return;
    }
    const TraceDocument* head = &m_docs.at(compared);
    m_diffView->setPending(base->label, head->label);
    if (!base->analyses || !head->analyses) return;  // again when both analyses are in
    m_diffRunner->run(analysedPath(*base), analysedPath(*head));
}

}  // namespace cs::gui
