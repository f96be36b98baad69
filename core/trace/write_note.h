// The sidecar note `<trace>.note`: what a recording could not store after its trace stopped
// accepting writes (a full disk, a file size limit).
//
// Why (issue 40): the trace cannot hold the count of what it failed to hold, so the recorder writes
// it beside the trace (app/recorder/write_failure.h) and every reader of the trace's losses adds it
// to them (engine::readTraceFacts), so `info` and the banners never say "nothing dropped" for such a
// trace. Format: key=value lines, docs/collector.md ("Never break the host"). A new trace written
// at the same path removes a stale note (TraceWriter).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cs::trace {

struct WriteNote {
    std::string reason;                                        // write_failed=
    std::vector<std::pair<std::string, std::int64_t>> notStored;  // not_stored.<table>=
    std::int64_t droppedByCollectors = 0;                      // dropped_by_collectors=
    std::int64_t processesWithoutArena = 0;                    // processes_without_arena=
    // stored_in_trace=1: the trace's own stats hold these counts too (write_note_stats.h), so a
    // reader takes them from there and not twice.
    bool storedInTrace = false;
};

std::string writeNotePath(const std::string& tracePath);
// Writes the note; false when it cannot be written whole (then none is left behind).
bool saveWriteNote(const std::string& tracePath, const WriteNote& note);
// The note beside `tracePath`, or nothing when there is none (or it is not one).
std::optional<WriteNote> loadWriteNote(const std::string& tracePath);
// Rows per table of the trace as it is now on disk, for the note's not_stored counts: the recorder's
// own trace after its writer failed, opened read-only as plain SQLite (it may be unsealed, or its
// last transaction rolled back). -1 for a table that cannot be read, all -1 when the file cannot.
std::vector<std::pair<std::string, std::int64_t>> rowsOnDisk(const std::string& tracePath,
                                                            const std::vector<std::string>& tables);

}  // namespace cs::trace
