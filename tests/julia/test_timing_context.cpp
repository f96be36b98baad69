// Issue 15, Julia timings: @time_imports init rows nested in their package, untimed statements,
// recompilation shares kept, PrecompileTools rows, the context lines around them, and the findings
// Julia timing data gives on its own (sources: tests/data/julia/README.md).
#include "julia_test_util.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/report/report.h"
#include "core/ingest/import_files.h"
#include "core/ingest/importer_registry.h"

#include <compilescope/trace_constants.h>

using namespace cs::test;

namespace {
std::int64_t malformed(const cs::trace::TraceReader& r) {
    return scalar(r, "SELECT coalesce(sum(count), 0) FROM stats WHERE name = 'malformed_record'");
}
// Text value of span arg `key` of the span named `span` ("" when absent).
std::string textArg(const cs::trace::TraceReader& r, const std::string& span, const std::string& key) {
    std::string v;
    r.query("SELECT a.value FROM spans s JOIN strings n ON n.id = s.name_sid JOIN span_args a ON a.span_id = s.id "
            "JOIN strings k ON k.id = a.key_sid WHERE n.str = '" + span + "' AND k.str = '" + key + "'",
            [&](const cs::trace::Row& st) { v = st.text(0); });
    return v;
}
std::vector<cs::engine::Finding> findingsOf(const cs::trace::TraceReader& r, const std::string& kind) {
    std::vector<cs::engine::Finding> out;
    auto analysis = cs::engine::analyseTrace(r);
    for (auto& f : analysis->findings)
        if (f.kind == kind) out.push_back(f);
    return out;
}
}  // namespace

TEST(JuliaTimeImports, InitRowsNestInsideTheirPackageSoTotalsEqualThePrintedPackageSum) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("time_imports_plots_manual.txt")});
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(malformed(*r), 0);  // "... many deps omitted for example ..." and the prompt are context (issue 35)
    EXPECT_EQ(scalar(*r, "SELECT count FROM stats WHERE name = 'unused_line'"), 1);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans WHERE category = " + std::to_string(CS_CAT_IMPORT)), 15);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans WHERE category = " + std::to_string(CS_CAT_INIT)), 5);
    EXPECT_EQ(scalar(*r, "SELECT sum(dur_ns) FROM spans WHERE category = " + std::to_string(CS_CAT_IMPORT)), 709'600'000);
    // Every init span lies inside the span of the package printed after it, and names it.
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans i JOIN span_args a ON a.span_id = i.id JOIN strings k ON k.id = "
                         "a.key_sid AND k.str = 'package' JOIN spans p ON p.category = " + std::to_string(CS_CAT_IMPORT) +
                         " AND p.name_sid = (SELECT id FROM strings WHERE str = a.value) WHERE i.category = " +
                         std::to_string(CS_CAT_INIT) + " AND i.start_ns >= p.start_ns AND i.start_ns + i.dur_ns <= "
                         "p.start_ns + p.dur_ns"),
              5);
    EXPECT_EQ(textArg(*r, "SparseArrays.CHOLMOD.__init__()", "package"), "SparseArrays");
    // The timeline ends where the packages end: init time is not added a second time.
    EXPECT_EQ(scalar(*r, "SELECT max(start_ns + dur_ns) FROM spans WHERE category = " + std::to_string(CS_CAT_IMPORT)),
              709'600'000);
    // Shares: the packages' only; the init shares are kept under their own names.
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM span_args a JOIN strings k ON k.id = a.key_sid JOIN spans s ON s.id = "
                         "a.span_id WHERE k.str = 'compile_ns' AND s.category = " + std::to_string(CS_CAT_INIT)),
              0);
    EXPECT_EQ(scalar(*r, "SELECT a.value FROM span_args a JOIN strings k ON k.id = a.key_sid JOIN spans s ON s.id = "
                         "a.span_id JOIN strings n ON n.id = s.name_sid WHERE k.str = 'init_recompile_ns' AND n.str = "
                         "'p7zip_jll.__init__()'"),
              73'748'340);  // 73.8 ms x 99.93% x 100%
}

TEST(JuliaTimeImports, PackagesMostlyRecompilingAndTheAtTimeResultAreFindingsWithCostAndFix) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("time_imports_plots_manual.txt")});
    auto r = cs::trace::TraceReader::open(t);
    auto packages = findingsOf(*r, "julia.package_load_recompilation");
    // Findings fire on the time recompiled (issue 35): SparseArrays' 39.6 ms counts although it is 24 %
    // of its load; Plots' 2.0 ms and the packages under 10 ms do not.
    ASSERT_EQ(packages.size(), 4u);
    EXPECT_EQ(packages[0].title, "loading p7zip_jll is 93% recompilation (73.8 ms of 79.4 ms)");
    EXPECT_EQ(*packages[0].costNs, 73'770'540);
    EXPECT_EQ(packages[1].title, "loading SuiteSparse_jll is 75% recompilation (67.7 ms of 90.1 ms)");
    EXPECT_EQ(packages[2].title, "loading SparseArrays is 24% recompilation (39.6 ms of 166.9 ms)");
    EXPECT_EQ(packages[3].title, "loading GR is 64% recompilation (27.6 ms of 43.0 ms)");
    EXPECT_EQ(packages[0].severity, cs::engine::Severity::Info);
    EXPECT_NE(packages[0].fix.find("@snoop_invalidations"), std::string::npos);
    EXPECT_NE(packages[0].fix.find("invalidation_trees"), std::string::npos);
    EXPECT_NE(packages[0].fix.find("`using p7zip_jll`"), std::string::npos);
    auto times = findingsOf(*r, "julia.time_recompilation");
    ASSERT_EQ(times.size(), 1u);
    EXPECT_EQ(times[0].title, "@time @time_imports using Plots: 97% of its compilation was recompilation (687.1 ms of 1795.6 ms)");
    EXPECT_EQ(*times[0].costNs, 687'114'039);
    EXPECT_EQ(times[0].severity, cs::engine::Severity::Warning);
    EXPECT_NE(times[0].fix.find("Here the call is `@time_imports using Plots`."), std::string::npos) << times[0].fix;
    // `findings` prints them as it prints every finding.
    auto cli = runCli({"findings", t});
    ASSERT_EQ(cli.status, 0) << cli.err;
    EXPECT_NE(cli.out.find("loading p7zip_jll is 93% recompilation"), std::string::npos) << cli.out;
    EXPECT_NE(cli.out.find("julia.time_recompilation"), std::string::npos) << cli.out;
    // The report renders the same findings.
    std::ostringstream html;
    cs::report::writeReport({t}, {}, html);
    EXPECT_NE(html.str().find("loading p7zip_jll is 93% recompilation"), std::string::npos);
    EXPECT_NE(html.str().find("@time @time_imports using Plots: 97% of its compilation was recompilation"), std::string::npos);
}

TEST(JuliaTiming, AtTimeInCommentsIsReadAndAZeroCompileShareKeepsItsRecompilation) {
    const auto& reg = cs::ingest::ImporterRegistry::builtin();
    auto sniffed = reg.sniff(cs::ingest::readHead(juliaFixture("time_in_comments.txt")), "time_in_comments.txt");
    ASSERT_NE(sniffed, nullptr);
    EXPECT_EQ(sniffed->id(), "julia-timing");
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("time_in_comments.txt")});
    auto r = cs::trace::TraceReader::open(t);
    // The three commented solver lines and the commented display call: context, not lost (issue 35).
    EXPECT_EQ(malformed(*r), 0);
    EXPECT_EQ(scalar(*r, "SELECT count FROM stats WHERE name = 'unused_line'"), 4);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans WHERE category = " + std::to_string(CS_CAT_OTHER)), 2);
    EXPECT_EQ(scalar(*r, "SELECT sum(dur_ns) FROM spans"), 170'963'150'000 + 18'903'280'000);
    auto first = "SELECT a.value FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE a.span_id = "
                 "(SELECT min(id) FROM spans) AND k.str = ";
    EXPECT_EQ(scalar(*r, std::string(first) + "'compile_ns'"), 0);          // "0.00% compilation time"
    EXPECT_EQ(scalar(*r, std::string(first) + "'recompile_pct'"), 100);    // ": 100% of which was recompilation"
    EXPECT_EQ(textArg(*r, "@time", "expr").substr(0, 10), "main(igg; ");  // the script's own @time line
    // Findings fire on time (issue 35): "0.00% compilation time: 100% of which was recompilation" is a
    // ~0 ms recompile and gets none; the 131 ms one does.
    auto times = findingsOf(*r, "julia.time_recompilation");
    ASSERT_EQ(times.size(), 1u);
    EXPECT_EQ(times[0].title, "an @time result: 77% of its compilation was recompilation (131.0 ms of 18903.3 ms)");
    EXPECT_EQ(*times[0].costNs, 130'999'730);
}

TEST(JuliaTiming, UntimedStatementsHaveNoDurationAndRecompileStatementsAreAFinding) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("timing_mixed.txt")});
    auto r = cs::trace::TraceReader::open(t);
    // precompile(...) printed without --trace-compile-timing: no duration at all, never 0 ns.
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans WHERE dur_ns IS NULL AND category = " + std::to_string(CS_CAT_COMPILE)), 2);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str = "
                         "'Tuple{typeof(Main.f), Int64}' AND s.dur_ns IS NULL"),
              1);
    auto analysis = cs::engine::analyseTrace(*r);
    EXPECT_EQ(analysis->summary.untimedCompiles, 2);  // the two untimed; "#=    0.0 ms =#" is 0 ns (issue 35)
    auto found = findingsOf(*r, "julia.recompile_statements");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].title, "2 `# recompile` statements: 100.0 ms, 41% of the 241.1 ms of timed compiles");
    EXPECT_EQ(*found[0].costNs, 100'000'000);
    ASSERT_EQ(found[0].evidence.size(), 2u);
    EXPECT_EQ(found[0].evidence[0].note, "Tuple{typeof(Base.sum), Array{Int64, 1}} recompiled, 100.0 ms");
    EXPECT_EQ(found[0].evidence[1].note, "Tuple{typeof(Main.g), Int64} recompiled, time not recorded");
    EXPECT_NE(found[0].fix.find("@snoop_invalidations"), std::string::npos);
}

TEST(JuliaTiming, PrecompileToolsRowsAreTimedStatementsWithTheirPackageAndCacheReason) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("precompiletools_timing_glmakie.txt")});
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(malformed(*r), 0);  // the shell line "% PRECOMPILETOOLS_TIMING=1 julia -q" is context (issue 35)
    auto workload = "FROM spans s JOIN span_args a ON a.span_id = s.id JOIN strings k ON k.id = a.key_sid AND k.str = "
                    "'workload' WHERE s.category = " + std::to_string(CS_CAT_COMPILE);
    EXPECT_EQ(scalar(*r, std::string("SELECT count(*) ") + workload), 10);
    EXPECT_EQ(scalar(*r, std::string("SELECT sum(s.dur_ns) ") + workload), 19'124'000'000);
    EXPECT_EQ(scalar(*r, "SELECT dur_ns FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str = "
                         "'screen = GLMakie.singleton_screen(false)'"),
              1'255'000'000);
    // The boxed statement: its first line carries the ms, the box body is the expression.
    const std::string boxed = "try\n    #= /Users/ian/Documents/GitHub/Makie.jl/GLMakie/src/precompiles.jl:28 =#\n"
                              "    display(plot(x); visible = false)\ncatch\n"
                              "    #= /Users/ian/Documents/GitHub/Makie.jl/GLMakie/src/precompiles.jl:29 =#\nend";
    EXPECT_EQ(scalar(*r, "SELECT dur_ns FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str = '" + boxed + "'"),
              167'000'000);
    EXPECT_EQ(textArg(*r, boxed, "package"), "GLMakie");
    EXPECT_EQ(textArg(*r, "Precompiling GLMakie", "uuid"), "e9467ef8-e4e7-5192-8a1a-b1aee30e663a");
    EXPECT_EQ(textArg(*r, "Precompiling GLMakie", "cache_reason"), "caches not reused: 1 for dependency identifier changed");
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str = "
                         "'Precompiling GLMakie' AND s.dur_ns IS NULL"),
              1);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans WHERE category = " + std::to_string(CS_CAT_OTHER)), 2);  // + @time
}

TEST(JuliaTiming, ThePromptNamesWhatWasTimedSoAFirstCallAndItsRepeatPair) {
    TempDir dir;
    auto in = dir.file("repl.txt");
    // julia #46433's session, as the REPL printed it.
    writeFile(in,
              "julia> @time myComplexFunc(MyStruct(data))\n"
              "  0.135505 seconds (465.55 k allocations: 32.245 MiB, 5.88% gc time, 99.95% compilation time)\n"
              "333383335000\n"
              "\n"
              "julia> @time myComplexFunc(MyStruct(data))\n"
              "  0.000008 seconds (2 allocations: 48 bytes)\n"
              "333383335000\n");
    auto t = importInto(dir, {in});
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(malformed(*r), 0);  // the REPL's display of the two results: context (issue 35)
    EXPECT_EQ(scalar(*r, "SELECT count FROM stats WHERE name = 'unused_line'"), 2);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE k.str = 'expr' "
                         "AND a.value = 'myComplexFunc(MyStruct(data))'"),
              2);
    EXPECT_EQ(scalar(*r, "SELECT a.value FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE k.str = 'run' AND "
                         "a.span_id = (SELECT min(id) FROM spans)"),
              1);
    EXPECT_EQ(scalar(*r, "SELECT a.value FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE k.str = 'run' AND "
                         "a.span_id = (SELECT max(id) FROM spans)"),
              2);
    EXPECT_EQ(scalar(*r, "SELECT dur_ns FROM spans WHERE id = (SELECT min(id) FROM spans)"), 135'505'000);
}
