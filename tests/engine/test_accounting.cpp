// Compile accounting and time bases (docs/accounting.md), as every view reads them from the one
// analysis: a log without timestamps has no share of wall time, a merged trace spans its clocked
// work, an import-only trace has nothing to judge, and a time trace's phases reach the report.
#include "cli_process.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/ingest/import_files.h"
#include "core/report/report.h"
#include "core/trace/reader.h"
#include "demo_trace_builder.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>
#include <gtest/gtest.h>

#include <sstream>

using namespace cs;

namespace {
std::string demoSource(const std::string& name) { return std::string(COMPILESCOPE_SOURCE_DIR) + "/resources/demo/" + name; }

std::string import(const test::TempDir& dir, const std::vector<std::string>& inputs, const std::string& name) {
    ingest::importFiles({.inputs = inputs, .output = dir.file(name), .forcedFormat = "", .overwrite = false});
    return dir.file(name);
}
}  // namespace

TEST(Accounting, WarpLogIsSequenceOnlyWithNoShareOfWallTime) {
    test::TempDir dir;
    auto path = import(dir, {demoSource("warp-verbose.log")}, "warp.cstrace");
    auto a = engine::analyseTraceFile(path);
    const auto& s = a->summary;
    ASSERT_EQ(s.sessions.size(), 1u);
    EXPECT_EQ(s.sessions[0].base, engine::TimeBase::Sequence);
    EXPECT_FALSE(s.wallClock);
    EXPECT_FALSE(s.compileShare().has_value());
    EXPECT_GT(s.compileNs, 0);
    EXPECT_EQ(s.clockedCompileNs, 0);
    // Cached loads are cache-load time, never compile time.
    std::int64_t cachedNs = 0, compiledNs = 0;
    for (const auto& m : a->modules->modules)
        for (const auto& l : m.loads) (l.result == CS_MODULE_CACHED ? cachedNs : compiledNs) += l.durNs.value_or(0);
    EXPECT_EQ(s.cacheLoadNs, cachedNs);
    auto info = test::process::runCli({"info", path});
    EXPECT_NE(info.out.find("no wall clock"), std::string::npos) << info.out;
    EXPECT_EQ(info.out.find("% of the clocked wall time"), std::string::npos) << info.out;
}

TEST(Accounting, MergedTraceSpansItsClockedWork) {
    test::TempDir dir;
    test::demo::writeDemoTrace(dir.file("recorded.cstrace"));
    auto merged = import(dir, {dir.file("recorded.cstrace"), demoSource("warp-verbose.log")}, "merged.cstrace");
    auto recorded = engine::analyseTraceFile(dir.file("recorded.cstrace"));
    auto both = engine::analyseTraceFile(merged);
    ASSERT_GT(recorded->summary.spanNs(), 0);
    EXPECT_EQ(both->summary.spanNs(), recorded->summary.spanNs());
    EXPECT_TRUE(both->summary.wallClock);
    // The log's compile time counts in the total, not in the share of the wall clock.
    EXPECT_GT(both->summary.compileNs, recorded->summary.compileNs);
    EXPECT_EQ(both->summary.clockedCompileNs, recorded->summary.clockedCompileNs);
    // The report draws the clocked work and says the log was left out.
    std::ostringstream out;
    report::writeReport({merged}, {}, out);
    EXPECT_NE(out.str().find("class=\"hint not-drawn\""), std::string::npos);
}

TEST(Accounting, CheckOnAnImportOnlyTraceIsNotApplicable) {
    test::TempDir dir;
    auto path = import(dir, {demoSource("julia-enzyme.txt")}, "julia-enzyme.txt.cstrace");
    auto r = test::process::runCli({"check", path});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("NOT APPLICABLE"), std::string::npos) << r.out;
    EXPECT_EQ(engine::analyseTraceFile(path)->verdict.state, engine::VerdictState::NotApplicable);
}

// A Warp log is judged in Warp's terms: the demo's verbose log compiles app.filters under a second hash
// on cuda:0, which fails the acceptance check, naming the module.
TEST(Accounting, CheckOnAWarpLogJudgesModuleHashes) {
    test::TempDir dir;
    auto path = import(dir, {demoSource("warp-verbose.log")}, "warp-verbose.log.cstrace");
    auto r = test::process::runCli({"check", path});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("FAIL one compiled hash per module (Warp modules): app.filters compiled under 2 hashes on cuda:0"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(engine::analyseTraceFile(path)->verdict.state, engine::VerdictState::Fail);
}

TEST(Accounting, TimeTracePhasesReachTheReport) {
    test::TempDir dir;
    // Shaped as clang -ftime-trace writes it: complete events, "Total" summaries, beginningOfTime.
    test::writeFile(dir.file("main.cpp.json"),
                    R"({"traceEvents":[)"
                    R"({"pid":1,"tid":1,"ph":"X","ts":0,"dur":9000,"name":"ExecuteCompiler","args":{}},)"
                    R"({"pid":1,"tid":1,"ph":"X","ts":10,"dur":6000,"name":"Frontend","args":{}},)"
                    R"({"pid":1,"tid":1,"ph":"X","ts":20,"dur":900,"name":"Source","args":{"detail":"/usr/include/c++/12/vector"}},)"
                    R"({"pid":1,"tid":1,"ph":"X","ts":6100,"dur":2800,"name":"Backend","args":{}},)"
                    R"({"pid":1,"tid":0,"ph":"M","name":"process_name","args":{"name":"clang-14"}}],)"
                    R"("beginningOfTime":1700000000000000})");
    auto path = import(dir, {dir.file("main.cpp.json")}, "clang.cstrace");
    auto a = engine::analyseTraceFile(path);
    EXPECT_GE(a->facts.phases.timings, 3);
    std::ostringstream out;
    report::writeReport({path}, {}, out);
    const std::string html = out.str();
    EXPECT_EQ(html.find("The trace records no compiler phase timings"), std::string::npos);
    EXPECT_NE(html.find("<tr class=\"phase\">"), std::string::npos);
    EXPECT_NE(html.find("Frontend"), std::string::npos);
}

// No internal document names in what users read: the demo's CLI output and report.
TEST(UserLanguage, NoSeedInTheDemosOutputs) {
    test::TempDir dir;
    const std::string demo = demoSource("demo.cstrace");
    std::string all;
    for (auto args : std::vector<std::vector<std::string>>{{"info", demo},     {"check", demo},   {"findings", demo},
                                                           {"modules", demo},  {"explain", demo}, {"trees", demo},
                                                           {"--help"},         {"check", "--help"}, {"modules", "--help"},
                                                           {"compare", "--help"}, {"report", "--help"}}) {
        auto r = test::process::runCli(args);
        all += r.out + r.err;
    }
    std::ostringstream out;
    report::writeReport({demo}, {}, out);
    all += out.str();
    for (const char* word : {"seed", "Seed"}) {
        auto at = all.find(word);
        EXPECT_EQ(at, std::string::npos) << "\"" << word << "\" in: ..." << all.substr(at == std::string::npos ? 0 : (at > 80 ? at - 80 : 0), 160);
    }
}

// A trace with both program-cache lookups and Warp module loads (the demo) is judged by both: check
// prints the replay's account and then the Warp rule's row, under a FAIL header either can cause.
TEST(Accounting, CheckOnLookupsAndModulesShowsTheWarpRuleToo) {
    auto r = test::process::runCli({"check", test::sourceDir() + "/resources/demo/demo.cstrace"});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(r.out.rfind("check demo.cstrace: FAIL\n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("  replay: lookups "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("FAIL one compiled hash per module (Warp modules): app.filters compiled under 2 hashes on cuda:0"),
              std::string::npos)
        << r.out;
}
