// Untrusted integers (issue 14): every overflow the issue names, as a regression that must pass
// under UBSan (the asan preset aborts on the first signed overflow). Each test feeds the value from
// outside, through the same path a user's file takes: a TEF import, or a stored trace whose *_ns
// columns hold the int64 extremes, rendered by every verb.
#include "cli_runner.h"
#include "core/trace/page_seal.h"
#include "core/trace/reader.h"
#include "core/util/saturating.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <limits>
#include <string>
#include <vector>

using cs::test::runCli;
using cs::test::scalar;

namespace {
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

std::string importTef(const cs::test::TempDir& dir, const std::string& json) {
    std::string in = dir.file("in.json"), out = dir.file("t.cstrace");
    cs::test::writeFile(in, json);
    auto r = runCli({"import", in, "-o", out});
    EXPECT_EQ(r.status, 0) << r.err;
    return out;
}

// Every verb that reads a trace, in-process: a signed overflow anywhere aborts the UBSan build.
void readWithEveryVerb(const cs::test::TempDir& dir, const std::string& trace) {
    for (std::vector<std::string> args :
         {std::vector<std::string>{"info", trace}, {"info", trace, "--json"}, {"findings", trace},
          {"findings", trace, "--json"}, {"trees", trace}, {"modules", trace}, {"explain", trace},
          {"check", trace}, {"report", trace, "-o", dir.file("r.html")}}) {
        auto r = runCli(args);
        EXPECT_TRUE(r.status == 0 || r.status == 1) << args[0] << ": " << r.err;
        // Release builds used to print a wrapped "-1 ns" duration for a span that reached the int64
        // limit. (A start of "+-1 ns" is the clamp of INT64_MIN, which has no negation, not a wrap.)
        for (size_t at = r.out.find("-1 ns"); at != std::string::npos; at = r.out.find("-1 ns", at + 1))
            EXPECT_TRUE(at > 0 && r.out[at - 1] == '+') << args[0] << ":\n" << r.out;
        // Issue 40: a saturated figure is said, never printed as a value ("9223372037 s", "+-...").
        EXPECT_EQ(r.out.find("9223372037 s"), std::string::npos) << args[0] << ":\n" << r.out;
        EXPECT_EQ(r.out.find("+-"), std::string::npos) << args[0] << ":\n" << r.out;
    }
    // The report's offsets (build files, the compile index, the timeline's axis): no sign before a
    // saturated figure or a negative one (issue 40).
    const std::string html = cs::test::readFile(dir.file("r.html"));
    for (const char* bad : {"+&gt; 292", "+&lt; -292", "+> 292", "+< -292", "+-"})
        EXPECT_EQ(html.find(bad), std::string::npos) << bad;
}
}  // namespace

TEST(Saturating, ClampsAtBothEnds) {
    using namespace cs::util;
    EXPECT_EQ(satAdd(kMax, 1), kMax);
    EXPECT_EQ(satAdd(kMin, -1), kMin);
    EXPECT_EQ(satSub(kMin, 1), kMin);
    EXPECT_EQ(satSub(kMax, -1), kMax);
    EXPECT_EQ(satSub(0, kMin), kMax);
    EXPECT_EQ(satMul(kMax / 2 + 1, 2), kMax);
    EXPECT_EQ(satMul(kMin, -1), kMax);
    EXPECT_EQ(satMul(-3, kMax), kMin);
    EXPECT_EQ(satNeg(kMin), kMax);
    EXPECT_EQ(satNeg(5), -5);
    EXPECT_FALSE(checkedAdd(kMax, 1).has_value());
    EXPECT_EQ(checkedSub(5, 7), -2);
    EXPECT_EQ(clampToInt64(1e30), kMax);
    EXPECT_EQ(clampToInt64(-1e30), kMin);
    EXPECT_EQ(clampToInt64(0.0 / 0.0), 0);
}

namespace {
// The overflow inputs of issue 14 are the TEF fuzz target's regression files: imported here, they
// must import, count what they clamp, and read with every verb. Returns {clamped_time count, sql result}.
std::pair<std::int64_t, std::int64_t> importRegression(const std::string& file, const std::string& sql) {
    cs::test::TempDir dir;
    auto trace = importTef(dir, cs::test::readFile(cs::test::sourceDir() + "/tests/fuzz/regressions/tef/" + file));
    readWithEveryVerb(dir, trace);
    auto r = cs::trace::TraceReader::open(trace);
    std::int64_t clamped = scalar(*r, "SELECT count FROM stats WHERE name = 'clamped_time'");
    return {clamped < 0 ? 0 : clamped, scalar(*r, sql)};
}
}  // namespace

TEST(UntrustedTef, PidAboveNinePointTwoETwelveImports) {
    // TefBuilder::PairHash multiplied the pid by 1000003 in int64.
    EXPECT_EQ(importRegression("pid_above_9e12.json", "SELECT count(*) FROM spans"), std::make_pair(0l, 2l));
}

TEST(UntrustedTef, StartPlusDurationNearTheLimitIsClampedAndCounted) {
    // ts 9e15 us = 9e18 ns, dur as much again: the end lies past int64; it is stored at the limit.
    EXPECT_EQ(importRegression("start_plus_duration_at_limit.json",
                               "SELECT dur_ns = 9223372036854775807 - start_ns FROM spans WHERE start_ns > 0"),
              std::make_pair(1l, 1l));
}

TEST(UntrustedTef, BeginAndEndFurtherApartThanInt64AreClampedAndCounted) {
    EXPECT_EQ(importRegression("begin_end_far_apart.json", "SELECT count(*) FROM spans WHERE dur_ns = 9223372036854775807"),
              std::make_pair(2l, 2l));
}

TEST(UntrustedTef, FlowsAndCountersAtTheLimitsImport) {
    // The second slice starts 1 ns before 9e18 and lasts 9e18 ns: clamped.
    EXPECT_EQ(importRegression("flows_at_the_limits.json", "SELECT count(*) FROM spans"), std::make_pair(1l, 2l));
}

namespace {
// The demo trace with every time column (and the recompile share arguments) set by `expr`.
std::string extremeDemo(const cs::test::TempDir& dir, const std::string& startExpr, const std::string& durExpr) {
    std::string path = dir.file("extreme.cstrace");
    std::filesystem::copy_file(cs::test::sourceDir() + "/resources/demo/demo.cstrace", path);
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    std::vector<std::string> tables;
    std::string sql;
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT m.name, p.name FROM sqlite_schema m, pragma_table_info(m.name) p "
                       "WHERE m.type = 'table' AND (p.name LIKE '%\\_ns' ESCAPE '\\')",
                       -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW) {
        std::string t = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        std::string c = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
        bool isDuration = c == "dur_ns" || c == "compile_ns" || c == "total_ns" || c.find("dur") != std::string::npos;
        sql += "UPDATE " + t + " SET " + c + " = (" + (isDuration ? durExpr : startExpr) + ") WHERE " + c +
               " IS NOT NULL;\n";
    }
    sqlite3_finalize(st);
    // The Julia recompile shares (@time_imports) and the runtime's counters.
    sql += "UPDATE span_args SET value = (" + durExpr + ") WHERE typeof(value) = 'integer';\n";
    sql += "UPDATE counters SET value = (" + durExpr + ");\n";
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "") << sql;
    sqlite3_free(err);
    sqlite3_close(db);
    // A hostile file can carry valid checksums: sealed, so the analyses (not the seal check) meet it.
    EXPECT_TRUE(cs::trace::sealPages(path));
    return path;
}
}  // namespace

TEST(UntrustedStoredTimes, Int64MaxEverywhereReadsWithoutOverflow) {
    cs::test::TempDir dir;
    readWithEveryVerb(dir, extremeDemo(dir, "9223372036854775807 - rowid", "9223372036854775807"));
}

TEST(UntrustedStoredTimes, Int64MinStartsAndMaxDurationsReadWithoutOverflow) {
    // Session clocks negate the earliest reading; the tree cost join and the report's buckets add.
    cs::test::TempDir dir;
    readWithEveryVerb(dir, extremeDemo(dir, "-9223372036854775807 - 1 + rowid", "9223372036854775807"));
}

TEST(UntrustedStoredTimes, AlternatingExtremesReadWithoutOverflow) {
    cs::test::TempDir dir;
    readWithEveryVerb(dir, extremeDemo(dir, "CASE WHEN rowid % 2 THEN 9223372036854775807 ELSE -9223372036854775807 - 1 END",
                                       "CASE WHEN rowid % 3 THEN 9223372036854775807 ELSE -9223372036854775807 - 1 END"));
}

TEST(UntrustedStoredTimes, NegativeDurationsDoNotGiveNegativeCosts) {
    cs::test::TempDir dir;
    auto trace = extremeDemo(dir, "rowid * 1000", "-5000");
    auto r = runCli({"findings", trace, "--json"});
    EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
    EXPECT_EQ(r.out.find("\"cost_ns\": -"), std::string::npos) << r.out;
}

// Issue 40, item 7: a stored exit status of INT64_MIN (the signal of a killed job is stored negated,
// and INT64_MIN has no negation) and a printed SnoopCompile tree declaring 2^63-1 children (the
// counts of two trees added overflowed). Both must read under UBSan, with the value shown as it is.
TEST(UntrustedStoredValues, ExitStatusInt64MinIsShownNotNegated) {
    cs::test::TempDir dir;
    std::string path = dir.file("t.cstrace");
    std::filesystem::copy_file(cs::test::sourceDir() + "/resources/demo/demo.cstrace", path);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE sessions SET exit_status = -9223372036854775807 - 1 WHERE id = 1; "
                               "UPDATE sessions SET exit_status = -9 WHERE id = 2",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    ASSERT_TRUE(cs::trace::sealPages(path));  // hostile, yet sealed: the value itself is under test
    auto r = runCli({"info", path});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("exit status -9223372036854775808 (not a signal number)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("killed by signal 9"), std::string::npos) << r.out;
}

TEST(UntrustedImports, PrintedTreesClaimingInt64MaxChildrenSaturate) {
    cs::test::TempDir dir;
    std::string in = dir.file("trees.txt"), out = dir.file("t.cstrace");
    std::string tree =
        " inserting convert(::Type{Foo}, x::Bar) in FooPkg at /src/FooPkg.jl:21 invalidated:\n"
        "   mt_backedges: 1: signature Tuple{typeof(convert), Type{Foo}, Any} triggered MethodInstance for "
        "FooPkg.wrap(::Any) (9223372036854775807 children)\n"
        "                 2: signature Tuple{typeof(convert), Type{Foo}, Int} triggered MethodInstance for "
        "FooPkg.wrap(::Int) (9223372036854775807 children)\n\n";
    cs::test::writeFile(in, "julia> trees = invalidation_trees(invalidations)\n1-element Vector{SnoopCompile.MethodInvalidations}:\n" + tree);
    auto imp = runCli({"import", in, "-o", out});
    ASSERT_EQ(imp.status, 0) << imp.err;
    readWithEveryVerb(dir, out);
    auto trees = runCli({"trees", out});
    EXPECT_EQ(trees.status, 0) << trees.err;
    EXPECT_NE(trees.out.find("FooPkg.wrap"), std::string::npos) << trees.out;
}

// Issue 40, item 7: a probe report's block_dim of 2^63 was cast from double to int64 (UB; release
// stored INT64_MIN). It is no launch configuration: the load is kept with its block_dim unknown.
TEST(UntrustedImports, ProbeBlockDimPastInt64IsUnknownNotCast) {
    cs::test::TempDir dir;
    std::string in = dir.file("report.json"), out = dir.file("t.cstrace");
    std::string json = cs::test::readFile(cs::test::sourceDir() + "/tests/data/warp/diagnosis/cache_not_reused_probe/report.json");
    const std::string from = "\"block_dim\": 1,";
    ASSERT_NE(json.find(from), std::string::npos);
    json.replace(json.find(from), from.size(), "\"block_dim\": 9223372036854775808,");
    cs::test::writeFile(in, json);
    auto imp = runCli({"import", in, "-o", out});
    ASSERT_EQ(imp.status, 0) << imp.err;
    auto r = cs::trace::TraceReader::open(out);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM module_loads WHERE block_dim IS NULL"), 1);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM module_loads WHERE block_dim < 0"), 0);
    readWithEveryVerb(dir, out);
}

// Issue 40, item 8: a TEF file whose events span 1.78e10 s (from -8.9e9 s to +8.9e9 s): its extent is
// past int64 nanoseconds, and `info` says so instead of printing the clamp as a value.
TEST(UntrustedTef, AnExtentPastInt64IsSaidToBeSaturated) {
    cs::test::TempDir dir;
    auto trace = importTef(dir, R"({"traceEvents": [
        {"name": "a", "ph": "X", "ts": -8.9e15, "dur": 1, "pid": 1, "tid": 1},
        {"name": "b", "ph": "X", "ts": 8.9e15, "dur": 1, "pid": 1, "tid": 1}]})");
    auto r = runCli({"info", trace});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("time span: > 292 years (saturated)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("9223372037 s"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" -8900000000 s "), std::string::npos) << r.out;  // the start as it is, no "+-"
}
