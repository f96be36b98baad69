// Unsealed traces (issue 40, point 4): a sealed trace whose header byte 20 or change counter was
// changed, with a content byte changed too, used to be read as data with only a "not checked" line.
// Now it is refused naming the file, read with --trust-unsealed, and `compilescope seal` makes it
// read clean; a trace being recorded and one from before page checksums existed are still read
// (core/trace/unsealed_policy.h).
#include "cli_runner.h"
#include "core/trace/page_seal.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using cs::test::runCli;

namespace {
const std::string kDemo = cs::test::sourceDir() + "/resources/demo/demo.cstrace";

std::string copyDemo(const cs::test::TempDir& dir, const std::string& name) {
    const std::string path = dir.file(name);
    std::filesystem::copy_file(kDemo, path, std::filesystem::copy_options::overwrite_existing);
    return path;
}

void setByte(const std::string& path, std::int64_t offset, unsigned char value) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(offset);
    f.put(static_cast<char>(value));
}

unsigned char byteAt(const std::string& path, std::int64_t offset) {
    std::ifstream f(path, std::ios::binary);
    f.seekg(offset);
    return static_cast<unsigned char>(f.get());
}

void sql(const std::string& path, const std::string& statement) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
}

void expectRefusedNaming(const std::string& path, const std::vector<std::string>& args) {
    auto r = runCli(args);
    EXPECT_EQ(r.status, 2) << args[0] << ": " << r.out;
    EXPECT_NE(r.err.find(path + ": not sealed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--trust-unsealed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("compilescope seal " + path), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("sessions"), std::string::npos) << "figures shown: " << r.out;
}
}  // namespace

TEST(UnsealedTrace, Byte20AndAContentByteChangedIsRefusedThenTrustedThenSealed) {
    cs::test::TempDir dir;
    const std::string path = copyDemo(dir, "t.cstrace");
    const std::int64_t pageSize = (std::int64_t{byteAt(path, 16)} << 8) | byteAt(path, 17);
    ASSERT_EQ(byteAt(path, 20), cs::trace::kReservedBytes);
    setByte(path, 20, 0);
    // The last byte before page 2's reserved area: where SQLite keeps the page's first cell.
    const std::int64_t content = 2 * pageSize - cs::trace::kReservedBytes - 1;
    setByte(path, content, static_cast<unsigned char>(byteAt(path, content) ^ 0x01));
    for (const char* verb : {"info", "findings", "check", "trees", "modules", "explain"})
        expectRefusedNaming(path, {verb, path});

    for (const auto& args : {std::vector<std::string>{"--trust-unsealed", "info", path},
                             std::vector<std::string>{"info", path, "--trust-unsealed"}}) {
        auto trusted = runCli(args);
        EXPECT_EQ(trusted.status, 0) << trusted.err;
        EXPECT_NE(trusted.out.find("not checked (--trust-unsealed)"), std::string::npos) << trusted.out;
        EXPECT_NE(trusted.err.find("warning: " + path + ": read without its page checksums"), std::string::npos)
            << trusted.err;
    }

    auto sealed = runCli({"seal", path});
    ASSERT_EQ(sealed.status, 0) << sealed.err;
    EXPECT_NE(sealed.out.find("sealed, header byte 20 changed"), std::string::npos) << sealed.out;
    EXPECT_EQ(byteAt(path, 20), cs::trace::kReservedBytes);
    auto clean = runCli({"info", path});
    EXPECT_EQ(clean.status, 0) << clean.err;
    EXPECT_NE(clean.out.find("checksums ok"), std::string::npos) << clean.out;
    EXPECT_EQ(clean.err, "");
}

TEST(UnsealedTrace, AMovedChangeCounterIsRefusedAndSealKeepsTheEdit) {
    cs::test::TempDir dir;
    const std::string path = copyDemo(dir, "edited.cstrace");
    sql(path, "UPDATE meta SET value = 'edited by hand' WHERE key = 'creator'");
    EXPECT_EQ(cs::trace::checkPages(path).state, cs::trace::PageCheck::State::Stale);
    expectRefusedNaming(path, {"info", path});
    ASSERT_EQ(runCli({"seal", path}).status, 0);
    auto r = runCli({"info", path});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("edited by hand"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("checksums ok"), std::string::npos) << r.out;
}

TEST(UnsealedTrace, ARecordingIsReadWhileItHoldsItsLockAndRefusedOnceAbandoned) {
    cs::test::TempDir dir;
    const std::string path = dir.file("live.cstrace");
    {
        cs::trace::TraceWriter w(path);
        w.addSession({.runtime = w.intern("x"), .startNs = 0});
        w.commit();
        auto live = runCli({"info", path});
        EXPECT_EQ(live.status, 0) << live.err;
        EXPECT_NE(live.out.find("still being recorded"), std::string::npos) << live.out;
        auto busy = runCli({"seal", path});
        EXPECT_EQ(busy.status, 2);
        EXPECT_NE(busy.err.find("is being recorded"), std::string::npos) << busy.err;
    }  // destroyed without finalize: what a killed recorder leaves
    expectRefusedNaming(path, {"info", path});
    EXPECT_EQ(runCli({"--trust-unsealed", "info", path}).status, 0);
    ASSERT_EQ(runCli({"seal", path}).status, 0);
    EXPECT_EQ(runCli({"info", path}).status, 0);
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST(UnsealedTrace, ATraceFromBeforePageChecksumsIsReadWithAWarningOnEveryVerb) {
    cs::test::TempDir dir;
    // The demo's schema in a database without reserved bytes, as the writer made before checksums.
    const std::string path = dir.file("old.cstrace");
    sqlite3* demo = nullptr;
    ASSERT_EQ(sqlite3_open_v2(kDemo.c_str(), &demo, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    std::string schema = "PRAGMA page_size=16384; PRAGMA application_id=1129534546; PRAGMA user_version=1;";
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(demo, "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL", -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW) schema += std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))) + ";";
    sqlite3_finalize(st);
    sqlite3_close(demo);
    sql(path, schema);
    ASSERT_EQ(byteAt(path, 20), 0);
    for (const char* verb : {"info", "findings", "trees", "modules"}) {
        auto r = runCli({verb, path});
        EXPECT_EQ(r.status, 0) << verb << ": " << r.err;
        EXPECT_NE(r.err.find("warning: " + path + ": written before page checksums existed"), std::string::npos)
            << verb << ": " << r.err;
    }
}
