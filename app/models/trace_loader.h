// TraceLoader: opens traces on worker threads and publishes their snapshots stage by stage.
//
// Why stages: the summary (compile time, share of wall time) needs a few aggregate queries and
// appears in well under a second even for 10M events; the timeline index and the findings take
// longer. Each stage is emitted as soon as it exists, so the Overview fills while the timeline is
// still loading (STYLE.md 7). Signals are emitted from the worker thread and arrive queued in the
// GUI thread; every job has its own SQLite connection, so SQLite never runs on the GUI thread.
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
