// TraceLoader: opens traces on worker threads and publishes their snapshots stage by stage.
//
// Why stages: the timeline and the summary (compile time, share of wall time) come first, from one
// ordered scan of the spans table on 2+ connections (span_scan.h: the summary folds the spans the
// timeline reads, so 10M spans are read once, in about a second); the engines' analyses and the
// findings take longer. Each stage is emitted as soon as it exists, so the timeline paints and the
// Overview fills while the findings are still loading (STYLE.md 7). Signals are emitted from the
// worker thread and arrive queued in the GUI thread; every job has its own SQLite connections, so
// SQLite never runs on the GUI thread. bench_gui_timeline times this class from load() to the
// first paint of the timeline it publishes.
#pragma once

#include "trace_document.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <map>
#include <memory>

class QThread;

namespace cs::gui {

class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;  // cancels and joins every running job

    // Starts loading `path`; returns the document id the signals will carry.
    int load(const QString& path);
    void cancel(int docId);
    bool isRunning(int docId) const { return m_jobs.count(docId) != 0; }

signals:
    void progress(int docId, int percent, const QString& stage);
    void summaryReady(int docId, cs::gui::SummaryPtr summary);
    void timelineReady(int docId, cs::gui::TimelinePtr timeline);
    void analysesReady(int docId, cs::gui::AnalysesPtr analyses);
    void findingsReady(int docId, cs::gui::FindingsPtr findings);
    void failed(int docId, const QString& message);
    void finished(int docId, bool cancelled);

private:
    struct Job {
        QThread* thread = nullptr;
        std::shared_ptr<std::atomic<bool>> cancel;
    };
    void run(int docId, const QString& path, const std::shared_ptr<std::atomic<bool>>& cancel);

    std::map<int, Job> m_jobs;
    int m_nextId = 1;
};

}  // namespace cs::gui
