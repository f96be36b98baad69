// The order of the full reads of many traces (see load_gate.h for why).
#include "load_gate.h"

#include <algorithm>
#include <chrono>

namespace cs::gui {

LoadGate::LoadGate(int slots) : m_slots(std::max(1, slots)), m_free(m_slots) {}

void LoadGate::outlineQueued() {
    std::lock_guard lock(m_mutex);
    ++m_pendingOutlines;
}

void LoadGate::outlineDone() {
    {
        std::lock_guard lock(m_mutex);
        m_pendingOutlines = std::max(0, m_pendingOutlines - 1);
    }
    m_changed.notify_all();
}

int LoadGate::pendingOutlines() const {
    std::lock_guard lock(m_mutex);
    return m_pendingOutlines;
}

int LoadGate::waiting() const {
    std::lock_guard lock(m_mutex);
    return static_cast<int>(m_waiting.size());
}

bool LoadGate::acquire(int docId, const std::atomic<bool>& cancel) {
    std::unique_lock lock(m_mutex);
    const std::pair<int, int> me{m_asked.count(docId) ? 0 : 1, docId};
    m_waiting.insert(me);
    std::pair<int, int> key = me;
    for (;;) {
        if (cancel.load()) {
            m_waiting.erase(key);
            lock.unlock();
            m_changed.notify_all();  // the next in line may go now
            return false;
        }
        // prioritise() may have moved this job ahead meanwhile.
        if (key.first == 1 && m_asked.count(docId)) {
            m_waiting.erase(key);
            key.first = 0;
            m_waiting.insert(key);
        }
        if (m_pendingOutlines == 0 && m_free > 0 && *m_waiting.begin() == key) break;
        // The cancel flag is not notified: look at it every 50 ms.
        m_changed.wait_for(lock, std::chrono::milliseconds(50));
    }
    m_waiting.erase(key);
    --m_free;
    lock.unlock();
    m_changed.notify_all();  // another slot may be free for the next in line
    return true;
}

void LoadGate::release() {
    {
        std::lock_guard lock(m_mutex);
        m_free = std::min(m_slots, m_free + 1);
    }
    m_changed.notify_all();
}

void LoadGate::prioritise(int docId) {
    {
        std::lock_guard lock(m_mutex);
        m_asked.insert(docId);
        // A job already waiting moves ahead now, not when its own thread next wakes: another job
        // woken first (the last outline done) must already see it in front.
        if (m_waiting.erase({1, docId})) m_waiting.insert({0, docId});
    }
    m_changed.notify_all();
}

}  // namespace cs::gui
