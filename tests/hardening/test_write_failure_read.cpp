// A recording that hit a full disk, as its readers see it (issue 40): the refusal names the cause
// the recorder wrote in its sidecar note (core/trace/write_failure_cause.h) instead of "cut short,
// e.g. by an interrupted copy", and the note's counts are read once, from the trace's own stats when
// the recorder could store them there (core/trace/write_note_stats.h), else from the note.
#include "cli_runner.h"
#include "core/engine/accounting/trace_facts.h"
#include "core/trace/reader.h"
#include "core/trace/unsealed_policy.h"
#include "core/trace/write_note.h"
#include "core/trace/write_note_stats.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

using cs::test::runCli;

namespace {
const std::string kDemo = cs::test::sourceDir() + "/resources/demo/demo.cstrace";

// The note as the recorder writes it (app/recorder/write_failure.cpp): the writer's error, which
// starts with the trace's name, and the events per table that reached the recorder unstored.
cs::trace::WriteNote fullDiskNote(const std::string& trace) {
    return {trace + ": cannot commit: database or disk is full", {{"spans", 1234}}, 567, 0, false};
}

// What a recorder killed by its full disk leaves: a trace with a session, committed, never finished.
std::string unfinishedRecording(const cs::test::TempDir& dir) {
    const std::string path = dir.file("full.cstrace");
    cs::trace::TraceWriter w(path);
    w.addSession({.runtime = w.intern("x"), .startNs = 0});
    w.commit();
    return path;  // destroyed without finalize
}

std::int64_t statsNamed(const std::string& path, const std::string& name, int* rows) {
    cs::trace::TrustUnsealedScope trust;
    auto reader = cs::trace::TraceReader::open(path);
    const auto facts = cs::engine::readTraceFacts(*reader);
    std::int64_t total = 0;
    *rows = 0;
    for (const auto& s : facts.stats)
        if (s.name == name) total += s.count, ++*rows;
    return total;
}
}  // namespace

TEST(WriteFailureOnReading, ATraceCutShortBesideItsNoteNamesTheFullDiskNotACopy) {
    cs::test::TempDir dir;
    const std::string path = dir.file("cut.cstrace");
    std::filesystem::copy_file(kDemo, path);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 16384);  // one page short
    auto copy = runCli({"info", path});
    EXPECT_EQ(copy.status, 2);
    EXPECT_NE(copy.err.find("cut short, e.g. by an interrupted copy"), std::string::npos) << copy.err;

    ASSERT_TRUE(cs::trace::saveWriteNote(path, fullDiskNote(path)));
    for (std::vector<std::string> args : {std::vector<std::string>{"info", path}, {"findings", path}, {"check", path},
                                           {"report", path, "-o", dir.file("r.html")}}) {
        const std::string& verb = args[0];
        auto r = runCli(args);
        EXPECT_EQ(r.status, 2) << verb;
        EXPECT_NE(r.err.find(path + ": truncated at byte"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("the disk was full while recording (cannot commit: database or disk is full; what it "
                             "could not store is counted in " + path + ".note)"),
                  std::string::npos)
            << verb << ": " << r.err;
        EXPECT_EQ(r.err.find("interrupted copy"), std::string::npos) << r.err;
    }
}

TEST(WriteFailureOnReading, AnUnfinishedRecordingBesideItsNoteNamesTheCauseAndCountsTheNote) {
    cs::test::TempDir dir;
    const std::string path = unfinishedRecording(dir);
    ASSERT_TRUE(cs::trace::saveWriteNote(path, fullDiskNote(path)));
    auto r = runCli({"info", path});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(path + ": not sealed: it has room for page checksums but none were written: the disk was "
                         "full while recording (cannot commit: database or disk is full;"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("killed, or its disk full"), std::string::npos) << r.err;  // the cause, not a guess
    // A limit on the file's size reads as an I/O error to SQLite: said as one cause or the other.
    ASSERT_TRUE(cs::trace::saveWriteNote(path, {path + ": cannot commit: disk I/O error", {{"spans", 1}}, 0, 0, false}));
    EXPECT_NE(runCli({"info", path}).err.find("the disk was full, or a file size limit reached, while recording (cannot "
                                              "commit: disk I/O error;"),
              std::string::npos);
    // Read as its user trusts it, the note's counts are the trace's losses.
    ASSERT_TRUE(cs::trace::saveWriteNote(path, fullDiskNote(path)));
    int rows = 0;
    EXPECT_EQ(statsNamed(path, "dropped_write_failed", &rows), 1234);
    EXPECT_EQ(statsNamed(path, "dropped_no_recorder", &rows), 567);
    auto trusted = runCli({"--trust-unsealed", "info", path});
    EXPECT_EQ(trusted.status, 0) << trusted.err;
    EXPECT_NE(trusted.out.find("dropped_write_failed"), std::string::npos) << trusted.out;
    EXPECT_EQ(trusted.out.find("nothing dropped"), std::string::npos) << trusted.out;
}

TEST(WriteFailureOnReading, CountsStoredInTheTraceAreReadFromItOnceAndTravelWithoutTheNote) {
    cs::test::TempDir dir;
    const std::string path = unfinishedRecording(dir);
    cs::trace::WriteNote note = fullDiskNote(path);
    ASSERT_EQ(cs::trace::storeWriteNoteStats(path, note), "");
    note.storedInTrace = true;
    ASSERT_TRUE(cs::trace::saveWriteNote(path, note));
    int rows = 0;
    EXPECT_EQ(statsNamed(path, "dropped_write_failed", &rows), 1234);  // not twice: the note says they are stored
    EXPECT_EQ(rows, 1);
    EXPECT_EQ(statsNamed(path, "dropped_no_recorder", &rows), 567);
    EXPECT_EQ(rows, 1);
    // The trace alone (copied without its note) still holds the counts, with the system's reason.
    std::filesystem::remove(cs::trace::writeNotePath(path));
    EXPECT_EQ(statsNamed(path, "dropped_write_failed", &rows), 1234);
    auto trusted = runCli({"--trust-unsealed", "info", path});
    EXPECT_NE(trusted.out.find("database or disk is full: spans"), std::string::npos) << trusted.out;
}

TEST(WriteFailureOnReading, ATraceThatTakesNoWriteIsLeftAsItWas) {
    cs::test::TempDir dir;
    const std::string path = unfinishedRecording(dir);
    {
        // Another writer holds the trace: the counts cannot go in, and nothing goes in half.
        sqlite3* other = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &other), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
        const std::string why = cs::trace::storeWriteNoteStats(path, fullDiskNote(path));
        EXPECT_NE(why.find("locked"), std::string::npos) << why;
        sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(other);
    }
    int rows = 0;
    EXPECT_EQ(statsNamed(path, "dropped_write_failed", &rows), 0);
    EXPECT_EQ(rows, 0);
}
