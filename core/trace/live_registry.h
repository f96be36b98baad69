// The live registry: which recordings are running right now, for this user.
//
// Why: the GUI (and `compilescope record --list`) must find a recording in progress to attach to it
// without the user typing paths. Every recorder writes one small entry file into a per-user runtime
// directory ($XDG_RUNTIME_DIR/compilescope, else /tmp/compilescope-$UID, mode 0700, refused when
// another user owns it) and removes it when it ends. A recorder killed with -9 cannot remove its
// entry, so readers check that the pid is alive and ignore (and clean up) stale entries.
// Entries are untrusted text: malformed files are skipped, never fatal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cs::trace {

struct LiveRecording {
    std::int64_t pid = 0;           // the recorder's pid: the recording is live while it runs
    std::string trace{};            // absolute path of the trace being written
    std::string command{};          // the recorded command line
    std::int64_t startUnixNs = 0;   // when the recording started (wall clock)
    std::string socket{};           // where collectors connect
    std::string entryPath{};        // the registry file (filled by listLiveRecordings)
};

// The per-user runtime directory, created with mode 0700 when missing. Empty when it cannot be
// created or is not a directory owned by this user.
std::string liveRegistryDir();

// Registers a recording for its lifetime (RAII); the destructor removes the entry.
class LiveRegistration {
public:
    LiveRegistration() = default;
    // Writes the entry atomically (temporary file + rename). Returns false when it could not.
    bool publish(const LiveRecording& rec, const std::string& dir = liveRegistryDir());
    void remove();
    ~LiveRegistration() { remove(); }
    LiveRegistration(const LiveRegistration&) = delete;
    LiveRegistration& operator=(const LiveRegistration&) = delete;
    const std::string& entryPath() const { return m_entry; }

private:
    std::string m_entry;
};

// Live recordings, oldest first. Entries whose pid is dead are skipped and removed.
std::vector<LiveRecording> listLiveRecordings(const std::string& dir = liveRegistryDir());

// Every directory a recorder of this user may have registered in, so that a viewer and a recorder
// that see different environments still find each other: $XDG_RUNTIME_DIR/compilescope as this
// process sees it, /run/user/UID/compilescope (where XDG_RUNTIME_DIR usually points, for a process
// started without it) and /tmp/compilescope-UID (the recorder's fallback). Existing directories owned
// by this user only, each once.
std::vector<std::string> liveRegistrySearchDirs();
// The live recordings of all of them, oldest first, each once. What every tool uses to find them.
std::vector<LiveRecording> findLiveRecordings();

}  // namespace cs::trace
