// The recording lock: one writer per trace file.
//
// Why: two recorders (or a recorder and an import) given the same output used to both succeed, the
// second deleting the first's file under it, so the first recording was lost without a word (issue
// 40). A writer now holds an exclusive flock(2) on its file while it writes; a second writer of the
// same path is refused, naming the recording that holds it when the live registry knows it. flock
// and SQLite's own fcntl locks do not interact, and the lock goes with the process, so a writer
// killed with -9 leaves no stale lock behind.
#pragma once

#include <string>

namespace cs::trace {

class OutputLock {
public:
    OutputLock() = default;
    // Locks `path` (which must exist). Throws TraceError(Write) when another writer holds it.
    void acquire(const std::string& path);
    // Throws TraceError(Write) when a writer holds the lock on an existing `path`; nothing otherwise.
    static void refuseIfHeld(const std::string& path);
    // Releases the lock. Must run after SQLite closed the file: closing any descriptor of a file
    // drops the fcntl locks this process holds on it.
    void release();
    ~OutputLock() { release(); }
    OutputLock(const OutputLock&) = delete;
    OutputLock& operator=(const OutputLock&) = delete;

private:
    int m_fd = -1;
};

}  // namespace cs::trace
