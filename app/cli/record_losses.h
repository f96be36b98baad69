// `compilescope record`: the one line that says what the recording lost.
//
// Why: a loss that only sits in the trace's stats table is missed (issue 14: 97 % of a burst was
// dropped and `record` said nothing). After the recorder finished, the launcher reads the trace's
// loss counters and, when any is non-zero, prints one stderr line: how many events, why, and what
// to set to avoid it. Counters that are not losses (recovered_after_exit) are not reported.
#pragma once

#include <ostream>
#include <string>

namespace cs::cli {

// Prints "compilescope: N events dropped (...); remedy" on `err` when the trace counts a loss.
void reportRecordingLosses(const std::string& tracePath, std::ostream& err);

}  // namespace cs::cli
