// The loss line every verb that prints figures shows (issue 40): events lost, input not read, or rows
// left out as trace problems (core/engine/accounting/trace_losses.h), in the words `info` and the report use.
//
// Why: `explain`, `findings`, `trees`, `modules` and `export` printed figures of a trace that had lost
// events or rows without a word, while `info` and the report said so.
#pragma once

#include "core/engine/accounting/trace_losses.h"

#include <ostream>

namespace cs::trace {
class TraceReader;
}

namespace cs::cli {

// "warning: <what is missing>" and a newline when anything is; nothing otherwise. Text output prints
// it first on stdout; machine-readable output (JSON, a file written to stdout) on stderr.
void printLossLine(std::ostream& out, const engine::TraceLosses& losses);

// The losses of a trace read without an analysis (`export`): its stats and its trace problems.
engine::TraceLosses lossesOfTrace(const trace::TraceReader& reader);

}  // namespace cs::cli
