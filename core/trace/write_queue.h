// WriteQueue: runs the writer's SQLite work in order, on a thread of its own.
//
// Why: an importer or the recorder spends about half its time decoding input and half inside
// SQLite. With SQLite on a second thread the two halves overlap, so ingest runs at the speed of the
// slower half instead of their sum. Jobs run strictly in the order they were posted, so a row batch
// is written before the UPDATE or COMMIT posted after it. The queue is bounded: a producer that
// outruns SQLite waits (memory stays bounded) instead of buffering without limit.
//
// Errors: the first job that throws records its message; later jobs are skipped (they would fail
// the same way or write an inconsistent trace), and the writer reports the message on its next call.
// Without a thread (threaded = false) every job runs at once on the caller's thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace cs::trace {

class WriteQueue {
public:
    explicit WriteQueue(bool threaded, std::size_t maxPending = 4);
    ~WriteQueue();  // runs what was posted, then joins
    WriteQueue(const WriteQueue&) = delete;
    WriteQueue& operator=(const WriteQueue&) = delete;

    // Queues `job`; blocks while maxPending jobs are waiting.
    void post(std::function<void()> job);
    // Returns when every job posted so far has run.
    void drain();
    // The first error a job threw, if any.
    std::optional<std::string> error() const;

private:
    void run();
    void runOne(std::function<void()>& job);

    const bool m_threaded;
    const std::size_t m_maxPending;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::function<void()>> m_jobs;
    bool m_busy = false;
    bool m_stop = false;
    std::optional<std::string> m_error;
    std::thread m_thread;  // last: starts after the members it uses exist
};

}  // namespace cs::trace
