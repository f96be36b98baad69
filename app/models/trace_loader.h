// TraceLoader: opens traces on worker threads and publishes their snapshots stage by stage.
//
// Why stages: the timeline and the summary (compile time, share of wall time) come first, from one
// ordered scan of the spans table on 2+ connections (span_scan.h: the summary folds the spans the
// timeline reads, so 10M spans are read once, in about a second); the engines' analyses and the
// findings take longer. Each stage is emitted as soon as it exists, so the timeline paints and the
// Overview fills while the findings are still loading (docs/practices.md 7). Signals are emitted from the
// worker thread and arrive queued in the GUI thread; every job has its own SQLite connections, so
// SQLite never runs on the GUI thread. bench_gui_timeline times this class from load() to the
// first paint of the timeline it publishes.
//
// Live recordings: a trace that a running `compilescope record` is still writing (listed in the
// live registry) is followed incrementally: every refresh interval, the rows committed since the last
// refresh are copied into a private mirror (core/trace/trace_follower.h; SQLite's WAL lets a reader
// see them while the recorder writes), and the timeline, the summary, the analyses and the findings
// are published again from the mirror, so findings appear while the job runs. When the recorder has
// finished, the finished trace itself is read and analysed once more.
//
// Foreign files: a file that is not a trace (a Warp log, a TEF file, a Julia printout, an nvcc --time
// CSV) is imported first, with the same sniffing as `compilescope import`, into a temporary trace
// that lives as long as the loader; then it is opened like any trace.
#pragma once

#include "trace_document.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

class QThread;
class QTemporaryDir;

namespace cs::trace {
class TraceReader;
}

namespace cs::gui {

class LoadGate;

// What one refresh of a live recording read (liveRefreshed): the rows of the appended tables are
// exactly the rows committed since the refresh before.
struct LiveRefresh {
    int generation = 0;                  // 0: the first snapshot
    std::int64_t rowsRead = 0;           // new rows copied from the appended tables
    std::int64_t smallTableRowsRead = 0;  // sessions, tracks, stats and meta, re-read whole
    std::int64_t totalRowsRead = 0;      // rowsRead over every refresh so far
    std::int64_t followingMs = 0;        // since following started
};

class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;  // cancels and joins every running job

    // Starts loading `path`; returns the document id the signals will carry. With `outlineFirst`
    // (many traces opened at once: the ranks of a job), the first timelineReady carries the trace's
    // outline (engine::loadTimelineOutline: lanes and counts, no span read), and the full read waits
    // its turn behind every outline (load_gate.h); a live recording is followed as always.
    int load(const QString& path, bool outlineFirst = false);
    // Reads `docId` next among the traces waiting their turn (the user expanded its group).
    void prioritise(int docId);
    void cancel(int docId);
    bool isRunning(int docId) const { return m_jobs.count(docId) != 0; }
    // How often a trace that is still being recorded is read again (default 250 ms, so a commit shows
    // within a second; never more often than one refresh takes, so following a big recording stays at
    // most half busy). Set before load().
    void setLiveRefreshMs(int ms) { m_liveRefreshMs = ms; }
    // Whether a recorder listed in the live registry is writing `trace` right now.
    static bool isLiveRecording(const std::string& trace);

signals:
    void progress(int docId, int percent, const QString& stage);
    void summaryReady(int docId, cs::gui::SummaryPtr summary);
    void timelineReady(int docId, cs::gui::TimelinePtr timeline);
    void analysesReady(int docId, cs::gui::AnalysesPtr analyses);
    void findingsReady(int docId, cs::gui::FindingsPtr findings);
    void failed(int docId, const QString& message);
    // A live recording: true when following starts (timelineReady / summaryReady then come again
    // after each refresh), false when the recorder has finished and the last snapshot is out.
    void liveChanged(int docId, bool live);
    // After each snapshot of a live recording (before its analyses): what the refresh read.
    void liveRefreshed(int docId, cs::gui::LiveRefresh refresh);
    void finished(int docId, bool cancelled);

private:
    struct Job {
        QThread* thread = nullptr;
        std::shared_ptr<std::atomic<bool>> cancel;
    };
    void run(int docId, const QString& path, const std::shared_ptr<std::atomic<bool>>& cancel, bool outlineFirst);

    // Follows a live recording through `mirror` until the recorder finishes (or `cancel`, then
    // LoadCancelled): every refresh publishes a snapshot; the analysis runs on its own thread over the
    // snapshot it was given (trace_loader_live.cpp). Returns when the last analysis has been published.
    using SnapshotFn = std::function<void(const trace::TraceReader&, int from, int to)>;
    using AnalyseFn = std::function<void(const trace::TraceReader&, const SummaryPtr&, int from, int to)>;
    void followLive(int docId, const std::string& file, const std::string& mirror, const std::atomic<bool>& cancel,
                    const SnapshotFn& snapshot, const AnalyseFn& analyse, const SummaryPtr& lastSummary);

    // Imports a foreign file into the loader's temporary directory; returns the trace's path.
    std::string importForeign(const std::string& file, int docId);

    std::map<int, Job> m_jobs;
    std::shared_ptr<LoadGate> m_gate;  // the order of full reads after outlines
    std::unique_ptr<QTemporaryDir> m_imports;  // traces imported from foreign files
    int m_nextId = 1;
    std::atomic<int> m_liveRefreshMs{250};
};

}  // namespace cs::gui

Q_DECLARE_METATYPE(cs::gui::LiveRefresh)
