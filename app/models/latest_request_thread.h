// LatestRequestThread: a thread of its own that runs queued jobs, skipping any job that a newer one
// has replaced before its turn came (a user clicking through spans, or typing a search, wants the
// answer to the last request only).
//
// Why: the GUI thread never touches SQLite (docs/architecture.md, Rules). The row details and the argument search
// both query the trace file; each owns one of these, so a slow search never delays a details pane.
#pragma once

#include <atomic>
#include <functional>
#include <memory>

class QObject;
class QThread;

namespace cs::gui {

class LatestRequestThread {
public:
    LatestRequestThread();
    ~LatestRequestThread();  // stops the thread (a running job finishes first)
    LatestRequestThread(const LatestRequestThread&) = delete;
    LatestRequestThread& operator=(const LatestRequestThread&) = delete;

    // Queues `job(id)` and returns its id; the job is skipped if another was posted before it ran.
    int post(std::function<void(int)> job);
    int latest() const { return m_latest.load(); }

private:
    QThread* m_thread;
    QObject* m_worker;
    std::shared_ptr<std::atomic<int>> m_newest = std::make_shared<std::atomic<int>>(0);
    std::atomic<int> m_latest{0};
};

}  // namespace cs::gui
