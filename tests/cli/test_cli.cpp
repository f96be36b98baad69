// The CLI skeleton: help, version, sql (read-only), import dispatch and its errors.
#include "cli_runner.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

using cs::test::runCli;

namespace {
std::string smallTrace(const cs::test::TempDir& dir) {
    auto path = dir.file("t.cstrace");
    cs::trace::TraceWriter w(path);
    auto sess = w.addSession({.cmdline = w.intern("python train.py"), .startNs = 1000});
    w.addStep({.sessionId = sess, .tsNs = 1500, .step = 1});
    w.addStep({.sessionId = sess, .tsNs = 2500, .step = 2});
    w.endSession(sess, 4000, 0);
    w.finalize();
    return path;
}

// The number in info's "rows per fact family" table on the row labelled exactly `label`, or "".
std::string familyRows(const std::string& out, const std::string& label) {
    std::istringstream in(out.substr(out.find("rows per fact family")));
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(label, 0) != 0) continue;
        auto rest = line.substr(label.size());
        if (rest.empty() || rest[0] != ' ') continue;
        auto pos = rest.find_first_not_of(' ');
        return pos == std::string::npos ? "" : rest.substr(pos);
    }
    return "";
}
}  // namespace

TEST(Cli, HelpListsCommands) {
    auto r = runCli({"--help"});
    EXPECT_EQ(r.status, 0);
    for (auto c : {"info", "sql", "import"}) EXPECT_NE(r.out.find(c), std::string::npos) << c;
}

TEST(Cli, NoArgumentsIsUsageError) {
    auto r = runCli({});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("Usage"), std::string::npos);
}

TEST(Cli, UnknownCommand) {
    auto r = runCli({"frobnicate"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos);
}

TEST(Cli, VersionNamesFormat) {
    auto r = runCli({"--version"});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("trace format v2"), std::string::npos);
}

TEST(Cli, SubcommandHelp) {
    auto r = runCli({"sql", "--help"});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("read-only"), std::string::npos);
}

TEST(Cli, InfoShowsSessionsSpanAndCounts) {
    cs::test::TempDir dir;
    auto r = runCli({"info", smallTrace(dir)});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("python train.py"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("complete, exit 0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("time span: 3.00 us"), std::string::npos) << r.out;
    EXPECT_EQ(familyRows(r.out, "steps"), "2") << r.out;
    EXPECT_NE(r.out.find("nothing dropped"), std::string::npos) << r.out;
}

// A family counts its facts (lookups, spans); key components and span args are listed apart, not
// added to them (issue 24: 256 lookups were shown as 1368 + 256 rows).
TEST(Cli, InfoCountsLookupsApartFromKeyComponentsAndSpansApartFromArgs) {
    cs::test::TempDir dir;
    auto path = dir.file("f.cstrace");
    {
        cs::trace::TraceWriter w(path);
        auto sess = w.addSession({.startNs = 0});
        auto track = w.addTrack({.sessionId = sess, .name = w.intern("main")});
        auto span = w.addSpan({.trackId = track, .startNs = 10, .durNs = 5, .category = CS_CAT_COMPILE, .name = w.intern("f")});
        w.addSpanArg(span, w.intern("a"), std::int64_t{1});
        w.addSpanArg(span, w.intern("b"), std::string_view("x"));
        for (int i = 0; i < 2; ++i) {
            auto l = w.addCacheLookup({.sessionId = sess, .tsNs = 10 + i, .cache = w.intern("c"),
                                       .program = w.intern("p"), .verdict = CS_VERDICT_MISS});
            for (int k = 0; k < 3; ++k)
                w.addKeyComponent({.lookupId = l, .ordinal = k, .name = w.intern("k" + std::to_string(k)),
                                   .value = w.intern(std::to_string(i))});
        }
        w.endSession(sess, 100, 0);
        w.finalize();
    }
    auto r = runCli({"info", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(familyRows(r.out, "cache lookups"), "2") << r.out;
    EXPECT_EQ(familyRows(r.out, "cache lookups: key_components"), "6") << r.out;
    EXPECT_EQ(familyRows(r.out, "spans"), "1") << r.out;
    EXPECT_EQ(familyRows(r.out, "spans: span_args"), "2") << r.out;
    EXPECT_EQ(familyRows(r.out, "spans: flows"), "0") << r.out;
    EXPECT_EQ(familyRows(r.out, "modules (module_loads)"), "0") << r.out;
}

TEST(Cli, InfoMarksUnfinishedSessions) {
    cs::test::TempDir dir;
    auto path = dir.file("u.cstrace");
    {
        cs::trace::TraceWriter w(path);
        w.addSession({.pid = 5, .startNs = 0});
        w.finalize();
    }
    auto r = runCli({"info", path});
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("unfinished"), std::string::npos) << r.out;
}

TEST(Cli, SqlPrintsATable) {
    cs::test::TempDir dir;
    auto r = runCli({"sql", smallTrace(dir), "SELECT step, ts_ns FROM steps ORDER BY step"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "step  ts_ns\n----  -----\n1     1500\n2     2500\n(2 rows)\n");
}

TEST(Cli, SqlRefusesWrites) {
    cs::test::TempDir dir;
    auto path = smallTrace(dir);
    for (std::string q : {"DELETE FROM steps", "INSERT INTO steps VALUES (9,1,NULL,1,1,NULL,NULL)",
                          "DROP TABLE steps", "ATTACH '/tmp/x.db' AS x", "PRAGMA user_version=9"}) {
        auto r = runCli({"sql", path, q});
        EXPECT_EQ(r.status, 2) << q;
        EXPECT_FALSE(r.err.empty()) << q;
    }
    auto after = runCli({"sql", path, "SELECT count(*) AS n FROM steps"});
    EXPECT_NE(after.out.find("2"), std::string::npos);
}

TEST(Cli, SqlErrorIsClear) {
    cs::test::TempDir dir;
    auto r = runCli({"sql", smallTrace(dir), "SELECT nope FROM steps"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("no such column: nope"), std::string::npos) << r.err;
}

TEST(Cli, ImportUnknownFormatNamesFileAndKnownFormats) {
    cs::test::TempDir dir;
    auto in = dir.file("mystery.txt");
    cs::test::writeFile(in, "hello world\nsecond line\n");
    auto out = dir.file("o.cstrace");
    auto r = runCli({"import", in, "-o", out});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(in + ": unknown format (first line: \"hello world\")"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nvcc-time"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << "nothing may be written when an input is unknown";
}

TEST(Cli, ImportMissingInput) {
    cs::test::TempDir dir;
    auto r = runCli({"import", dir.file("none.csv"), "-o", dir.file("o.cstrace")});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("no such file"), std::string::npos);
}

TEST(Cli, ImportNeedsOutput) {
    auto r = runCli({"import", "x.csv"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("missing -o"), std::string::npos);
}

TEST(Cli, ImportKeepsExistingOutputWithoutForce) {
    cs::test::TempDir dir;
    auto in = dir.file("t.csv");
    cs::test::writeFile(in, "File name, phase name, metric, unit\nk.cu, NVVM Optimizer, 8, ms\n");
    auto out = dir.file("o.cstrace");
    ASSERT_EQ(runCli({"import", in, "-o", out}).status, 0);
    auto again = runCli({"import", in, "-o", out});
    EXPECT_EQ(again.status, 2);
    EXPECT_NE(again.err.find("already exists"), std::string::npos);
    EXPECT_EQ(runCli({"import", in, "-o", out, "--force"}).status, 0);
}

TEST(Cli, ListFormats) {
    auto r = runCli({"import", "--list-formats"});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("nvcc-time"), std::string::npos);
}

TEST(Cli, ImportMergesTracesWithTheirSessionsAndReferences) {
    cs::test::TempDir dir;
    auto a = smallTrace(dir);  // one session with two steps
    auto csv = dir.file("n.csv");
    cs::test::writeFile(csv, "File name, phase name, metric, unit\nk.cu, NVVM Optimizer, 8, ms\nk.cu, bad\n");
    auto b = dir.file("b.cstrace");
    ASSERT_EQ(runCli({"import", csv, "-o", b}).status, 0);
    auto out = dir.file("all.cstrace");
    auto r = runCli({"import", a, b, csv, "-o", out});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("cstrace"), std::string::npos) << r.out;
    auto q = [&](const std::string& sql) { return runCli({"sql", out, sql}).out; };
    // Three sessions: the recorded one, the imported CSV (from b) and the CSV imported directly.
    EXPECT_NE(q("SELECT count(*) AS n FROM sessions").find("\n3\n"), std::string::npos);
    // The steps still point at the copied session, whose command line survived the string remap.
    EXPECT_NE(q("SELECT c.str FROM steps t JOIN sessions s ON s.id = t.session_id JOIN strings c ON "
                "c.id = s.cmdline_sid GROUP BY 1")
                  .find("python train.py"),
              std::string::npos);
    EXPECT_NE(q("SELECT count(*) AS n FROM phase_timings p JOIN sessions s ON s.id = p.session_id").find("\n2\n"),
              std::string::npos);
    // b's malformed line is carried over, and the direct import counts its own.
    EXPECT_NE(q("SELECT sum(count) AS n FROM stats WHERE name = 'malformed_record'").find("\n2\n"), std::string::npos);
}

TEST(Cli, ImportRefusesAnUnreadableTraceBeforeWriting) {
    cs::test::TempDir dir;
    auto a = smallTrace(dir);
    std::filesystem::resize_file(a, 4096 + 100);
    auto out = dir.file("all.cstrace");
    auto r = runCli({"import", a, "-o", out});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
}
