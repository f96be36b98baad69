// Importer for Trace Event Format JSON: chrome://tracing / Perfetto files, clang `-ftime-trace`,
// nvcc and NVRTC `-fdevice-time-trace`, and Warp's `compile_time_trace` (NVRTC's output).
//
// Why: compilers and JIT runtimes already describe where their time goes in this one format, and
// users have these files lying next to their builds. Importing them puts clang's template
// instantiations, cicc / ptxas phases and a runtime's own chrome trace on the same timeline as the
// cache events CompileScope records.
//
// What the format looks like (docs/formats.md 5.5, 6.1, 6.2, checked against local CUDA 13.0 and clang):
// either a bare array of events or an object whose "traceEvents" member holds them; nvcc / NVRTC put
// an empty `{}` event first and, in NVRTC's case, append `.json` to the requested file name. Events
// carry `ph` (phase), `ts` / `dur` in microseconds (fractions allowed), `pid` / `tid`, `name`, `cat`,
// `args`. This importer maps:
//   X, B/E      -> spans (+ span_args from args and cat), on a track per (pid, tid) nested under a
//                  track per pid; B/E pair per thread, an unmatched E is malformed, a B never ended
//                  stays a span with NULL duration and is counted;
//   i / I / R   -> zero-length spans (args keep the scope);
//   C           -> counters rows (scope = event name, name = series);
//   M           -> names of the process and thread tracks (they may come after the events);
//   s / t / f and bind_id + flow_in / flow_out -> flows (see tef_flows.h);
//   b / e / n   -> spans on one async lane per (pid, name);
//   clang's `beginningOfTime` -> added to every timestamp, the session on CLOCK_REALTIME (its files
//                  then share one clock: a build's parallelism), and every uncategorised event a phase;
//   clang's "Total <name>" X events -> phase_timings rows of tool clang (per-file totals, not spans);
//   other known phases (samples, objects, legacy async, memory dumps) are counted as skipped, unknown
//   phases and wrongly typed fields as malformed. The file is streamed with JsonPullReader and never
//   held in memory; a truncated file keeps everything read before the cut and says where it ended.
//   A small, well-formed file is parsed whole by simdjson instead (tef_dom_reader.h), to the same rows.
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class TefImporter final : public Importer {
public:
    std::string_view id() const override { return "tef"; }
    std::string_view description() const override {
        return "Trace Event Format JSON (chrome traces, clang -ftime-trace, nvcc / NVRTC -fdevice-time-trace)";
    }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 95; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;

    // run() with a choice of parser: Auto takes the fast path (tef_dom_reader.h) when it can read the
    // file exactly as the stream reader would; the tests compare the two. `fast`: which one read it.
    enum class Parser { Auto, StreamOnly };
    static ImportSummary import(std::istream& in, ImportContext& ctx, Parser parser, bool* fast = nullptr);
};

}  // namespace cs::ingest
