// Issue 35, Julia time and alarms: a time Julia printed as 0 is 0 ns (not "time not recorded"), an
// @time printed inside a PrecompileTools row is counted once, the lines around a paste (prompts,
// display of values, SnoopCompile's preamble) are context and not lost data, no "no compiles" is
// said beside a compile time, and recompile findings fire on time. Inputs are shaped as Julia,
// PrecompileTools and SnoopCompile print them (tests/data/julia/README.md).
#include "julia_test_util.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/report/report.h"

#include <compilescope/trace_constants.h>

#include <fstream>

using namespace cs::test;

namespace {
std::int64_t stat(const cs::trace::TraceReader& r, const std::string& name) {
    return scalar(r, "SELECT coalesce(sum(count), 0) FROM stats WHERE name = '" + name + "'");
}
std::vector<cs::engine::Finding> findingsOf(const cs::engine::TraceAnalysis& a, const std::string& kind) {
    std::vector<cs::engine::Finding> out;
    for (const auto& f : a.findings)
        if (f.kind == kind) out.push_back(f);
    return out;
}
std::string fileText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
}  // namespace

// julia --trace-compile=stderr --trace-compile-timing: "#=    0.0 ms =#" is a time Julia printed.
TEST(JuliaTimeFacts, AStatementPrintedAsZeroMsIsZeroNanosecondsNotUnrecorded) {
    TempDir dir;
    auto in = dir.file("trace.txt");
    writeFile(in,
              "#=   39.1 ms =# precompile(Tuple{typeof(Base.rand), Int64, Int64})\n"
              "#=    0.0 ms =# precompile(Tuple{typeof(Base.show), Base.IOContext{Base.TTY}, Type})\n");
    auto t = importInto(dir, {in});
    auto r = cs::trace::TraceReader::open(t);
    auto a = cs::engine::analyseTrace(*r);
    EXPECT_EQ(a->summary.untimedCompiles, 0);
    EXPECT_EQ(a->summary.compileNs, scalar(*r, "SELECT sum(dur_ns) FROM spans"));
    EXPECT_EQ(runCli({"info", t}).out.find("time not recorded"), std::string::npos);
}

// An @time result with no compile share printed (Julia prints it only when above 0) and
// @time_imports packages that printed none: 0 compile ns, not unknown.
TEST(JuliaTimeFacts, AtTimeAtZeroPercentAndPackagesWithoutAShareAreZeroCompileTime) {
    TempDir dir;
    auto in = dir.file("repl.txt");
    writeFile(in,
              "julia> @time @time_imports using Statistics\n"
              "      0.5 ms  Printf\n"
              "     16.4 ms  Dates\n"
              "  0.000008 seconds (2 allocations: 48 bytes)\n");
    auto t = importInto(dir, {in});
    auto r = cs::trace::TraceReader::open(t);
    auto a = cs::engine::analyseTrace(*r);
    EXPECT_EQ(a->summary.untimedCompiles, 0);
    EXPECT_EQ(a->summary.compileNs, 0);
    const auto info = runCli({"info", t}).out;
    EXPECT_EQ(info.find("time not recorded"), std::string::npos);
    EXPECT_EQ(info.find("compile time: unknown"), std::string::npos);
}

// PRECOMPILETOOLS_TIMING=1: the workload row "17270 ms: ... @time include(shared_precompile)" comes
// after the @time result it printed and includes it: the compile time is the workload rows' time,
// not that plus the @time's 94.54 % share again.
TEST(JuliaTimeFacts, AnAtTimeInsideAPrecompileToolsRowIsCountedOnce) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("precompiletools_timing_glmakie.txt")});
    auto r = cs::trace::TraceReader::open(t);
    const std::string workload = "SELECT sum(s.dur_ns) FROM spans s JOIN span_args a ON a.span_id = s.id JOIN strings k ON "
                                 "k.id = a.key_sid WHERE k.str = 'workload'";
    const std::int64_t rows = scalar(*r, workload);
    ASSERT_GT(rows, 0);
    auto a = cs::engine::analyseTrace(*r);
    EXPECT_EQ(a->summary.compileNs, rows);
    EXPECT_EQ(a->summary.spanNs(), rows);
    EXPECT_EQ(scalar(*r, workload + " AND s.id IN (SELECT span_id FROM span_args a2 JOIN strings k2 ON k2.id = a2.key_sid "
                                    "WHERE k2.str = 'contains_time')"),
              scalar(*r, "SELECT max(dur_ns) FROM spans"));
}

// The REPL's display of a value and the shell line are the paste's context: unused information,
// not a loss; a damaged timing ("#= 12.x ms =#") still is one.
TEST(JuliaTimeFacts, DisplayLinesAreUnusedInformationNotDataLost) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("timing_mixed.txt")});
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(stat(*r, "unused_line"), 2);  // "2×2 Matrix{Float64}:" and its row
    EXPECT_EQ(stat(*r, "malformed_record"), 1);
    TempDir dir2;
    auto g = importInto(dir2, {juliaFixture("precompiletools_timing_glmakie.txt")});
    auto rg = cs::trace::TraceReader::open(g);
    EXPECT_EQ(stat(*rg, "unused_line"), 1);  // "% PRECOMPILETOOLS_TIMING=1 julia -q"
    auto a = cs::engine::analyseTrace(*rg);
    EXPECT_FALSE(a->losses.any());
    EXPECT_EQ(runCli({"info", g}).out.find("could not be read"), std::string::npos);
}

// SnoopCompile's preamble as its README shows it, before the printed trees.
TEST(JuliaTimeFacts, SnoopCompilePreambleAndPromptsAreNotDataLost) {
    TempDir dir;
    auto in = dir.file("trees.txt");
    writeFile(in, "julia> using SnoopCompileCore\n\n"
                  "julia> invalidations = @snoop_invalidations using FooPkg;\n\n"
                  "julia> using SnoopCompile\n\n" + fileText(juliaFixture("printed_trees.txt")));
    auto t = importInto(dir, {in});
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(stat(*r, "malformed_record"), 0);
    EXPECT_EQ(stat(*r, "unused_line"), 4);  // three preamble lines and the fixture's own prompt
    EXPECT_FALSE(cs::engine::analyseTrace(*r)->losses.any());
    TempDir dir2;
    auto raw = importInto(dir2, {juliaFixture("raw_worlds_48954.txt")});  // a raw list after "julia> list48954"
    auto rr = cs::trace::TraceReader::open(raw);
    EXPECT_EQ(stat(*rr, "malformed_record"), 0);
    EXPECT_EQ(stat(*rr, "unused_line"), 1);
}

// Recompile findings fire on the time recompiled, not on its share.
TEST(JuliaTimeFacts, RecompileFindingsFireOnTimeNotOnShare) {
    TempDir dir;
    auto small = dir.file("small.txt");
    writeFile(small, "#=    0.0 ms =# precompile(Tuple{typeof(Base.sum), Array{Int64, 1}}) # recompile\n"
                     "# 170.963150 seconds (110.81 M allocations: 39.591 GiB, 4.11% gc time, 0.00% compilation time: 100% of which was recompilation)\n");
    auto ts = importInto(dir, {small});
    auto a = cs::engine::analyseTrace(*cs::trace::TraceReader::open(ts));
    EXPECT_TRUE(findingsOf(*a, "julia.recompile_statements").empty());
    EXPECT_TRUE(findingsOf(*a, "julia.time_recompilation").empty());

    TempDir dir2;
    auto big = dir2.file("big.txt");
    writeFile(big, " 20.000000 seconds (44.00 M allocations: 2.517 GiB, 1.84% gc time, 90.00% compilation time: 30% of which was recompilation)\n");
    auto tb = importInto(dir2, {big});
    auto rb = cs::trace::TraceReader::open(tb);
    auto b = cs::engine::analyseTrace(*rb);
    auto times = findingsOf(*b, "julia.time_recompilation");
    ASSERT_EQ(times.size(), 1u);
    const std::int64_t recompile = scalar(*rb, "SELECT a.value FROM span_args a JOIN strings k ON k.id = a.key_sid "
                                               "WHERE k.str = 'recompile_ns'");
    EXPECT_GT(recompile, 1'000'000'000);
    EXPECT_EQ(times[0].costNs.value_or(0), recompile);
}

// `@time @time_imports using Plots`: compile time from Julia's own totals, and no compile spans.
TEST(JuliaTimeFacts, TheReportSaysNoNoCompilesBesideACompileTime) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("time_imports_plots_manual.txt")});
    auto a = cs::engine::analyseTrace(*cs::trace::TraceReader::open(t));
    ASSERT_GT(a->summary.compileNs, 0);
    std::ostringstream html;
    cs::report::writeReport({t}, {}, html);
    EXPECT_EQ(html.str().find("records no compiles"), std::string::npos);
    EXPECT_NE(html.str().find("own totals, such as Julia"), std::string::npos);
}
