// MainWindow's status bar: loading progress with Cancel, live recordings followed (Cancel becomes
// Detach), and the status line, whose failures and cancels stay until something else is said.
#include "main_window.h"

#include "app/models/text.h"
#include "app/models/trace_loader.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

namespace cs::gui {

void MainWindow::setUpStatusBar() {
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
}

void MainWindow::setStatus(const QString& text, Status kind) {
    m_status->setText(text);
    m_statusKind = kind;
}

QString MainWindow::statusText() const { return m_status->text(); }

void MainWindow::liveChanged(int id, bool live) {
    if (live) {
        m_following[id] = {};
        m_liveTicker->start();
    } else {
        m_following.erase(id);
        if (m_following.empty()) m_liveTicker->stop();
    }
    updateProgressUi();
    if (TraceDocument* d = doc(id); d && !live) setStatus(QStringLiteral("Recording of %1 finished").arg(d->label));
}

void MainWindow::liveRefreshed(int id, const LiveRefresh& r) {
    auto it = m_following.find(id);
    TraceDocument* d = doc(id);
    if (it == m_following.end() || !d) return;
    std::int64_t events = 0;
    if (d->summary)
        for (const auto& [table, n] : d->summary->rowCounts) events += n;
    it->second.events = events;
    if (r.rowsRead > 0) it->second.lastCommit.restart();
    updateProgressUi();
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
        setStatus(liveStatusText());
        return;
    }
    m_cancel->setText(QStringLiteral("Cancel"));
    m_cancel->setToolTip(QStringLiteral("Stop loading; what is not loaded yet is not shown"));
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (!busy) {
        // A failure, a cancel or a detach stays on the status line; anything else gives way.
        if (!m_docs.empty() && m_statusKind != Status::Stays) setStatus(QStringLiteral("%1 trace(s) open").arg(m_docs.size()));
        return;
    }
    int sum = 0;
    QString stage;
    for (const auto& [id, p] : m_progressOf) {
        sum += p.first;
        if (const TraceDocument* d = doc(id)) stage = QStringLiteral("Loading %1: %2").arg(d->label, p.second);
    }
    m_progress->setValue(sum / static_cast<int>(m_progressOf.size()));
    setStatus(stage);
}

}  // namespace cs::gui
