#include "core/trace/write_queue.h"

#include <exception>
#include <pthread.h>

namespace cs::trace {

WriteQueue::WriteQueue(bool threaded, std::size_t maxPending)
    : m_threaded(threaded), m_maxPending(maxPending ? maxPending : 1) {
    if (m_threaded)
        m_thread = std::thread([this] {
            pthread_setname_np(pthread_self(), "cs-sqlite");  // names it in perf, top and gdb
            run();
        });
}

WriteQueue::~WriteQueue() {
    if (!m_threaded) return;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void WriteQueue::runOne(std::function<void()>& job) {
    {
        std::lock_guard lock(m_mutex);
        if (m_error) return;
    }
    try {
        job();
    } catch (const std::exception& e) {
        std::lock_guard lock(m_mutex);
        m_error = e.what();
    } catch (...) {
        std::lock_guard lock(m_mutex);
        m_error = "unknown error";
    }
}

void WriteQueue::post(std::function<void()> job) {
    if (!m_threaded) {
        runOne(job);
        return;
    }
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_jobs.size() < m_maxPending; });
    m_jobs.push_back(std::move(job));
    lock.unlock();
    m_changed.notify_all();
}

void WriteQueue::drain() {
    if (!m_threaded) return;
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_jobs.empty() && !m_busy; });
}

std::optional<std::string> WriteQueue::error() const {
    std::lock_guard lock(m_mutex);
    return m_error;
}

void WriteQueue::run() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_changed.wait(lock, [&] { return m_stop || !m_jobs.empty(); });
        if (m_jobs.empty()) return;  // stopping, and everything posted has run
        std::function<void()> job = std::move(m_jobs.front());
        m_jobs.pop_front();
        m_busy = true;
        lock.unlock();
        m_changed.notify_all();  // room for a waiting producer
        runOne(job);
        job = nullptr;  // release what it captured before reporting idle
        lock.lock();
        m_busy = false;
        m_changed.notify_all();
    }
}

}  // namespace cs::trace
