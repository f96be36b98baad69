// `compilescope export --format tef` and back: exporting a trace and importing the JSON with the TEF
// importer gives the same spans (name, start, duration, category, detail, nesting depth, track name,
// args), the same flows, and instants for cache lookups and steps. The JSON is well formed by the
// project's own reader.
#include "cli_process.h"
#include "core/engine/accounting/session_clocks.h"
#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/writer.h"
#include "core/util/json_reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using cs::test::process::runCli;
using cs::test::scalar;

namespace {

// One span, as everything the round trip must keep. Start is relative to the first span of the
// trace (an import counts from its own zero; the export shifts sessions as the timeline does).
struct SpanKey {
    std::int64_t start = 0, dur = -1;  // -1: never ended
    std::string track, name, detail;
    int category = 0, depth = 0;
    std::vector<std::string> args;  // "key=type:value", sorted, without the "cat" arg
    auto tie() const { return std::tie(track, start, dur, name, detail, category, depth, args); }
    bool operator<(const SpanKey& o) const { return tie() < o.tie(); }
    bool operator==(const SpanKey& o) const { return tie() == o.tie(); }
};

std::ostream& operator<<(std::ostream& os, const SpanKey& k) {
    os << k.track << " @" << k.start << "+" << k.dur << " " << k.name << " [" << k.detail << "] cat=" << k.category
       << " depth=" << k.depth << " {";
    for (const auto& a : k.args) os << a << ";";
    return os << "}";
}

// The spans of a trace, display offsets applied; `skipExtras` leaves out what the export adds beside
// the spans: the zero-length spans the importer makes of "i" events (they carry a "scope" arg) and
// the rows of the runtime lanes (a "table" arg).
std::vector<SpanKey> spansOf(const cs::trace::TraceReader& r, bool skipExtras) {
    const auto clocks = cs::engine::sessionClocks(r);
    struct Row {
        std::int64_t id, track, start, dur;
        SpanKey key;
    };
    std::map<std::int64_t, std::vector<std::string>> args;
    r.query("SELECT a.span_id, k.str, typeof(a.value), a.value FROM span_args a JOIN strings k ON k.id = a.key_sid",
            [&](const cs::trace::Row& st) {
                args[cs::trace::colInt(st, 0)].push_back(cs::trace::colText(st, 1) + "=" + cs::trace::colText(st, 2) + ":" +
                                                         cs::trace::colText(st, 3));
            });
    std::vector<Row> rows;
    r.query("SELECT s.id, s.track_id, s.start_ns, coalesce(s.dur_ns, -1), s.category, coalesce(n.str, ''), "
            "coalesce(d.str, ''), coalesce(tn.str, (SELECT name FROM enums WHERE type = 'track_kind' AND value = t.kind) "
            "|| ' ' || coalesce(t.tid, t.id)), t.session_id FROM spans s JOIN tracks t ON t.id = s.track_id "
            "LEFT JOIN strings n ON n.id = s.name_sid LEFT JOIN strings d ON d.id = s.detail_sid "
            "LEFT JOIN strings tn ON tn.id = t.name_sid",
            [&](const cs::trace::Row& st) {
                Row row{cs::trace::colInt(st, 0), cs::trace::colInt(st, 1),
                        cs::trace::colInt(st, 2) + clocks.offsetOf(cs::trace::colInt(st, 8)), cs::trace::colInt(st, 3), {}};
                row.key.category = static_cast<int>(cs::trace::colInt(st, 4));
                row.key.name = cs::trace::colText(st, 5);
                row.key.detail = cs::trace::colText(st, 6);
                row.key.track = cs::trace::colText(st, 7);
                rows.push_back(std::move(row));
            });
    std::erase_if(rows, [&](Row& row) {
        for (const std::string& a : args[row.id]) {
            if ((a.rfind("scope=", 0) == 0 || a.rfind("table=", 0) == 0) && skipExtras) return true;
            if (a.rfind("cat=", 0) != 0) row.key.args.push_back(a);
        }
        std::sort(row.key.args.begin(), row.key.args.end());
        return false;
    });
    // Nesting depth per track: sorted by start, longest first, a stack of open ends.
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.track != b.track) return a.track < b.track;
        if (a.start != b.start) return a.start < b.start;
        auto len = [](const Row& x) { return x.dur < 0 ? INT64_MAX : x.dur; };
        return len(a) > len(b);
    });
    std::vector<std::int64_t> open;
    std::int64_t track = -1, first = INT64_MAX;
    for (const Row& row : rows) first = std::min(first, row.start);
    std::vector<SpanKey> out;
    for (Row& row : rows) {
        if (row.track != track) open.clear(), track = row.track;
        while (!open.empty() && open.back() <= row.start) open.pop_back();
        row.key.depth = static_cast<int>(open.size());
        open.push_back(row.dur < 0 ? INT64_MAX : row.start + row.dur);
        row.key.start = row.start - first;
        row.key.dur = row.dur;
        out.push_back(std::move(row.key));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Exports `trace`, checks the JSON with the project's reader, imports it; returns the new trace.
std::string roundTrip(const cs::test::TempDir& dir, const std::string& trace, cs::util::JsonValue& doc) {
    const std::string json = dir.file("t.json"), back = dir.file("back.cstrace");
    auto e = runCli({"export", "--format", "tef", trace, "-o", json});
    EXPECT_EQ(e.status, 0) << e.err;
    std::ifstream in(json, std::ios::binary);
    EXPECT_NO_THROW(doc = cs::util::parseJson(in)) << "the export is not well-formed JSON";
    auto i = runCli({"import", json, "-o", back});
    EXPECT_EQ(i.status, 0) << i.err;
    return back;
}

std::vector<const cs::util::JsonValue*> eventsWithPhase(const cs::util::JsonValue& doc, const std::string& ph) {
    std::vector<const cs::util::JsonValue*> out;
    const auto* events = doc.get("traceEvents");
    if (!events) return out;
    for (const auto& ev : events->items)
        if (const auto* p = ev.get("ph"); p && p->str == ph) out.push_back(&ev);
    return out;
}

void expectSameSpans(const std::vector<SpanKey>& before, const std::vector<SpanKey>& after) {
    ASSERT_EQ(before.size(), after.size());
    for (size_t i = 0; i < before.size(); ++i) ASSERT_EQ(before[i], after[i]) << "span " << i << " of " << before.size();
}

}  // namespace

TEST(ExportTef, DemoTraceRoundTripKeepsSpans) {
    cs::test::TempDir dir;
    const std::string demo = std::string(COMPILESCOPE_SOURCE_DIR) + "/resources/demo/demo.cstrace";
    cs::util::JsonValue doc;
    const std::string back = roundTrip(dir, demo, doc);
    auto original = cs::trace::TraceReader::open(demo);
    auto imported = cs::trace::TraceReader::open(back);
    auto before = spansOf(*original, false);
    const auto after = spansOf(*imported, true);
    ASSERT_GT(before.size(), 1000u);
    // The demo trace was imported when clang's "Total <name>" events still became spans; exported and
    // imported again they are what the importer makes of them now: per-file phase totals.
    const auto totals = std::erase_if(before, [](const SpanKey& k) {
        return k.name.starts_with("Total ") && std::any_of(k.args.begin(), k.args.end(), [](const std::string& a) {
                   return a.starts_with("count=");
               });
    });
    EXPECT_EQ(scalar(*imported, "SELECT count(*) FROM phase_timings WHERE tool = 3"), static_cast<std::int64_t>(totals));
    expectSameSpans(before, after);

    // One X event per span and per row of the runtime lanes, a named process per session and a
    // named thread per track.
    EXPECT_EQ(static_cast<std::int64_t>(eventsWithPhase(doc, "X").size() + eventsWithPhase(doc, "B").size()),
              scalar(*original, "SELECT (SELECT count(*) FROM spans) + (SELECT count(*) FROM module_loads WHERE start_ns "
                                "IS NOT NULL) + (SELECT count(*) FROM cuda_programs) + (SELECT count(*) FROM phase_timings "
                                "WHERE start_ns IS NOT NULL)"));
    // Warp module loads keep their hash and outcome.
    int loads = 0;
    for (const auto* x : eventsWithPhase(doc, "X")) {
        const auto* table = x->get("args")->get("table");
        if (!table || table->str != "module_loads") continue;
        ++loads;
        EXPECT_EQ(x->get("cat")->str, "module-load");
        ASSERT_NE(x->get("args")->get("hash"), nullptr);
        const std::string result = x->get("args")->get("result")->str;
        EXPECT_TRUE(result == "compiled" || result == "cached" || result == "error" || result == "unknown") << result;
    }
    EXPECT_EQ(loads, scalar(*original, "SELECT count(*) FROM module_loads WHERE start_ns IS NOT NULL"));
    std::int64_t processNames = 0, threadNames = 0;
    for (const auto* m : eventsWithPhase(doc, "M")) {
        processNames += m->get("name")->str == "process_name";
        threadNames += m->get("name")->str == "thread_name";
    }
    EXPECT_EQ(processNames, scalar(*original, "SELECT count(*) FROM sessions"));
    EXPECT_GE(threadNames, scalar(*original, "SELECT count(*) FROM tracks"));
    // Cache lookups and steps are instants: one each, with the runtime's verdict.
    EXPECT_EQ(static_cast<std::int64_t>(eventsWithPhase(doc, "i").size()),
              scalar(*original, "SELECT (SELECT count(*) FROM cache_lookups) + (SELECT count(*) FROM steps)"));
    EXPECT_EQ(scalar(*imported, "SELECT count(*) FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str LIKE 'miss %'"),
              scalar(*original, "SELECT count(*) FROM cache_lookups WHERE verdict = 2"));
}

TEST(ExportTef, ArgsNestingFlowsAndUnfinishedSpansRoundTrip) {
    cs::test::TempDir dir;
    const std::string path = dir.file("args.cstrace");
    {
        cs::trace::TraceWriter w(path);
        auto s = w.addSession({.runtime = w.intern("warp"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = 5'000'000'000'123});
        auto t = w.addTrack({.sessionId = s, .kind = CS_TRACK_THREAD, .tid = 77, .name = w.intern("main \"thread\"")});
        auto other = w.addTrack({.sessionId = s, .kind = CS_TRACK_THREAD, .tid = 78});
        const std::int64_t t0 = 5'000'000'000'123;
        auto span = [&](std::int64_t track, std::int64_t start, std::optional<std::int64_t> dur, const char* name, int cat,
                        const char* detail = "") {
            return w.addSpan({.trackId = track, .startNs = t0 + start, .durNs = dur, .category = cat, .name = w.intern(name),
                              .detail = *detail ? w.intern(detail) : 0});
        };
        auto load = span(t, 0, 10'000'001, "load module sim", CS_CAT_MODULE_LOAD, "sim.py");
        w.addSpanArg(load, w.intern("hash"), std::string_view("a1b2c3d"));
        w.addSpanArg(load, w.intern("block_dim"), std::int64_t{256});
        w.addSpanArg(load, w.intern("compile_share"), 2.0);
        w.addSpanArg(load, w.intern("ratio"), 0.1);
        w.addSpanArg(load, w.intern("options.fast_math"), std::string_view("True <\xc3\xa9>"));
        auto first = span(t, 0, 4'000'000, "compile sim", CS_CAT_COMPILE);
        auto second = span(t, 4'000'000, 6'000'001, "cache-load kernels", CS_CAT_CACHE_LOAD);
        span(t, 4'000'000, 1, "nvrtc", CS_CAT_PHASE);
        span(t, 20'000'000, std::nullopt, "still running", CS_CAT_OTHER);
        auto remote = span(other, 1'000, 999, "launch", CS_CAT_LAUNCH);
        w.addFlow({.fromSpanId = first, .toSpanId = second, .name = w.intern("then")});
        w.addFlow({.fromSpanId = second, .toSpanId = remote, .name = 0});
        auto l = w.addCacheLookup({.sessionId = s, .trackId = t, .tsNs = t0 + 5, .program = w.intern("gradient"),
                                   .verdict = CS_VERDICT_MISS, .compileNs = 4'000'000, .step = 1});
        w.addKeyComponent({.lookupId = l, .ordinal = 0, .name = w.intern("shape of arg 2"), .role = CS_ROLE_SHAPE,
                           .value = w.intern("128x64")});
        w.addStep({.sessionId = s, .tsNs = t0 + 1, .step = 1});
        w.endSession(s, t0 + 30'000'000, 0);
        w.finalize();
    }
    cs::util::JsonValue doc;
    const std::string back = roundTrip(dir, path, doc);
    auto original = cs::trace::TraceReader::open(path);
    auto imported = cs::trace::TraceReader::open(back);
    const auto before = spansOf(*original, false);
    ASSERT_EQ(before.size(), 6u);
    expectSameSpans(before, spansOf(*imported, true));

    // The threads keep their OS thread ids (the "marks" thread of the step has one from 1e9 up).
    EXPECT_EQ(cs::test::text(*imported, "SELECT group_concat(tid, ',') FROM (SELECT tid FROM tracks WHERE kind = 0 AND tid < 1000000000 ORDER BY tid)"),
              "77,78");
    // A real that happens to be whole stays a real; the exact nanoseconds survive a 5000 s clock.
    EXPECT_EQ(cs::test::textOf(*imported, "SELECT typeof(value) FROM span_args a JOIN strings k ON k.id = a.key_sid "
                                          "WHERE k.str = 'compile_share'"),
              "real");
    EXPECT_EQ(scalar(*imported, "SELECT dur_ns FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str = 'load module sim'"),
              10'000'001);
    // The flows link the same spans.
    const char* flows = "SELECT group_concat(a || '>' || b, ',') FROM (SELECT fa.str AS a, fb.str AS b FROM flows f "
                        "JOIN spans x ON x.id = f.from_span_id JOIN strings fa ON fa.id = x.name_sid "
                        "JOIN spans y ON y.id = f.to_span_id JOIN strings fb ON fb.id = y.name_sid ORDER BY 1, 2)";
    EXPECT_EQ(cs::test::textOf(*imported, flows), cs::test::textOf(*original, flows));
    EXPECT_EQ(eventsWithPhase(doc, "s").size(), 2u);
    EXPECT_EQ(eventsWithPhase(doc, "f").size(), 2u);
    // The never-ended span is a "B" without an "E", and comes back never ended.
    EXPECT_EQ(eventsWithPhase(doc, "B").size(), 1u);
    EXPECT_EQ(scalar(*imported, "SELECT count(*) FROM spans WHERE dur_ns IS NULL"), 1);
    // The miss is an instant with its program, verdict and key component.
    const auto instants = eventsWithPhase(doc, "i");
    ASSERT_EQ(instants.size(), 2u);
    const cs::util::JsonValue* miss = nullptr;
    for (const auto* ev : instants)
        if (ev->get("name")->str == "miss gradient") miss = ev;
    ASSERT_NE(miss, nullptr);
    EXPECT_EQ(miss->get("args")->get("key.shape of arg 2")->str, "128x64");
    EXPECT_EQ(miss->get("args")->get("compile_ns")->str, "4000000");
    EXPECT_EQ(miss->get("s")->str, "t");
}

TEST(ExportTef, ListedInHelpWhichManPagesAndCompletionAreMadeFrom) {
    // cmake/GenerateCliDocs.cmake reads the "Commands:" block and each verb's --help.
    auto help = runCli({"--help"});
    EXPECT_NE(help.out.find("\n  export      write a trace as Trace Event Format JSON"), std::string::npos) << help.out;
    auto usage = runCli({"export", "--help"});
    EXPECT_EQ(usage.status, 0);
    EXPECT_NE(usage.out.find("--format tef"), std::string::npos);
}

TEST(ExportTef, UsageErrors) {
    cs::test::TempDir dir;
    EXPECT_EQ(runCli({"export", "--format", "svg", "t.cstrace", "-o", dir.file("x")}).status, 2);
    EXPECT_EQ(runCli({"export", "t.cstrace"}).status, 2);
    auto missing = runCli({"export", dir.file("none.cstrace"), "-o", dir.file("x.json")});
    EXPECT_EQ(missing.status, 2);
    EXPECT_FALSE(std::filesystem::exists(dir.file("x.json")));
}
