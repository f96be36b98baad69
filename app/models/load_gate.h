// LoadGate: orders the full reads of many traces opened at once, after every trace's outline.
//
// Why: opening the 256 rank traces of a job started 256 full reads at once. They shared two cores
// 256 ways, every timeline arrived near the end (54 s), and nothing but a progress bar was on screen
// until then. With the gate, each job publishes its outline (engine::loadTimelineOutline: its lanes
// and counts, from indexes) and then waits; the full reads start only once no outline is pending,
// at most `slots` at a time (one per core), in the order the traces were opened, except that a trace
// the user asked for (its group expanded) goes first. So every rank is on screen within seconds, and
// the ranks then fill in one by one at the speed of the machine.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <utility>

namespace cs::gui {

class LoadGate {
public:
    explicit LoadGate(int slots);

    // Called for each job before it starts; outlineDone() when its outline is out (or failed).
    void outlineQueued();
    void outlineDone();
    // Waits until no outline is pending, a slot is free and no job is ahead of `docId`; false when
    // `cancel` was set meanwhile (then no slot is held). release() gives the slot back.
    bool acquire(int docId, const std::atomic<bool>& cancel);
    void release();
    // Puts `docId` ahead of every job not asked for (a no-op for a job not waiting or already reading).
    void prioritise(int docId);

    int slotCount() const { return m_slots; }
    int pendingOutlines() const;
    int waiting() const;  // jobs in acquire() (tests)

private:
    const int m_slots;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_pendingOutlines = 0;
    int m_free;
    std::set<int> m_asked;                   // prioritised documents
    std::set<std::pair<int, int>> m_waiting;  // (0 asked / 1 not, docId): the first goes next
};

}  // namespace cs::gui
