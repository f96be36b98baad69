// The cause a reader names for a trace whose recording stopped taking writes.
//
// Why (issue 40): a recording on a full disk leaves a trace that is cut short (a checkpoint that
// could not write all its pages) or unsealed (its finish never ran). The reader refused it as "cut
// short, e.g. by an interrupted copy" or "killed, or its disk full": the wrong cause, or a guess.
// The recorder wrote the system's reason in the sidecar note (write_note.h), so the refusal names
// it instead.
#pragma once

#include <string>

namespace cs::trace {

// "the disk was full while recording (<reason>; ...)" from the note beside `tracePath`; "" when
// there is no note. A reason other than SQLite's "disk is full" (a file size limit, `ulimit -f`,
// reads as an I/O error) is said as "the disk was full, or a file size limit reached, ...".
std::string writeFailureCause(const std::string& tracePath);

}  // namespace cs::trace
