// Writes Julia compile timings into a trace: `--trace-compile` statements, `@time` lines,
// `@time_imports` rows and PrecompileTools workload timings become spans on one runtime track
// ("julia compiles"); the lines around them (the REPL prompt, Pkg's "Precompiling X [uuid]
// (reason)") become what those spans say about themselves.
//
// Why spans (and not phase_timings): these are compiles and loads of a running program - each has
// a name (the compiled signature, the package, the `__init__`, the workload statement), a kind
// (category compile, import, init) and facts the cost join reads back (span_args recompile=1,
// compile_ns, recompile_ns). Julia prints no start times, so spans are laid end to end in file order
// on a synthetic clock starting at 0: durations and order are real, absolute positions are not.
//
// Rules the figures depend on:
// - A statement printed without --trace-compile-timing has no duration: it is written with dur NULL
//   and arg untimed=1 ("time not recorded"), never as 0 ns.
// - `@time_imports` prints a package's `__init__` rows *before* the package, and the package's time
//   already includes them (base/loading.jl times the whole `_require_search_from_serialized`,
//   __init__ included). Init rows are held until their package row and written nested inside it, at
//   its start, with their shares under init_compile_ns / init_recompile_ns, so the package rows alone
//   sum to the printed total and no share is counted twice. Init rows with no package after them (a
//   cut paste) stand alone with compile_ns / recompile_ns.
// - A recompilation share is kept as recompile_pct even where the compilation share printed as
//   "0.00%" (so compile_ns, and with it recompile_ns, is 0).
// - The REPL prompt before an `@time` result names the expression (arg expr) and the how-manieth
//   time it was timed (arg run: 1 = first call, 2 = its repeat).
// - An @time result printed by a workload statement (`@time include(...)` under
//   PRECOMPILETOOLS_TIMING=1) comes right before that statement's row, which includes it: the row
//   is written from the result's start (arg contains_time=1), so the time is counted once.
// - "Precompiling X [uuid] (reason)" is an OTHER span with no duration (Julia prints none), args
//   uuid and cache_reason; PrecompileTools rows that follow are compile spans with arg workload=1 and
//   package X.
#pragma once

#include "core/formats/julia_text.h"
#include "core/ingest/importer.h"

#include <map>
#include <optional>
#include <vector>

namespace cs::ingest {

class JuliaTimingWriter {
public:
    explicit JuliaTimingWriter(ImportContext& ctx) : m_ctx(ctx) {}
    // Writes the line when it is one of the forms above; false (and nothing written) otherwise.
    bool line(std::string_view cleanLine);
    // Writes what is still held (init rows with no package after them, an unclosed box).
    void finish();
    std::int64_t records() const { return m_records; }
    std::int64_t endNs() const { return m_cursor; }

private:
    std::int64_t track();
    std::int64_t span(int category, std::string_view name, std::optional<std::int64_t> durNs);
    std::int64_t spanAt(int category, std::string_view name, std::int64_t startNs, std::int64_t durNs);
    bool logLine(std::string_view line);
    void closeBox();
    void importRow(const ImportRow& row);
    void writeShares(std::int64_t id, std::int64_t ns, double compilePct, double recompilePct, bool below1,
                     bool nestedInit);

    ImportContext& m_ctx;
    std::optional<std::int64_t> m_track;
    std::int64_t m_cursor = 0;
    std::int64_t m_records = 0;
    std::vector<ImportRow> m_pendingInits;
    std::string m_prompt;                      // the last REPL input, until an @time line uses it
    std::map<std::string, std::int64_t> m_runs;  // timed expression -> times seen
    std::string m_package;                     // the package Pkg said it precompiles
    // An open Logging box: a workload row whose expression follows, or a Precompiling message.
    struct Box {
        bool workload = false;
        std::int64_t ns = 0;
        std::string text;
    };
    std::optional<Box> m_box;
    // The last span written, when it was an @time result: a workload row that timed it nests it.
    struct TimeSpan {
        std::int64_t startNs = 0, ns = 0;
    };
    std::optional<TimeSpan> m_lastTime;
};

}  // namespace cs::ingest
