// Loss lines everywhere (issue 40, point 5): `explain`, `findings`, `trees`, `modules`, `export` and
// `check` printed figures of a trace that lost events or had rows left out as trace problems without
// a word, while `info` and the report said so; and `check` flipped from FAIL to PASS when lookups were
// left out. Each verb now prints the report's loss line, and `check` says INCOMPLETE (exit 3).
#include "cli_runner.h"
#include "core/trace/page_seal.h"
#include "core/util/units.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

using cs::test::runCli;

namespace {
const std::string kDemo = cs::test::sourceDir() + "/resources/demo/demo.cstrace";

// The demo after `sql`, sealed again (a hostile or edited file can carry valid checksums); returns
// the first column of `count` after the edit.
std::int64_t editDemo(const std::string& path, const std::string& sql, const std::string& count) {
    std::filesystem::copy_file(kDemo, path, std::filesystem::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    std::int64_t n = -1;
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, count.c_str(), -1, &st, nullptr);
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    EXPECT_TRUE(cs::trace::sealPages(path));
    return n;
}

struct Where {
    std::vector<std::string> args;
    bool onStderr;  // machine-readable or SnoopCompile's text on stdout: the line goes to stderr
};

std::vector<Where> everyVerb(const std::string& trace, const cs::test::TempDir& dir) {
    return {{{"explain", trace}, false},           {{"findings", trace}, false},
            {{"findings", trace, "--json"}, true},  {{"modules", trace}, false},
            {{"trees", trace}, true},               {{"export", trace, "-o", dir.file("t.json")}, true},
            {{"export", "--format", "jsonl", trace, "-o", dir.file("jsonl")}, true},
            {{"check", trace}, false}};
}

void expectLossLineEverywhere(const std::string& trace, const cs::test::TempDir& dir, const std::string& phrase) {
    for (const auto& w : everyVerb(trace, dir)) {
        auto r = runCli(w.args);
        EXPECT_NE(r.status, 2) << w.args[0] << ": " << r.err;
        const std::string& text = w.onStderr ? r.err : r.out;
        const auto at = text.find("warning: ");
        ASSERT_NE(at, std::string::npos) << w.args[0] << " " << w.args.back() << ":\n" << text;
        EXPECT_NE(text.find(phrase, at), std::string::npos) << w.args[0] << ":\n" << text;
    }
}
}  // namespace

TEST(LossLines, RowsLeftOutAsTraceProblemsAreSaidByEveryVerb) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("dangling.cstrace");
    const auto leftOut = editDemo(trace, "UPDATE cache_lookups SET session_id = session_id + 1000 WHERE id % 2 = 0",
                                  "SELECT count(*) FROM cache_lookups WHERE session_id NOT IN (SELECT id FROM sessions)");
    ASSERT_GT(leftOut, 0);
    expectLossLineEverywhere(trace, dir, cs::util::formatCount(leftOut) + " rows break the trace format and are left out");
}

TEST(LossLines, LostEventsAreSaidByEveryVerb) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("lost.cstrace");
    const auto lost = editDemo(trace,
                               "INSERT INTO stats (session_id, name, source, count, detail) "
                               "VALUES (1, 'dropped_buffer_full', 'collector', 4321, 'ring full')",
                               "SELECT sum(count) FROM stats WHERE name LIKE 'dropped%'");
    expectLossLineEverywhere(trace, dir, cs::util::formatCount(lost) + " recorded events never reached the trace");
}

TEST(LossLines, AnIntactTraceHasNoLossLine) {
    cs::test::TempDir dir;
    for (const auto& w : everyVerb(kDemo, dir)) {
        auto r = runCli(w.args);
        EXPECT_EQ((w.onStderr ? r.err : r.out).find("warning: "), std::string::npos) << w.args[0] << ":\n" << r.out << r.err;
    }
}

TEST(CheckIncomplete, LookupsLeftOutNeverPass) {
    cs::test::TempDir dir;
    auto clean = runCli({"check", kDemo});
    EXPECT_EQ(clean.out.find("INCOMPLETE"), std::string::npos) << clean.out;
    // Every lookup of the sessions but the first points at no session: the replay sees one session,
    // the others are left out. Whatever it judges of the rest, the verdict is INCOMPLETE, exit 3.
    const std::string trace = dir.file("partial.cstrace");
    const auto leftOut = editDemo(trace, "UPDATE cache_lookups SET session_id = session_id + 1000 WHERE session_id > 1",
                                  "SELECT count(*) FROM cache_lookups WHERE session_id NOT IN (SELECT id FROM sessions)");
    ASSERT_GT(leftOut, 0);
    auto r = runCli({"check", trace});
    EXPECT_EQ(r.status, 3) << r.out << r.err;
    EXPECT_NE(r.out.find("INCOMPLETE (" + cs::util::formatCount(leftOut) + " cache lookup rows left out"), std::string::npos)
        << r.out;
    // Also with every lookup left out, which used to read "NOT APPLICABLE", exit 0.
    const std::string none = dir.file("none.cstrace");
    editDemo(none, "UPDATE cache_lookups SET session_id = session_id + 1000", "SELECT 0");
    EXPECT_EQ(runCli({"check", none}).status, 3);
    EXPECT_NE(runCli({"check", "--help"}).out.find("3 incomplete"), std::string::npos);
}

TEST(CheckIncomplete, TheReportSaysIncompleteAsCheckDoes) {
    // Issue 40: `check` said INCOMPLETE while the report's verdict, tile and JSON said PASS.
    cs::test::TempDir dir;
    const std::string clean = dir.file("clean.html");
    ASSERT_EQ(runCli({"report", kDemo, "-o", clean}).status, 0);
    const std::string cleanHtml = cs::test::readFile(clean);
    EXPECT_EQ(cleanHtml.find("data-verdict=\"incomplete\""), std::string::npos);
    EXPECT_EQ(cleanHtml.find("INCOMPLETE"), std::string::npos);

    const std::string trace = dir.file("partial.cstrace"), out = dir.file("partial.html");
    const auto leftOut = editDemo(trace, "UPDATE cache_lookups SET session_id = session_id + 1000 WHERE session_id > 1",
                                  "SELECT count(*) FROM cache_lookups WHERE session_id NOT IN (SELECT id FROM sessions)");
    ASSERT_GT(leftOut, 0);
    auto r = runCli({"report", trace, "-o", out});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string html = cs::test::readFile(out);
    EXPECT_NE(html.find("data-verdict=\"incomplete\""), std::string::npos);
    EXPECT_NE(html.find("Acceptance: INCOMPLETE"), std::string::npos);
    EXPECT_NE(html.find(cs::util::formatCount(leftOut) + " cache lookup rows were left out as trace problems"),
              std::string::npos);
    EXPECT_EQ(html.find("data-verdict=\"pass\""), std::string::npos) << "a pass beside the incomplete verdict";
    EXPECT_EQ(html.find("Acceptance: PASS"), std::string::npos);
    EXPECT_NE(html.find("\"acceptance\":\"incomplete\""), std::string::npos);  // the figures for scripts
    EXPECT_NE(html.find(">INCOMPLETE<"), std::string::npos);  // the acceptance tile
}
