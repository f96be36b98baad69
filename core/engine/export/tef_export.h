// Writes a trace as Trace Event Format JSON, the format Perfetto (ui.perfetto.dev) and
// chrome://tracing open, so a Perfetto user can take the recording there.
//
// Why here, in the engine: the export reads the trace with SQL (spans, their args, flows, tracks),
// and only trace, ingest and engine may; the importer of the same format (core/ingest/tef/) sits in
// ingest, which the CLI and the GUI reach the same way. Both front ends call this one function.
//
// The mapping, chosen so that `compilescope import` of the output gives the same spans back (names,
// start, duration, nesting, detail, args; see ExportTef.* in tests/ingest/test_tef_export.cpp):
//   session        -> pid = sessions.id, with process_name (the session's label) and
//                     process_sort_index metadata events;
//   track          -> tid = the OS thread id where the session has one thread with it, else an id
//                     from 1e9 up; thread_name and thread_sort_index (tracks.id) metadata; Perfetto
//                     groups threads under their pid;
//   span           -> "X" (ts and dur in microseconds with three decimals: exact nanoseconds), or "B"
//                     without an "E" when it never ended; `cat` is the span's own "cat" arg when it
//                     came from a TEF file, else its category's name; `args` hold detail and every
//                     stored span arg (integer, real or text as stored);
//   flow           -> "s" on the first span and "f" ("bp": "e") on the second, each written right after
//                     its span at the span's start, the place both Perfetto and our importer bind it;
//   cache lookup   -> thread-scoped instant "i" named "hit PROGRAM" / "miss PROGRAM", with verdict,
//                     cache, handle, compile time, step and the key components as args;
//   step           -> thread-scoped instant "i" named "step N";
//   module loads, NVRTC / nvJitLink programs, driver JIT, kernel launches, compiler phases (the
//                     timeline's runtime lanes) -> "X" on one thread per session and table, named as
//                     the timeline names the lane, every column an arg (enums by name), plus "table".
// Instants sit on their own track when they have one, else on a "marks" thread of their session.
// Timestamps get the session's display offset (session_clocks.h), as the timeline draws them, so a
// recorded session and an imported file do not sit hours apart. Spans are written per track in start
// order (longest first on equal starts, so parents precede children); the output streams, whatever
// the size of the trace, and only the flows and key components are held in memory.
#pragma once

#include <cstdint>
#include <ostream>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

struct TefExportCounts {
    std::int64_t sessions = 0, tracks = 0, spans = 0, unfinished = 0, flows = 0, lookups = 0, steps = 0;
    std::int64_t runtimeRows = 0;  // module loads, NVRTC programs, driver JIT, launches, compiler phases
};

// Writes the whole trace to `out` as one JSON object {"traceEvents": [...], ...}. Throws
// trace::TraceError when the trace cannot be read.
TefExportCounts exportTef(const trace::TraceReader& reader, std::ostream& out);

}  // namespace cs::engine
