// Writes Julia compile timings into a trace: `--trace-compile` statements, `@time` lines and
// `@time_imports` rows become spans on one runtime track ("julia compiles").
//
// Why spans (and not phase_timings): these are compiles and loads of a running program - each has
// a name (the compiled signature, the package, the `__init__`), a kind (category compile, import,
// init) and facts the cost join reads back (span_args recompile=1, compile_ns, recompile_ns). Julia
// prints no start times, so spans are laid end to end in file order on a synthetic clock starting
// at 0: durations and order are real, absolute positions are not. A statement printed without
// --trace-compile-timing has no duration: it is written with dur 0 and arg untimed=1.
#pragma once

#include "core/ingest/importer.h"

#include <optional>

namespace cs::ingest {

class JuliaTimingWriter {
public:
    explicit JuliaTimingWriter(ImportContext& ctx) : m_ctx(ctx) {}
    // Writes the line when it is one of the three forms; false (and nothing written) otherwise.
    bool line(std::string_view cleanLine);
    std::int64_t records() const { return m_records; }
    std::int64_t endNs() const { return m_cursor; }

private:
    std::int64_t span(int category, std::string_view name, std::int64_t durNs);
    ImportContext& m_ctx;
    std::optional<std::int64_t> m_track;
    std::int64_t m_cursor = 0;
    std::int64_t m_records = 0;
};

}  // namespace cs::ingest
