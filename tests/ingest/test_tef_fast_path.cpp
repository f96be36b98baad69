// The TEF import's fast path (simdjson over the whole file, tef_dom_reader.h) must write exactly the
// rows the streaming path writes: every table, every value, every stat and message, for every TEF
// input the tests hold, for those inputs cut short at many points, and for the corners where the two
// parsers could differ (ids written as -0 or 1.0, numbers past int64, a byte-order mark, deep nesting,
// escapes, bad UTF-8, trailing bytes). Where it cannot be exact it must decline, writing nothing.
#include "core/ingest/importer_registry.h"
#include "core/ingest/tef/tef_dom_reader.h"
#include "core/ingest/tef/tef_importer.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {
namespace fs = std::filesystem;
using cs::ingest::TefImporter;

struct Outcome {
    std::string rows;  // every row of every table but meta, in table and rowid order
    std::int64_t records = 0, malformed = 0, firstNs = 0, lastNs = 0, startNs = 0;
    std::string clock;
    bool fast = false;
};

std::string dumpRows(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    std::vector<std::string> tables;
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type='table' AND name != 'meta' ORDER BY name", -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW) tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    std::ostringstream out;
    for (const auto& t : tables) {
        sqlite3_prepare_v2(db, ("SELECT * FROM " + t + " ORDER BY rowid").c_str(), -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW) {
            out << t;
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                const auto type = sqlite3_column_type(st, c);
                out << '|';
                if (type == SQLITE_NULL) out << "NULL";
                else if (type == SQLITE_FLOAT) out << std::hexfloat << sqlite3_column_double(st, c) << std::defaultfloat;
                else out << reinterpret_cast<const char*>(sqlite3_column_text(st, c));
            }
            out << '\n';
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return out.str();
}

Outcome importWith(const std::string& input, TefImporter::Parser parser, const cs::test::TempDir& dir) {
    const std::string out = dir.file(parser == TefImporter::Parser::Auto ? "auto.cstrace" : "stream.cstrace");
    Outcome o;
    {
        cs::trace::TraceWriter w(out, {.overwrite = true, .bulkImport = true});
        auto session = w.addSession({.startNs = 0});
        std::ifstream in(input, std::ios::binary);
        cs::ingest::ImportContext ctx{w, session, "input.json"};
        auto s = TefImporter::import(in, ctx, parser, &o.fast);
        o.records = s.records;
        o.malformed = s.malformed;
        o.firstNs = s.firstNs;
        o.lastNs = s.lastNs;
        o.clock = s.clock;
        o.startNs = s.startNs;
        w.finalize();
    }
    o.rows = dumpRows(out);
    return o;
}

// Imports `input` both ways; returns whether the fast path read it.
bool expectSame(const std::string& input, const std::string& label) {
    cs::test::TempDir dir;
    const Outcome stream = importWith(input, TefImporter::Parser::StreamOnly, dir);
    const Outcome fast = importWith(input, TefImporter::Parser::Auto, dir);
    EXPECT_FALSE(stream.fast);
    EXPECT_EQ(fast.records, stream.records) << label;
    EXPECT_EQ(fast.malformed, stream.malformed) << label;
    EXPECT_EQ(fast.firstNs, stream.firstNs) << label;
    EXPECT_EQ(fast.lastNs, stream.lastNs) << label;
    EXPECT_EQ(fast.clock, stream.clock) << label;
    EXPECT_EQ(fast.startNs, stream.startNs) << label;
    EXPECT_EQ(fast.rows, stream.rows) << label << (fast.fast ? " (fast path)" : " (declined)");
    return fast.fast;
}

// The fuzzer's own finds are named by their hash.
bool fuzzerFind(const fs::path& p) {
    const std::string name = p.filename().string();
    return name.size() == 40 && name.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::vector<fs::path> tefInputs() {
    std::vector<fs::path> out;
    const auto& reg = cs::ingest::ImporterRegistry::builtin();
    for (const char* dir : {"tests/fuzz/corpus/tef", "tests/fuzz/regressions/tef", "tests/data"}) {
        const fs::path root = fs::path(COMPILESCOPE_SOURCE_DIR) / dir;
        if (!fs::exists(root)) continue;
        for (const auto& e : fs::recursive_directory_iterator(root)) {
            if (!e.is_regular_file()) continue;
            std::ifstream in(e.path(), std::ios::binary);
            std::string head(4096, '\0');
            in.read(head.data(), static_cast<std::streamsize>(head.size()));
            head.resize(static_cast<std::size_t>(in.gcount()));
            const auto* imp = reg.sniff(head, e.path().filename().string());
            if (std::string(dir).find("tef") != std::string::npos || (imp && imp->id() == "tef")) out.push_back(e.path());
        }
    }
    return out;
}

TEST(TefFastPath, WritesWhatTheStreamingPathWritesForEveryTefInput) {
    if (!cs::ingest::tefFastPathBuilt()) GTEST_SKIP() << "built without simdjson: every file streams, nothing to compare";
    const auto inputs = tefInputs();
    ASSERT_GE(inputs.size(), 8u);
    int fast = 0, named = 0;
    for (const auto& p : inputs) {
        const bool took = expectSame(p.string(), p.filename().string());
        fast += took;
        // The fuzzer's own finds (named by their hash) are mostly broken JSON, which streams; the inputs
        // written by hand or taken from real tools are whole documents, which the fast path must read.
        if (!fuzzerFind(p)) {
            ++named;
            EXPECT_TRUE(took) << p.filename().string() << ": a whole document the fast path declined";
        }
    }
    EXPECT_GE(named, 5);
    std::printf("%d of %zu TEF inputs read by the fast path, the rest streamed; rows identical\n", fast, inputs.size());
}

// A trace cut anywhere keeps what came before the cut: the fast path declines (the JSON is broken) and
// the streaming path reads the events before it; either way the rows are the streaming path's.
TEST(TefFastPath, ACutFileIsReadToItsCutAsTheStreamingPathReadsIt) {
    if (!cs::ingest::tefFastPathBuilt()) GTEST_SKIP() << "built without simdjson";
    cs::test::TempDir dir;
    for (const auto& p : tefInputs()) {
        if (fuzzerFind(p)) continue;  // mostly broken already; the whole inputs are the ones to cut
        std::ifstream in(p, std::ios::binary);
        std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (whole.size() > 20000) continue;
        const std::size_t step = std::max<std::size_t>(1, whole.size() / 23);
        for (std::size_t cut = 1; cut < whole.size(); cut += step) {
            const std::string file = dir.file("cut.json");
            cs::test::writeFile(file, whole.substr(0, cut));
            expectSame(file, p.filename().string() + " cut at " + std::to_string(cut));
        }
    }
}

TEST(TefFastPath, CornersWhereTheParsersCouldDiffer) {
    if (!cs::ingest::tefFastPathBuilt()) GTEST_SKIP() << "built without simdjson";
    const std::string x = R"({"ph":"X","ts":1,"dur":2,"pid":1,"tid":1,"name":"a")";
    std::string deep = "{";
    for (int i = 0; i < 505; ++i) deep += "\"k\":{";
    deep += "\"v\":1";
    for (int i = 0; i < 505; ++i) deep += "}";
    deep += "}";
    struct Case {
        const char* label;
        std::string json;
        bool fast;  // whether the fast path must take it
    };
    const std::vector<Case> cases = {
        {"flow ids as integers", R"({"traceEvents":[)" + x + R"(,"id":7,"bind_id":18446744073709551615}]})", true},
        {"flow id written -0", R"({"traceEvents":[)" + x + R"(,"bind_id":-0,"flow_out":true}]})", false},
        {"flow id written 1.0", R"({"traceEvents":[)" + x + R"(,"id":1.0}]})", false},
        {"flow id as an escaped key", R"({"traceEvents":[)" + x + R"(,"\u0069d":2.5}]})", false},
        {"integers past int64", R"({"traceEvents":[)" + x + R"(,"args":{"u":18446744073709551615,"n":-9223372036854775808}}]})", true},
        {"pid past int64", R"({"traceEvents":[{"ph":"X","ts":1,"dur":1,"pid":9223372036854775808,"tid":1,"name":"a"}]})", true},
        {"a number out of double's range", R"({"traceEvents":[)" + x + R"(,"args":{"big":1e400}}]})", false},
        {"a byte-order mark", "\xEF\xBB\xBF" R"({"traceEvents":[)" + x + "}]}", false},
        {"deeper than the stream reader allows", R"({"traceEvents":[)" + x + R"(,"args":)" + deep + "}]}", false},
        {"escapes and a surrogate pair", R"({"traceEvents":[{"ph":"X","ts":1,"dur":1,"pid":1,"tid":1,"name":"a\"b\\c\u00e9\ud83d\ude00\n"}]})", true},
        {"a lone surrogate", R"({"traceEvents":[{"ph":"X","ts":1,"dur":1,"pid":1,"tid":1,"name":"\ud800"}]})", false},
        {"bad UTF-8", "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"\xff\"}]}", false},
        {"a raw control character in a string", "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\tb\"}]}", false},
        {"bytes after the document", R"({"traceEvents":[]} x)", false},
        {"two documents", R"({"traceEvents":[]}{"traceEvents":[]})", false},
        {"wrong types everywhere", R"({"traceEvents":[{"ph":1,"ts":"1","dur":[],"pid":1.5,"tid":true,"name":{},"cat":2,"args":3,"flow_in":1,"s":4}]})", true},
        {"events that are not objects", R"({"traceEvents":[1,"a",[2],null,)" + x + "}]}", true},
        {"traceEvents twice, and not an array", R"({"traceEvents":[)" + x + R"(}],"traceEvents":[)" + x + R"(}],"traceEvents":5})", true},
        {"no traceEvents", R"({"displayTimeUnit":"ns"})", true},
        {"a bare array", "[" + x + "}," + x + "}]", true},
        {"a bare array cut", "[" + x + "}," + x + "}", false},
        {"neither array nor object", "42", true},
        {"beginningOfTime first", R"({"beginningOfTime":1700000000000000,"traceEvents":[)" + x + "}]}", true},
        {"beginningOfTime last, not at the end", R"({"traceEvents":[)" + x + R"(}],"beginningOfTime":1700000000000000,"x":1})", true},
        {"beginningOfTime not a number", R"({"beginningOfTime":"now","traceEvents":[)" + x + "}]}", true},
        {"nvcc's otherData", R"({"otherData":{"isNVRTC":true},"traceEvents":[{},)" + x + "}]}", true},
        {"args flattened, nulls and booleans", R"({"traceEvents":[)" + x + R"(,"args":{"a":{"b":[1,{"c":true},null]},"d":false}}]})", true},
        {"duplicate keys in an event", R"({"traceEvents":[{"ph":"B","ph":"X","ts":1,"ts":5,"dur":1,"pid":1,"tid":1,"name":"a"}]})", true},
        {"B and E pairs and instants", R"({"traceEvents":[{"ph":"B","ts":1,"pid":1,"tid":1,"name":"a"},{"ph":"i","s":"g","ts":2,"pid":1,"tid":1,"name":"m"},{"ph":"E","ts":3,"pid":1,"tid":1}]})", true},
        {"empty file", "", false},
    };
    cs::test::TempDir dir;
    for (const auto& c : cases) {
        const std::string file = dir.file("corner.json");
        cs::test::writeFile(file, c.json);
        EXPECT_EQ(expectSame(file, c.label), c.fast) << c.label;
    }
}

// Past kMaxFastFile the file streams (bounded memory), whatever it holds.
TEST(TefFastPath, AFileAboveTheLimitStreams) {
    if (!cs::ingest::tefFastPathBuilt()) GTEST_SKIP() << "built without simdjson";
    cs::test::TempDir dir;
    const std::string file = dir.file("big.json");
    {
        std::ofstream out(file, std::ios::binary);
        out << "{\"traceEvents\":[";
        std::uint64_t written = 0;
        for (int i = 0; written <= cs::ingest::kMaxFastFile; ++i) {
            std::string e = std::string(i ? "," : "") + "{\"ph\":\"X\",\"ts\":" + std::to_string(i) +
                            ",\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"n" + std::to_string(i % 100) + "\"}";
            out << e;
            written += e.size();
        }
        out << "]}";
    }
    EXPECT_FALSE(expectSame(file, "above the limit"));
}

}  // namespace
