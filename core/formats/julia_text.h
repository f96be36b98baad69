// Pieces of Julia's printed output shared by the Julia importers: what a printed list item is, the
// `N-element Vector{Any}:` header, and the lines of `--trace-compile`, `@time` and `@time_imports`.
//
// Why one place: the REPL printout importer, the timing importer and our collector's own file all
// meet the same printed forms (docs/formats.md 1.1, 1.4; JuliaLang/julia src/gf.c
// record_precompile_statement, base/timing.jl time_print, base/loading.jl
// print_time_imports_report*). Each parser takes one line with ANSI colours already removed and
// says false when the line is not its form; it never throws.
#pragma once

#include "core/formats/text_util.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cs::ingest {

// Calls `fn(line)` for each line of `head` (colour codes removed), for sniffing.
template <class Fn>
void forEachHeadLine(std::string_view head, Fn&& fn);

// cs_invalidation_item_kind of one printed item of a raw invalidation list.
int classifyJuliaItem(std::string_view text);

// "202-element Vector{Any}:" / "202-element Array{Any,1}:" -> 202.
bool parseAnyVectorHeader(std::string_view line, std::int64_t& count);

// `#=  12.3 ms =# precompile(Tuple{...}) # recompile` (the timing prefix and the tag are optional).
struct CompileStatement {
    std::string signature;  // "Tuple{typeof(f), Int64}"
    std::optional<std::int64_t> ns;
    bool recompile = false;
};
bool parseCompileStatement(std::string_view line, CompileStatement& out);

// `  0.140577 seconds (554.86 k allocations: 28.968 MiB, 7.33% gc time, 79.65% compilation time: 100% of which was recompilation)`
struct TimeLine {
    std::int64_t ns = 0;
    double compilePct = 0, recompilePct = 0, gcPct = 0;
    bool recompileBelow1 = false;  // "<1% of which was recompilation"
    std::string detail;            // the text in parentheses
};
bool parseTimeLine(std::string_view line, TimeLine& out);

// `@time_imports` rows: `   402.7 ms  SomeDep 38.11% compilation time (100% recompilation)`,
// `   12.0 ms  A → AExt`, and init rows `               ┌ 1.8 ms FooBar_jll.__init__() 64.10% compilation time`.
struct ImportRow {
    bool isInit = false;
    std::string name;         // package, "A → AExt", or "FooBar_jll.__init__()"
    std::string extensionOf;  // "A" for "A → AExt"
    std::int64_t ns = 0;
    double compilePct = 0, recompilePct = 0;
    bool recompileBelow1 = false;
};
bool parseImportRow(std::string_view line, ImportRow& out);

template <class Fn>
void forEachHeadLine(std::string_view head, Fn&& fn) {
    size_t pos = 0;
    while (pos < head.size()) {
        size_t end = head.find('\n', pos);
        fn(stripAnsi(head.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos)));
        if (end == std::string_view::npos) break;
        pos = end + 1;
    }
}

}  // namespace cs::ingest
