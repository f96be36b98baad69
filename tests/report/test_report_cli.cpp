// `compilescope report`: arguments, errors and the written file.
#include "cli_process.h"
#include "report_fixture.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>

using cs::test::process::runCli;

TEST(ReportCli, WritesOneSelfContainedFile) {
    cs::test::TempDir dir;
    auto trace = dir.file("t.cstrace");
    cs::test::writeReportFixture(trace);
    auto out = dir.file("report.html");
    auto r = runCli({"report", trace, "-o", out});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("wrote " + out), std::string::npos) << r.out;
    auto html = cs::test::readFile(out);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("</html>"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
}

TEST(ReportCli, UsageErrors) {
    EXPECT_EQ(runCli({"report"}).status, 2);
    auto r = runCli({"report", "t.cstrace"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("expected -o FILE"), std::string::npos);
    r = runCli({"report", "t.cstrace", "-o", "x.html", "--frobnicate"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown option '--frobnicate'"), std::string::npos);
    r = runCli({"report", "t.cstrace", "-o", "x.html", "--buckets", "5"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--buckets must be a number from 10 to 2000"), std::string::npos);
}

TEST(ReportCli, UnreadableTraceLeavesNoFile) {
    cs::test::TempDir dir;
    auto bad = dir.file("bad.cstrace");
    cs::test::writeFile(bad, "not a trace at all");
    auto out = dir.file("report.html");
    auto r = runCli({"report", bad, "-o", out});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("bad.cstrace"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
}

TEST(ReportCli, BadLedgerIsNamed) {
    cs::test::TempDir dir;
    auto trace = dir.file("t.cstrace");
    cs::test::writeReportFixture(trace);
    auto ledger = dir.file("ledger.md");
    cs::test::writeFile(ledger, "| a | b |\n");
    auto r = runCli({"report", trace, trace, "-o", dir.file("r.html"), "--ledger", ledger});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("ledger " + ledger + ":1: expected 4 columns, found 2"), std::string::npos) << r.err;
}

// Ranks only for ranks (issue 35): a report over traces of unrelated programs shows them side by
// side, with no DIVERGE and no slow rank; `--ranks` compares them as the ranks of one job, and two
// runs of one program are compared without it. Inputs are public logs of tests/data, imported.
TEST(ReportCli, UnrelatedTracesAreNotComparedAsRanksUnlessAsked) {
    cs::test::TempDir dir;
    auto import = [&](const std::string& rel, const std::string& name) {
        const std::string out = dir.file(name);
        auto r = runCli({"import", std::string(COMPILESCOPE_SOURCE_DIR) + "/tests/data/torch/" + rel, "-o", out});
        EXPECT_EQ(r.status, 0) << r.err;
        return out;
    };
    const std::string a = import("recompiles_tuple_2023_issue99091.log", "a.cstrace");
    const std::string b = import("recompiles_ids_issue148179.log", "b.cstrace");
    const std::string c = import("recompiles_no_id_issue123784.log", "c.cstrace");
    const std::string again = import("recompiles_tuple_2023_issue99091.log", "again.cstrace");
    auto report = [&](std::vector<std::string> args) {
        args.insert(args.begin(), "report");
        args.insert(args.end(), {"-o", dir.file("r.html")});
        auto r = runCli(args);
        EXPECT_EQ(r.status, 0) << r.err;
        return cs::test::readFile(dir.file("r.html"));
    };
    const std::string apart = report({a, b, c});
    EXPECT_NE(apart.find("ranks-not-compared"), std::string::npos);
    EXPECT_EQ(apart.find("DIVERGE"), std::string::npos);
    EXPECT_EQ(apart.find("Slow rank"), std::string::npos);
    EXPECT_EQ(apart.find("rank-table"), std::string::npos);
    const std::string asked = report({"--ranks", a, b, c});
    EXPECT_EQ(asked.find("ranks-not-compared"), std::string::npos);
    EXPECT_NE(asked.find("they DIVERGE"), std::string::npos);  // different programs compiled, as check --ranks says
    const std::string oneProgram = report({a, again});
    EXPECT_EQ(oneProgram.find("ranks-not-compared"), std::string::npos);
    EXPECT_NE(oneProgram.find("rank-table"), std::string::npos);
}

// The Ranks section's misses are the trace's one "misses" figure (issue 35): two runs of a Warp log
// read the module loads that compiled (6 in newton_697_ccd_rising.log, as explain and check say),
// not 0 from cache lookups the log does not have.
TEST(ReportCli, RanksOfAWarpLogCountItsCompiledModuleLoadsAsMisses) {
    cs::test::TempDir dir;
    const std::string log = std::string(COMPILESCOPE_SOURCE_DIR) + "/tests/data/warp/real/newton_697_ccd_rising.log";
    for (const char* name : {"a.cstrace", "b.cstrace"}) ASSERT_EQ(runCli({"import", log, "-o", dir.file(name)}).status, 0);
    auto explain = runCli({"explain", dir.file("a.cstrace")});
    EXPECT_NE(explain.out.find("lookups 6, misses 6,"), std::string::npos) << explain.out;
    auto r = runCli({"report", dir.file("a.cstrace"), dir.file("b.cstrace"), "-o", dir.file("r.html")});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string html = cs::test::readFile(dir.file("r.html"));
    const auto table = html.find("rank-table");
    ASSERT_NE(table, std::string::npos);
    const std::string rows = html.substr(table, html.find("</table>", table) - table);
    EXPECT_NE(rows.find("<td class=\"num\" data-v=\"6\">6</td>"), std::string::npos) << rows;
    EXPECT_EQ(rows.find("data-v=\"0\">0</td>"), std::string::npos) << rows;
}
