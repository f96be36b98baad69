// `compilescope info` on files that are not good traces: each gets its own clear message naming the
// file, and exit status 2. One test per case (issue 2).
#include "cli_process.h"
#include "core/trace/page_seal.h"
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

// `compilescope info` runs as its own process: this executable links the trace layer only.
using cs::test::process::runCli;
using namespace cs::trace;

namespace {
void exec(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    std::string msg = err ? err : "";
    sqlite3_free(err);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << msg;
    // A hostile file can carry valid checksums: sealed, so the schema checks (not the seal) meet it.
    (void)sealPages(path);  // false for a database without room for them (another application's)
}

std::string validTrace(const cs::test::TempDir& dir, const std::string& name, int rows = 0) {
    auto path = dir.file(name);
    TraceWriter w(path);
    auto sess = w.addSession({.startNs = 0});
    for (int i = 0; i < rows; ++i)
        w.addStep({.sessionId = sess, .tsNs = i, .step = i, .label = w.intern("label number " + std::to_string(i))});
    w.finalize();
    return path;
}

// Runs info, expects status 2, the path and `phrase` in stderr; returns stderr.
std::string expectInfoFails(const std::string& path, const std::string& phrase) {
    auto r = runCli({"info", path});
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(phrase), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    return r.err;
}

TraceErrorKind kindOf(const std::string& path) {
    try {
        TraceReader::open(path);
    } catch (const TraceError& e) {
        return e.kind();
    }
    return TraceErrorKind::Query;  // "opened": not an error kind these tests expect
}
}  // namespace

TEST(ReaderErrors, MissingFile) {
    cs::test::TempDir dir;
    auto path = dir.file("nope.cstrace");
    expectInfoFails(path, "no such file");
    EXPECT_EQ(kindOf(path), TraceErrorKind::NotFound);
}

TEST(ReaderErrors, EmptyFile) {
    cs::test::TempDir dir;
    auto path = dir.file("empty.cstrace");
    cs::test::writeFile(path, "");
    expectInfoFails(path, "empty file");
    EXPECT_EQ(kindOf(path), TraceErrorKind::Empty);
}

TEST(ReaderErrors, NotSqlite) {
    cs::test::TempDir dir;
    auto path = dir.file("log.cstrace");
    cs::test::writeFile(path, "Module warp.sim abc1234 load on device 'cuda:0' took 12.00 ms  (compiled)\n");
    expectInfoFails(path, "not a SQLite database");
    EXPECT_EQ(kindOf(path), TraceErrorKind::NotSqlite);
}

TEST(ReaderErrors, SqliteOfAnotherApplication) {
    cs::test::TempDir dir;
    auto path = dir.file("other.db");
    exec(path, "PRAGMA application_id=1234; CREATE TABLE t(x); INSERT INTO t VALUES (1);");
    auto err = expectInfoFails(path, "another application");
    EXPECT_NE(err.find("0x000004d2"), std::string::npos) << err;
    EXPECT_EQ(kindOf(path), TraceErrorKind::ForeignDatabase);
}

TEST(ReaderErrors, NewerFormatVersionNamesBothVersions) {
    cs::test::TempDir dir;
    auto path = validTrace(dir, "new.cstrace");
    exec(path, "PRAGMA user_version=7");
    auto err = expectInfoFails(path, "trace format v7 is newer");
    EXPECT_NE(err.find("(v2)"), std::string::npos) << err;
    EXPECT_EQ(kindOf(path), TraceErrorKind::NewerVersion);
}

TEST(ReaderErrors, TruncatedTraceNamesTheByte) {
    cs::test::TempDir dir;
    auto path = validTrace(dir, "cut.cstrace", 5000);
    auto size = std::filesystem::file_size(path);
    ASSERT_GT(size, 8192u);
    std::filesystem::resize_file(path, 8192);
    expectInfoFails(path, "truncated at byte 8192 of " + std::to_string(size));
    EXPECT_EQ(kindOf(path), TraceErrorKind::Truncated);
}

TEST(ReaderErrors, TruncatedMidPage) {
    cs::test::TempDir dir;
    auto path = validTrace(dir, "cut2.cstrace", 5000);
    std::filesystem::resize_file(path, 5000);
    expectInfoFails(path, "truncated at byte 5000");
}

TEST(ReaderErrors, SchemaWithTriggerIsRefused) {
    cs::test::TempDir dir;
    auto path = validTrace(dir, "trig.cstrace");
    exec(path, "CREATE TRIGGER evil AFTER INSERT ON steps BEGIN DELETE FROM steps; END;");
    expectInfoFails(path, "schema holds a trigger (\"evil\")");
    EXPECT_EQ(kindOf(path), TraceErrorKind::UnsafeSchema);
}

TEST(ReaderErrors, SchemaWithViewIsRefused) {
    cs::test::TempDir dir;
    auto path = validTrace(dir, "view.cstrace");
    exec(path, "CREATE VIEW v AS SELECT * FROM steps;");
    expectInfoFails(path, "schema holds a view (\"v\")");
    EXPECT_EQ(kindOf(path), TraceErrorKind::UnsafeSchema);
}

TEST(ReaderErrors, UnknownTableIsRefused) {
    cs::test::TempDir dir;
    auto path = validTrace(dir, "extra.cstrace");
    exec(path, "CREATE TABLE surprise(x);");
    expectInfoFails(path, "unexpected table \"surprise\"");
}

TEST(ReaderErrors, MissingColumnIsReported) {
    cs::test::TempDir dir;
    auto path = validTrace(dir, "col.cstrace");
    exec(path, "ALTER TABLE steps DROP COLUMN label_sid;");
    expectInfoFails(path, "table \"steps\" lacks column \"label_sid\"");
    EXPECT_EQ(kindOf(path), TraceErrorKind::SchemaMismatch);
}

// A recording in progress keeps its schema and rows in the write-ahead log; the main file copied alone
// (a live trace copied without NAME-wal) used to be refused as 'table "meta" is missing'.
TEST(ReaderErrors, UnfinishedRecordingWithoutItsWalNamesTheWal) {
    cs::test::TempDir dir;
    auto live = dir.file("live.cstrace"), copy = dir.file("copy.cstrace");
    TraceWriter w(live);
    auto sess = w.addSession({.startNs = 0});
    w.addStep({.sessionId = sess, .tsNs = 1, .step = 1, .label = w.intern("step")});
    w.commit();
    std::filesystem::copy_file(live, copy);
    ASSERT_FALSE(std::filesystem::exists(copy + "-wal"));
    auto err = expectInfoFails(copy, "a recording that never finished, copied without its write-ahead log (copy.cstrace-wal)");
    EXPECT_EQ(err.find("\"meta\" is missing"), std::string::npos) << err;
    w.finalize();
}

TEST(ReaderErrors, DirectoryIsNotATrace) {
    cs::test::TempDir dir;
    expectInfoFails(dir.path().string(), "is a directory");
}

TEST(ReaderErrors, GoodTraceStillOpens) {
    cs::test::TempDir dir;
    auto path = validTrace(dir, "ok.cstrace", 3);
    auto r = runCli({"info", path});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("steps"), std::string::npos);
}
