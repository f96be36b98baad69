// A write failure's counts stored in the trace itself, beside the sidecar note.
//
// Why (issue 40): the note (write_note.h) is a file beside the trace that a copy can leave behind;
// the trace's `stats` table travels with it. After its writer failed, the trace often still takes a
// small transaction: the write-ahead log is rewritten from its last commit, within the space it
// already holds, and a few stats rows fit in a page that has room. So the recorder tries; when it
// cannot (the disk stays full), the note alone holds the counts, as before.
#pragma once

#include "core/trace/write_note.h"

#include <string>

namespace cs::trace {

// Adds one `dropped_write_failed` row per table of `note.notStored` (source recorder, detail
// "<reason>: <table>") and a `dropped_no_recorder` row for `note.droppedByCollectors` to the trace's
// stats, in one transaction. The trace's writer must be closed. Returns "" when stored, else why not
// (the SQLite error), and then nothing was added.
std::string storeWriteNoteStats(const std::string& tracePath, const WriteNote& note);

}  // namespace cs::trace
