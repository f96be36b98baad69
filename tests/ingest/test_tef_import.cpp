// Trace Event Format import: files the installed nvcc, NVRTC and clang write themselves, a generic
// chrome trace with every phase the importer maps, and malformed variants counted in `stats`.
// Expected numbers for the real files come from parsing the same file with the DOM parser, an
// independent path through the JSON, so the tests hold for any CUDA / clang version.
#include "cli_process.h"
#include "core/ingest/tef/tef_importer.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "core/util/json_reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>

using cs::test::process::runCli;
using cs::test::scalar;
using cs::test::text;

namespace {
std::int64_t malformedCount(const cs::trace::TraceReader& r) {
    auto n = scalar(r, "SELECT count FROM stats WHERE name='malformed_record' AND source='tef'");
    return n < 0 ? 0 : n;
}

// What the DOM parser sees in a TEF file: complete events and one sample event to check.
struct Expected {
    std::int64_t completeEvents = 0;
    std::int64_t totals = 0;       // clang's "Total <name>" X events (args.count): phase totals, not spans
    std::int64_t originNs = 0;     // clang's beginningOfTime, ns
    cs::util::JsonValue sample;  // the longest X event that is a span
};

Expected expectFrom(const std::string& path) {
    std::string json = cs::test::readFile(path);
    auto doc = cs::util::parseJson(json);
    Expected e;
    const auto* events = doc.isArray() ? &doc : doc.get("traceEvents");
    if (const auto* bot = doc.isObject() ? doc.get("beginningOfTime") : nullptr) e.originNs = std::llround(bot->num) * 1000;
    double longest = -1;
    for (const auto& ev : events->items) {
        const auto* ph = ev.get("ph");
        if (!ph || ph->str != "X") continue;
        ++e.completeEvents;
        const auto* args = ev.get("args");
        if (ev.get("name")->str.starts_with("Total ") && args && args->get("count")) {
            ++e.totals;
            continue;
        }
        if (ev.get("dur")->num > longest) {
            longest = ev.get("dur")->num;
            e.sample = ev;
        }
    }
    return e;
}

struct Imported {
    std::unique_ptr<cs::trace::TraceReader> reader;
    cs::test::process::CliResult cli;
};

Imported import(const cs::test::TempDir& dir, const std::string& in, const std::string& name = "t.cstrace") {
    auto out = dir.file(name);
    auto res = runCli({"import", in, "-o", out});
    EXPECT_EQ(res.status, 0) << res.err;
    if (res.status != 0) return {nullptr, res};
    return {cs::trace::TraceReader::open(out), res};
}

// The span of the sample event must carry its name, start and duration converted from µs to ns.
void expectSampleSpan(const cs::trace::TraceReader& r, const cs::util::JsonValue& ev, std::int64_t originNs = 0) {
    auto start = originNs + std::llround(ev.get("ts")->num * 1000), dur = std::llround(ev.get("dur")->num * 1000);
    auto sql = "SELECT count(*) FROM spans sp JOIN strings s ON s.id=sp.name_sid WHERE s.str='" + ev.get("name")->str +
               "' AND sp.start_ns=" + std::to_string(start) + " AND sp.dur_ns=" + std::to_string(dur);
    EXPECT_GE(scalar(r, sql), 1) << sql;
}
}  // namespace

TEST(TefImport, RealNvccDeviceTimeTrace) {
    const char* nvcc = "/usr/local/cuda/bin/nvcc";
    if (!std::filesystem::exists(nvcc)) GTEST_SKIP() << "nvcc not installed at " << nvcc << "; real-output check skipped";
    cs::test::TempDir dir;
    cs::test::writeFile(dir.file("k.cu"), "__global__ void add(float* a, const float* b, int n) {\n"
                                          "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += b[i]; }\n");
    std::string cmd = std::string(nvcc) + " -c -arch=sm_90 -fdevice-time-trace " + dir.file("k.trace") + " -o " +
                      dir.file("k.o") + " " + dir.file("k.cu") + " > " + dir.file("nvcc.log") + " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cs::test::readFile(dir.file("nvcc.log"));
    auto file = dir.file("k.trace.json");  // nvcc appends .json
    ASSERT_TRUE(std::filesystem::exists(file));
    auto head = cs::test::readFile(file).substr(0, 400);
    ASSERT_NE(head.find("\"traceEvents\" : [ {}"), std::string::npos) << "nvcc no longer writes a leading {}: " << head;

    auto expected = expectFrom(file);
    auto [r, cli] = import(dir, file);
    ASSERT_TRUE(r);
    EXPECT_NE(cli.out.find("tef, " + std::to_string(expected.completeEvents) + " records"), std::string::npos) << cli.out;
    EXPECT_EQ(r->rowCount("stats"), 0) << "the leading {} must not count as malformed";
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans"), expected.completeEvents);
    // Every nvcc event is a compiler phase (otherData.isNVRTC marks the file).
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans WHERE category=11"), expected.completeEvents);
    expectSampleSpan(*r, expected.sample);
    // Tracks take their names from the M events, which nvcc writes after the events of each tool.
    for (const char* tool : {"cicc", "ptxas", "cudafe++"})
        EXPECT_EQ(scalar(*r, std::string("SELECT count(*) FROM tracks t JOIN strings s ON s.id=t.name_sid WHERE t.kind=4 "
                                         "AND s.str='") + tool + "'"),
                  1)
            << tool;
    auto ptxasThread = text(*r, "SELECT s.str FROM tracks t JOIN strings s ON s.id=t.name_sid JOIN tracks p ON "
                                "p.id=t.parent_track_id JOIN strings ps ON ps.id=p.name_sid WHERE ps.str='ptxas'");
    EXPECT_TRUE(ptxasThread.ends_with("k.cu [sm_90]")) << ptxasThread;
    // args.detail of cicc's OptFunction names the mangled kernel; it is the span's detail column.
    EXPECT_GE(scalar(*r, "SELECT count(*) FROM spans s JOIN strings d ON d.id=s.detail_sid WHERE d.str='_Z3addPfPKfi'"),
              1);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM span_args a JOIN strings k ON k.id=a.key_sid WHERE k.str='detail'"), 0);
}

TEST(TefImport, RealNvrtcDeviceTimeTrace) {
#ifndef COMPILESCOPE_NVRTC_DEMO
    GTEST_SKIP() << "NVRTC / nvJitLink not found at configure time; the NVRTC trace check is skipped";
#else
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "sanitizer build: the instrumented NVRTC demo cannot load the CUDA libraries; tested in the dev build";
#endif
    cs::test::TempDir dir;
    auto requested = dir.file("warp_demo_compile-time-trace.json");
    std::string cmd = std::string(COMPILESCOPE_NVRTC_DEMO) + " --time-trace " + requested + " > " + dir.file("demo.log") + " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cs::test::readFile(dir.file("demo.log"));
    // NVRTC appends ".json" to the name it is given (docs/formats.md 2.2 / 5.3), so Warp's file is doubled.
    auto file = requested + ".json";
    ASSERT_TRUE(std::filesystem::exists(file)) << "NVRTC no longer doubles .json; check docs/formats.md 5.3";
    auto head = cs::test::readFile(file).substr(0, 300);
    ASSERT_NE(head.find("\"isNVRTC\": 1"), std::string::npos) << head;

    auto expected = expectFrom(file);
    ASSERT_GT(expected.completeEvents, 0);
    auto [r, cli] = import(dir, file);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->rowCount("stats"), 0);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans WHERE category=11"), expected.completeEvents);
    expectSampleSpan(*r, expected.sample);
#endif
}

TEST(TefImport, RealClangTimeTrace) {
    const char* clang = "/usr/bin/clang++";
    if (!std::filesystem::exists(clang)) GTEST_SKIP() << "clang++ not installed at " << clang << "; -ftime-trace check skipped";
    cs::test::TempDir dir;
    cs::test::writeFile(dir.file("c.cpp"), "#include <vector>\nint main() { std::vector<int> v(3); return (int)v.size(); }\n");
    std::string cmd = std::string(clang) + " -ftime-trace -c " + dir.file("c.cpp") + " -o " + dir.file("c.o") + " > " +
                      dir.file("clang.log") + " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cs::test::readFile(dir.file("clang.log"));
    auto file = dir.file("c.json");  // clang names it after the object file
    ASSERT_TRUE(std::filesystem::exists(file));
    auto expected = expectFrom(file);
    auto [r, cli] = import(dir, file);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->rowCount("stats"), 0);
    ASSERT_GT(expected.totals, 0) << "clang no longer writes its Total events";
    ASSERT_GT(expected.originNs, 0) << "clang no longer writes beginningOfTime";
    // Every event is a span at beginningOfTime + ts, but clang's "Total ..." summaries, which are
    // per-file phase totals (docs/builds.md).
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans"), expected.completeEvents - expected.totals);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM phase_timings WHERE tool=3 AND start_ns IS NULL"), expected.totals);
    expectSampleSpan(*r, expected.sample, expected.originNs);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans WHERE category<>11"), 0) << "every clang event is a compiler phase";
    EXPECT_GE(scalar(*r, "SELECT count(*) FROM spans sp JOIN strings s ON s.id=sp.name_sid WHERE s.str='Frontend'"), 1);
}

TEST(TefImport, GenericChromeTraceAllMappedPhases) {
    cs::test::TempDir dir;
    auto in = dir.file("chrome.json");
    // A bare array without its closing bracket: the spec allows it for traces cut by a crash.
    cs::test::writeFile(in, R"([
{"name":"process_name","ph":"M","pid":1,"args":{"name":"runtime"}},
{"name":"step","cat":"step","ph":"B","pid":1,"tid":7,"ts":1000.5,"args":{"n":1}},
{"name":"compile","cat":"jit,compile","ph":"B","pid":1,"tid":7,"ts":1100},
{"name":"go","cat":"q","ph":"s","id":"0x1","pid":1,"tid":7,"ts":1150},
{"ph":"E","pid":1,"tid":7,"ts":1400,"args":{"hit":false,"sizes":[3,4],"opt":{"level":2}}},
{"name":"launch","cat":"kernel","ph":"X","pid":1,"tid":8,"ts":1500,"dur":20,"bind_id":"k1","flow_out":true},
{"name":"go","cat":"q","ph":"f","bp":"e","id":"0x1","pid":1,"tid":8,"ts":1510},
{"name":"after","ph":"X","pid":1,"tid":9,"ts":1600,"dur":5,"bind_id":"k1","flow_in":true},
{"ph":"E","pid":1,"tid":7,"ts":2000},
{"name":"mark","ph":"i","s":"g","pid":1,"tid":7,"ts":2100},
{"name":"mem","ph":"C","pid":1,"ts":2200,"args":{"bytes":4096,"ratio":0.5}},
{"name":"thread_name","ph":"M","pid":1,"tid":7,"args":{"name":"main thread"}},
{"name":"req","cat":"net","ph":"b","id":5,"pid":1,"ts":3000},
{"name":"req","cat":"net","ph":"e","id":5,"pid":1,"ts":3500},
{"name":"open","ph":"B","pid":2,"tid":1,"ts":10},
{"name":"snap","ph":"O","id":"0x9","pid":1,"ts":4000},
)");
    auto [r, cli] = import(dir, in);
    ASSERT_TRUE(r);
    EXPECT_EQ(malformedCount(*r), 0) << cli.out;
    // step: 1000.5 µs .. 2000 µs; compile nested inside it; fractional µs survive as ns.
    EXPECT_EQ(scalar(*r, "SELECT start_ns FROM spans sp JOIN strings s ON s.id=sp.name_sid WHERE s.str='step'"), 1000500);
    EXPECT_EQ(scalar(*r, "SELECT dur_ns FROM spans sp JOIN strings s ON s.id=sp.name_sid WHERE s.str='step'"), 999500);
    EXPECT_EQ(scalar(*r, "SELECT category FROM spans sp JOIN strings s ON s.id=sp.name_sid WHERE s.str='compile'"),
              CS_CAT_COMPILE);
    EXPECT_EQ(scalar(*r, "SELECT category FROM spans sp JOIN strings s ON s.id=sp.name_sid WHERE s.str='launch'"),
              CS_CAT_LAUNCH);
    // E's args are merged into the B slice, nested values flattened.
    for (const char* key : {"hit", "sizes[1]", "opt.level", "cat"})
        EXPECT_EQ(scalar(*r, std::string("SELECT count(*) FROM span_args a JOIN strings k ON k.id=a.key_sid JOIN spans sp "
                                         "ON sp.id=a.span_id JOIN strings n ON n.id=sp.name_sid WHERE n.str='compile' AND "
                                         "k.str='") + key + "'"),
                  1)
            << key;
    // The thread name came after the thread's events; the process name before.
    EXPECT_EQ(text(*r, "SELECT s.str FROM tracks t JOIN strings s ON s.id=t.name_sid WHERE t.tid=7 AND t.kind=0"),
              "main thread");
    EXPECT_EQ(text(*r, "SELECT s.str FROM tracks t JOIN strings s ON s.id=t.name_sid WHERE t.kind=4 AND t.tid=1"), "runtime");
    // Flows: old style s (inside the open compile slice) -> f bound to the enclosing launch slice,
    // and new style bind_id from launch to after.
    EXPECT_EQ(r->rowCount("flows"), 2);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM flows f JOIN spans a ON a.id=f.from_span_id JOIN strings an ON "
                         "an.id=a.name_sid JOIN spans b ON b.id=f.to_span_id JOIN strings bn ON bn.id=b.name_sid WHERE "
                         "an.str='compile' AND bn.str='launch'"),
              1);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM flows f JOIN spans a ON a.id=f.from_span_id JOIN strings an ON "
                         "an.id=a.name_sid JOIN spans b ON b.id=f.to_span_id JOIN strings bn ON bn.id=b.name_sid WHERE "
                         "an.str='launch' AND bn.str='after'"),
              1);
    // Instant: zero length with its scope; counter: one row per series, the fraction rounded and counted.
    EXPECT_EQ(scalar(*r, "SELECT dur_ns FROM spans sp JOIN strings s ON s.id=sp.name_sid WHERE s.str='mark'"), 0);
    EXPECT_EQ(scalar(*r, "SELECT value FROM counters c JOIN strings s ON s.id=c.name_sid WHERE s.str='bytes'"), 4096);
    EXPECT_EQ(r->rowCount("counters"), 2);
    EXPECT_EQ(scalar(*r, "SELECT count FROM stats WHERE name='rounded_counter_value'"), 1);
    // Async b/e pair into one slice on an async lane.
    EXPECT_EQ(scalar(*r, "SELECT dur_ns FROM spans sp JOIN strings s ON s.id=sp.name_sid WHERE s.str='req'"), 500000);
    // The B never ended stays, with NULL duration, and is counted; the object event is counted as skipped.
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans sp JOIN strings s ON s.id=sp.name_sid WHERE s.str='open' AND "
                         "dur_ns IS NULL"),
              1);
    EXPECT_EQ(scalar(*r, "SELECT count FROM stats WHERE name='unfinished_slice'"), 1);
    EXPECT_EQ(scalar(*r, "SELECT count FROM stats WHERE name='skipped_event'"), 1);
}

TEST(TefImport, MalformedEventsAreCountedAndTheRestKept) {
    cs::test::TempDir dir;
    auto in = dir.file("bad.json");
    cs::test::writeFile(in, R"({"traceEvents":[
{"name":"ok1","ph":"X","pid":1,"tid":1,"ts":10,"dur":5},
{"name":"badts","ph":"X","pid":1,"tid":1,"ts":"soon","dur":5},
{"name":"badph","ph":5,"pid":1,"tid":1,"ts":10},
{"name":"badpid","ph":"X","pid":{"a":1},"tid":1,"ts":10,"dur":1},
{"name":"noph","pid":1,"tid":1,"ts":10},
{"name":"weird","ph":"Q","pid":1,"tid":1,"ts":10},
{"name":"nodur","ph":"X","pid":1,"tid":1,"ts":10},
{"name":"negdur","ph":"X","pid":1,"tid":1,"ts":10,"dur":-3},
{"ph":"E","pid":1,"tid":1,"ts":11},
{"name":"stepflow","ph":"t","id":9,"pid":1,"tid":1,"ts":12},
{"name":"args","ph":"X","pid":1,"tid":1,"ts":10,"dur":1,"args":[1,2]},
42,
{"name":"ok2","ph":"X","pid":1,"tid":1,"ts":20,"dur":5}
],"displayTimeUnit":"ns"})");
    auto [r, cli] = import(dir, in);
    ASSERT_TRUE(r);
    EXPECT_NE(cli.out.find("2 records, 11 malformed"), std::string::npos) << cli.out;
    EXPECT_EQ(malformedCount(*r), 11);
    EXPECT_EQ(r->rowCount("spans"), 2);
    auto info = runCli({"info", r->path()});
    EXPECT_NE(info.out.find("bad.json event 1: \"ts\" is not a number"), std::string::npos) << info.out;
}

TEST(TefImport, UnknownPhaseNamedInStats) {
    cs::test::TempDir dir;
    auto in = dir.file("q.json");
    cs::test::writeFile(in, R"([{"name":"weird","ph":"Q","pid":1,"tid":1,"ts":10}])");
    auto [r, cli] = import(dir, in);
    ASSERT_TRUE(r);
    EXPECT_EQ(malformedCount(*r), 1);
    EXPECT_EQ(text(*r, "SELECT detail FROM stats WHERE name='malformed_record'"), "q.json event 0: unknown phase \"Q\"");
}

TEST(TefImport, TruncatedFileKeepsWhatCameBeforeTheCut) {
    cs::test::TempDir dir;
    std::string events;
    for (int i = 0; i < 100; ++i)
        events += std::string(i ? "," : "") + R"({"name":"e)" + std::to_string(i) + R"(","ph":"X","pid":1,"tid":1,"ts":)" +
                  std::to_string(i * 10) + R"(,"dur":5,"args":{"detail":"some detail text"}})";
    std::string whole = R"({"traceEvents":[)" + events + "]}";
    // Cut in the middle of event 50's args.
    auto cut = whole.find("\"e50\"") + 40;
    auto in = dir.file("cut.json");
    cs::test::writeFile(in, whole.substr(0, cut));
    auto [r, cli] = import(dir, in);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->rowCount("spans"), 50);
    EXPECT_EQ(malformedCount(*r), 1);
    auto detail = text(*r, "SELECT detail FROM stats WHERE name='malformed_record'");
    EXPECT_NE(detail.find("cut.json byte "), std::string::npos) << detail;
    EXPECT_NE(detail.find("truncated"), std::string::npos) << detail;
}

TEST(TefImport, NotAnEventContainerIsOneMalformedRecord) {
    cs::test::TempDir dir;
    auto in = dir.file("obj.json");
    cs::test::writeFile(in, R"({"traceEvents": {"ph":"X"}})");
    auto [r, cli] = import(dir, in);
    ASSERT_TRUE(r);
    EXPECT_EQ(malformedCount(*r), 2);  // traceEvents not an array, and no events array at all
    EXPECT_EQ(r->rowCount("spans"), 0);
}

TEST(TefImport, SniffsContainersButNotOtherJson) {
    cs::test::TempDir dir;
    auto other = dir.file("config.json");
    cs::test::writeFile(other, R"({"name": "not a trace", "ph": "X"})");
    auto res = runCli({"import", other, "-o", dir.file("x.cstrace")});
    EXPECT_NE(res.status, 0);
    EXPECT_NE(res.err.find("unknown format"), std::string::npos) << res.err;
}

TEST(TefImport, LargeFileNumbersAcrossReadBuffers) {
    // Several 64 KiB read buffers' worth of events, so numbers and strings straddle buffer edges.
    cs::test::TempDir dir;
    std::string json = "[";
    std::int64_t expectedDur = 0;
    for (int i = 0; i < 6000; ++i) {
        std::int64_t dur = 1000 + i * 7;
        expectedDur += dur * 1000;
        json += std::string(i ? ",\n" : "") + R"({"name":"n)" + std::to_string(i % 13) + R"(","ph":"X","pid":1,"tid":)" +
                std::to_string(i % 3) + R"(,"ts":)" + std::to_string(123456789 + i * 10) + R"(.25,"dur":)" +
                std::to_string(dur) + R"(,"args":{"detail":"some/longer/path/to/a/header_)" + std::to_string(i) + R"(.h"}})";
    }
    json += "]";
    ASSERT_GT(json.size(), 4u * 65536);
    auto in = dir.file("big.json");
    cs::test::writeFile(in, json);
    auto [r, cli] = import(dir, in);
    ASSERT_TRUE(r);
    EXPECT_EQ(malformedCount(*r), 0);
    EXPECT_EQ(r->rowCount("spans"), 6000);
    EXPECT_EQ(scalar(*r, "SELECT sum(dur_ns) FROM spans"), expectedDur);
    EXPECT_EQ(scalar(*r, "SELECT max(start_ns) FROM spans"), (123456789 + 5999 * 10) * 1000LL + 250);
    EXPECT_EQ(scalar(*r, "SELECT count(DISTINCT d.str) FROM spans s JOIN strings d ON d.id = s.detail_sid "
                         "WHERE d.str LIKE 'some/longer/path/to/a/header_%.h'"),
              6000);
}

TEST(TefImport, CorruptedVariantsNeverThrowAndAreCounted) {
    // Deterministic fuzzing: a valid trace with every mapped phase, cut, overwritten and spliced at
    // random places. Every variant must import without an exception, and every malformed record the
    // importer reports must be in the trace's stats.
    const std::string valid = R"({"otherData":{"isNVRTC":1},"traceEvents":[{},
{"name":"process_name","ph":"M","pid":1,"args":{"name":"cicc"}},
{"name":"a","cat":"compile","ph":"B","pid":1,"tid":2,"ts":10.5,"args":{"k":[1,{"x":"y"}]}},
{"name":"f","cat":"q","ph":"s","id":7,"pid":1,"tid":2,"ts":11},
{"ph":"E","pid":1,"tid":2,"ts":20,"args":{"v":2.5e3}},
{"name":"x","ph":"X","pid":1,"tid":3,"ts":21,"dur":4,"bind_id":"b","flow_out":true},
{"name":"f","cat":"q","ph":"f","bp":"e","id":7,"pid":1,"tid":3,"ts":22},
{"name":"c","ph":"C","pid":1,"ts":30,"args":{"n":5}},
{"name":"i","ph":"i","s":"p","pid":1,"tid":2,"ts":31},
{"name":"r","cat":"n","ph":"b","id":"0x1","pid":1,"ts":40},{"name":"r","cat":"n","ph":"e","id":"0x1","pid":1,"ts":45},
{"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"k.cu [compute_90]"}}]})";
    const std::string alphabet = "{}[]\",:.-0123456789eEabXBEph \n\\u\x01\xff";
    std::mt19937 rng(20261129);
    cs::test::TempDir dir;
    cs::ingest::TefImporter importer;
    for (int i = 0; i < 80; ++i) {
        std::string s = valid;
        int kind = i % 4;
        size_t pos = rng() % s.size();
        if (kind == 0) s.resize(pos);
        else if (kind == 1) s[pos] = alphabet[rng() % alphabet.size()];
        else if (kind == 2) s.erase(pos, 1 + rng() % 40);
        else s.insert(pos, s.substr(rng() % s.size(), 1 + rng() % 60));
        auto out = dir.file("f" + std::to_string(i) + ".cstrace");
        cs::ingest::ImportSummary summary;
        {
            cs::trace::TraceWriter w(out, {.bulkImport = true});
            auto session = w.addSession({.startNs = 0});
            std::istringstream in(s);
            cs::ingest::ImportContext ctx{w, session, "fuzz.json"};
            ASSERT_NO_THROW(summary = importer.run(in, ctx)) << "variant " << i << ":\n" << s;
            w.finalize();
        }
        auto r = cs::trace::TraceReader::open(out);
        auto counted = malformedCount(*r);
        EXPECT_EQ(counted, summary.malformed) << "variant " << i << ":\n" << s;
        EXPECT_EQ(r->integrityCheck(), "ok");
        std::filesystem::remove(out);
    }
}

TEST(TefImport, FlowEndBeforeItsStartAndAtASliceBoundaryBinds) {
    // Files written thread by thread put a flow's "f" before its "s"; viewers sort by time and link
    // them anyway. At a boundary ([0, 10] then [10, 20]) a flow event at 10 belongs to the slice
    // still open there, as in Perfetto.
    cs::test::TempDir dir;
    auto in = dir.file("order.json");
    cs::test::writeFile(in, R"([
{"name":"target","ph":"X","pid":1,"tid":2,"ts":30,"dur":5},
{"name":"go","cat":"q","ph":"f","bp":"e","id":1,"pid":1,"tid":2,"ts":30},
{"name":"before","ph":"X","pid":1,"tid":1,"ts":0,"dur":10},
{"name":"source","ph":"X","pid":1,"tid":1,"ts":10,"dur":10},
{"name":"go","cat":"q","ph":"s","id":1,"pid":1,"tid":1,"ts":10}])");
    auto [r, cli] = import(dir, in);
    ASSERT_TRUE(r);
    EXPECT_EQ(malformedCount(*r), 0);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM stats WHERE name = 'unbound_flow'"), 0);
    EXPECT_EQ(text(*r, "SELECT a.str || '>' || b.str FROM flows f JOIN spans x ON x.id = f.from_span_id "
                       "JOIN strings a ON a.id = x.name_sid JOIN spans y ON y.id = f.to_span_id "
                       "JOIN strings b ON b.id = y.name_sid"),
              "source>target");
}
