// TraceLoader::followLive: following a recording that is still being written (issue 20).
//
// Why two threads: a commit must show within a second, and the rows of a refresh (timeline and
// summary) are cheap while the whole analysis (findings) of a big recording is not. Run on the
// refresh thread, an analysis delayed the next refresh by its own length, and under load a commit
// took over a second to show. So each refresh copies the new rows into the mirror and publishes the
// snapshot; at most every second (and never more than half the time) the analysis starts on its own
// thread, over a reader that holds the snapshot just published in a read transaction (the mirror is
// in WAL mode, so the next polls write past it): the findings always describe the rows shown with
// them, and the rows never wait for the findings.
//
// Refreshes are paced start to start: every refresh interval, or twice the last refresh's length when
// that is longer, so following a big recording keeps the viewer at most half busy.
#include "trace_loader.h"

#include "core/engine/common/load_control.h"
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/trace_follower.h"

#include <QElapsedTimer>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <future>

namespace cs::gui {

namespace {
// Opens the mirror and pins what it holds now: a read transaction whose first read fixes the snapshot.
std::shared_ptr<trace::TraceReader> openPinned(const std::string& mirror) {
    std::shared_ptr<trace::TraceReader> r = trace::TraceReader::open(mirror);
    r->pinSnapshot();
    return r;
}
}  // namespace

void TraceLoader::followLive(int docId, const std::string& file, const std::string& mirror, const std::atomic<bool>& cancel,
                             const SnapshotFn& snapshot, const AnalyseFn& analyse, const SummaryPtr& lastSummary) {
    trace::yieldToRecorder();  // this worker thread: the recorder comes first
    trace::TraceFollower follower(file, mirror);
    QElapsedTimer since, sinceAnalysis;
    since.start();
    std::atomic<qint64> analysisMs{0};
    // Declared after everything it uses: on any exit, its destructor waits for the analysis first.
    std::future<void> analysis;
    auto analysisRunning = [&] {
        return analysis.valid() && analysis.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
    };
    auto refresh = [&](int generation) {
        QElapsedTimer took;
        took.start();
        const trace::TraceFollower::PollResult polled = follower.poll();
        std::shared_ptr<trace::TraceReader> pinned = openPinned(mirror);
        snapshot(*pinned, generation ? 80 : 0, 80);
        emit liveRefreshed(docId, LiveRefresh{generation, polled.appendedRowsRead, polled.smallTableRowsRead,
                                              follower.totalAppendedRowsRead(), since.elapsed()});
        const qint64 refreshMs = took.elapsed();
        if (!analysisRunning() &&
            (generation == 0 || sinceAnalysis.elapsed() >= std::max<qint64>(1000, 2 * analysisMs.load()))) {
            if (analysis.valid()) analysis.get();
            sinceAnalysis.start();
            analysis = std::async(std::launch::async, [&analyse, &analysisMs, pinned, summary = lastSummary] {
                trace::yieldToRecorder(19);  // the rows of the next refreshes come first
                QElapsedTimer a;
                a.start();
                try {
                    analyse(*pinned, summary, 80, 80);
                } catch (const std::exception&) {
                    // Cancelled, or the mirror could not be read: the next analysis (or the final one) follows.
                }
                analysisMs = a.elapsed();
            });
        }
        return refreshMs;
    };
    emit liveChanged(docId, true);
    qint64 lastMs = refresh(0);
    int generation = 0;
    QElapsedTimer sinceRefresh;
    sinceRefresh.start();
    while (!cancel.load() && isLiveRecording(file)) {
        const qint64 period = std::max<qint64>(m_liveRefreshMs, 2 * lastMs);
        while (sinceRefresh.elapsed() < period && !cancel.load()) QThread::msleep(10);
        if (cancel.load()) throw engine::LoadCancelled();
        sinceRefresh.start();
        try {
            emit progress(docId, 80, QStringLiteral("live: refresh %1").arg(generation + 1));
            lastMs = refresh(++generation);
        } catch (const trace::TraceError&) {
            // The recording is mid-checkpoint or being finalized: the next refresh will see it.
        }
    }
    if (analysis.valid()) analysis.wait();
    if (cancel.load()) throw engine::LoadCancelled();
}

}  // namespace cs::gui
