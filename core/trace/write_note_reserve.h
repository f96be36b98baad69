// Room for the write-failure note, taken while the disk still has it.
//
// Why (issue 40): on a really full disk (a 4 MiB tmpfs) the recorder could store its counts in the
// trace (write_note_stats.h) but not write `<trace>.note`: a new file needs a block the disk no
// longer has. Without the note the reader refused the trace as "cut short, e.g. by an interrupted
// copy". So the recorder writes a placeholder note of 4 KiB when the recording starts; on a failure
// saveWriteNote() overwrites it in place, in blocks it already holds, and a recording that finishes
// removes it. A placeholder has no `write_failed=` line, so readers ignore one left by a killed
// recorder, and a new trace at that path removes it (TraceWriter).
#pragma once

#include <string>

namespace cs::trace {

// Writes the placeholder beside `tracePath`; false when it cannot (then there is none).
bool reserveWriteNote(const std::string& tracePath);
// Removes the note beside `tracePath` when it is still a placeholder (a real note stays).
void dropWriteNoteReservation(const std::string& tracePath);

}  // namespace cs::trace
