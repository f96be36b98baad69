// `compilescope export --format jsonl` (docs/fleet.md): one file per table, every line a JSON object
// that our own reader parses, `trace_id` first and then the schema's columns in order, as many rows
// as the table holds; hostile text (NUL, control characters, bytes that are not UTF-8) and every
// storage class stay valid JSON; the trace id is the stored one or a stable derived one; the files
// are replaced only when all are written, and an unwritable folder is named.
#include "cli_process.h"
#include "core/engine/export/jsonl_export.h"
#include "core/trace/page_seal.h"
#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/trace/writer.h"
#include "core/util/json_reader.h"
#include "demo_trace_builder.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using cs::test::process::runCli;
using cs::util::JsonValue;
namespace fs = std::filesystem;

namespace {

std::vector<JsonValue> rowsOf(const fs::path& file) {
    std::vector<JsonValue> rows;
    std::ifstream in(file, std::ios::binary);
    for (std::string line; std::getline(in, line);) rows.push_back(cs::util::parseJson(line));
    return rows;
}

// A span whose name, detail and args hold what a hostile or broken runtime might send.
void writeHostileTrace(const std::string& path) {
    using namespace cs::trace;
    {
        TraceWriter w(path, {.overwrite = true});
        auto ses = w.addSession({.pid = 1, .cmdline = w.intern(std::string("run \0 nul", 9)), .runtime = w.intern("x")});
        auto track = w.addTrack({.sessionId = ses, .kind = CS_TRACK_THREAD, .tid = 1});
        auto span = w.addSpan({.trackId = track, .startNs = 1, .durNs = 2, .category = CS_CAT_COMPILE,
                               .name = w.intern("bad \xc3\x28 \xff end"), .detail = w.intern("tab\there \"q\" \x01 \xe2\x80\xa8 </script>")});
        w.addSpanArg(span, w.intern("int"), std::int64_t{-9'000'000'000'000'000'000});
        w.addSpanArg(span, w.intern("real"), 2.5);
        w.addSpanArg(span, w.intern("text"), std::string_view("\xf0\x9f\x98\x80 ok"));
        w.finalize();
    }
    // A BLOB, which no writer of ours stores but a file from elsewhere may hold (type ANY).
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "INSERT INTO span_args VALUES (1, 1, x'00ff10')", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    ASSERT_TRUE(cs::trace::sealPages(path));  // hostile yet sealed: the export, not the seal, is under test
}

// The string column `column` of every row of `table` whose `where` column equals `id`.
std::string field(const fs::path& dir, const std::string& table, const std::string& key, std::int64_t id,
                  const std::string& column) {
    for (const auto& row : rowsOf(dir / (table + ".jsonl")))
        if (row.get(key) && row.get(key)->str == std::to_string(id)) return row.get(column)->str;
    return "<no row>";
}

}  // namespace

TEST(ExportJsonl, EveryTableAsJsonLinesWithTheTraceIdAndTheSchemasColumns) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("demo.cstrace");
    cs::test::demo::writeDemoTrace(trace);
    auto r = runCli({"export", "--format", "jsonl", trace, "-o", dir.file("out")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("wrote 27 files to"), std::string::npos) << r.out;
    auto reader = cs::trace::TraceReader::open(trace);
    const std::string id = cs::engine::traceId(*reader);
    EXPECT_EQ(id.size(), 32u);
    for (const auto& table : cs::trace::schemaTables()) {
        SCOPED_TRACE(std::string(table.name));
        const auto rows = rowsOf(dir.path() / "out" / (std::string(table.name) + ".jsonl"));
        EXPECT_EQ(static_cast<std::int64_t>(rows.size()), reader->rowCount(table.name));
        for (const auto& row : rows) {
            ASSERT_EQ(row.members.size(), table.columns.size() + 1);
            EXPECT_EQ(row.members[0].first, "trace_id");
            EXPECT_EQ(row.members[0].second.str, id);
            for (size_t c = 0; c < table.columns.size(); ++c) EXPECT_EQ(row.members[c + 1].first, table.columns[c].name);
        }
    }
    const auto traces = rowsOf(dir.path() / "out" / "traces.jsonl");
    ASSERT_EQ(traces.size(), 1u);
    EXPECT_EQ(traces[0].get("trace_id")->str, id);
    EXPECT_EQ(traces[0].get("created_unix_ns")->str, reader->meta("created_unix_ns"));
    EXPECT_EQ(traces[0].get("file")->str, "demo.cstrace");
    // Times stay integer nanoseconds: the demo's miss at 6.2 s compiled for 1 s.
    EXPECT_EQ(field(dir.path() / "out", "cache_lookups", "id", 6, "ts_ns"), "6200000000");
    EXPECT_EQ(field(dir.path() / "out", "cache_lookups", "id", 6, "compile_ns"), "1000000000");
    EXPECT_FALSE(fs::exists(dir.path() / "out" / "spans.jsonl.tmp"));
}

TEST(ExportJsonl, HostileTextAndEveryStorageClassStayValidJson) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("hostile.cstrace");
    writeHostileTrace(trace);
    auto r = runCli({"export", "--format", "jsonl", trace, "-o", dir.file("out")});
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> texts;
    for (const auto& row : rowsOf(dir.path() / "out" / "strings.jsonl")) texts.push_back(row.get("str")->str);
    auto has = [&](const std::string& s) { return std::find(texts.begin(), texts.end(), s) != texts.end(); };
    EXPECT_TRUE(has(std::string("run \0 nul", 9)));
    EXPECT_TRUE(has("bad \xef\xbf\xbd( \xef\xbf\xbd end"));  // each invalid byte is U+FFFD
    EXPECT_TRUE(has("tab\there \"q\" \x01 \xe2\x80\xa8 </script>"));
    const auto args = rowsOf(dir.path() / "out" / "span_args.jsonl");
    ASSERT_EQ(args.size(), 4u);
    EXPECT_EQ(args[0].get("value")->str, "-9000000000000000000");
    EXPECT_EQ(args[1].get("value")->num, 2.5);
    EXPECT_EQ(args[2].get("value")->str, "\xf0\x9f\x98\x80 ok");
    EXPECT_EQ(args[3].get("value")->str, "00ff10");  // a BLOB, in hexadecimal
    // The raw bytes: control characters escaped, nothing but ASCII and valid UTF-8 on a line.
    const std::string raw = cs::test::readFile(dir.file("out/strings.jsonl"));
    EXPECT_NE(raw.find("\\u0000"), std::string::npos);
    EXPECT_NE(raw.find("\\u0001"), std::string::npos);
    EXPECT_EQ(raw.find('\t'), std::string::npos);
}

TEST(ExportJsonl, TraceIdIsTheStoredOneOrStableFromTheMeta) {
    cs::test::TempDir dir;
    cs::test::demo::writeDemoTrace(dir.file("a.cstrace"));
    cs::test::demo::writeDemoTrace(dir.file("b.cstrace"));  // the same rows, created later
    fs::copy_file(dir.file("a.cstrace"), dir.file("copy.cstrace"));
    auto idOf = [&](const std::string& name) { return cs::engine::traceId(*cs::trace::TraceReader::open(dir.file(name))); };
    EXPECT_EQ(idOf("a.cstrace"), idOf("a.cstrace"));
    EXPECT_EQ(idOf("a.cstrace"), idOf("copy.cstrace"));
    EXPECT_NE(idOf("a.cstrace"), idOf("b.cstrace"));
    {
        cs::trace::TraceWriter w(dir.file("named.cstrace"), {.overwrite = true});
        w.setMeta("trace_id", "ci-run-4711");
        w.finalize();
    }
    EXPECT_EQ(idOf("named.cstrace"), "ci-run-4711");
}

TEST(ExportJsonl, FilesAreReplacedOnlyWhenAllAreWrittenAndAnUnwritableDirIsNamed) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("t.cstrace");
    cs::test::demo::writeDemoTrace(trace);
    const std::string out = dir.file("out");
    ASSERT_EQ(runCli({"export", "--format", "jsonl", trace, "-o", out}).status, 0);
    const std::string before = cs::test::readFile(out + "/cache_lookups.jsonl");
    ASSERT_FALSE(before.empty());
    // spans.jsonl cannot be written (its temporary name is taken by a folder): nothing is replaced.
    fs::create_directory(out + "/spans.jsonl.tmp");
    cs::test::writeFile(out + "/cache_lookups.jsonl", "previous\n");
    auto r = runCli({"export", "--format", "jsonl", trace, "-o", out});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("compilescope export: cannot write " + out + "/spans.jsonl"), std::string::npos) << r.err;
    EXPECT_EQ(cs::test::readFile(out + "/cache_lookups.jsonl"), "previous\n");
    for (const auto& f : fs::directory_iterator(out)) {
        if (f.path().extension() == ".tmp") {
            EXPECT_TRUE(f.is_directory()) << f.path() << " left behind";
        }
    }
    // A folder that cannot be made: below a regular file.
    r = runCli({"export", "--format", "jsonl", trace, "-o", trace + "/out"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("cannot write " + trace + "/out: Not a directory"), std::string::npos) << r.err;
}

TEST(ExportJsonl, UsageAndHelp) {
    cs::test::TempDir dir;
    cs::test::demo::writeDemoTrace(dir.file("t.cstrace"));
    auto r = runCli({"export", "--format", "jsonl", dir.file("t.cstrace")});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--format jsonl expects -o DIR"), std::string::npos) << r.err;
    r = runCli({"export", "--format", "csv", dir.file("t.cstrace"), "-o", dir.file("x")});
    EXPECT_NE(r.err.find("unknown format 'csv' (known: tef, jsonl)"), std::string::npos) << r.err;
    r = runCli({"export", "--help"});
    EXPECT_NE(r.out.find("--format jsonl  JSON lines, one file per table"), std::string::npos) << r.out;
}
