// Copies every session of one trace into another (`compilescope import a.cstrace b.log -o all.cstrace`).
//
// Why: a job's facts arrive from several places — a live recording of NVRTC and Numba, a Warp log, a
// Julia invalidation list, a clang time trace — and users want them side by side in one file, as
// lanes of one timeline. Rows are copied table by table in schema order; ids are renumbered, and
// every column that refers to another row is rewritten through the map of its target table.
// Reference columns are found by name (`*_sid` -> strings, `session_id` -> sessions, ...), the
// same convention schema.cpp follows, so a new table needs no code here unless it adds a new kind of
// reference. The source is an untrusted trace opened by TraceReader; a reference to a row that does
// not exist is stored as NULL and counted in stats.
#pragma once

#include "core/ingest/importer.h"

namespace cs::trace {
class TraceReader;
}

namespace cs::ingest {

// True when `head` starts like a CompileScope trace (SQLite magic + our application_id).
bool looksLikeTrace(std::string_view head);

// Copies all sessions and their facts of `source` into `writer`. Returns rows copied.
ImportSummary mergeTrace(const trace::TraceReader& source, trace::TraceWriter& writer);

}  // namespace cs::ingest
