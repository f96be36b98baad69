// `compilescope report`: arguments, errors and the written file.
#include "cli_runner.h"
#include "report_fixture.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>

using cs::test::runCli;

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
