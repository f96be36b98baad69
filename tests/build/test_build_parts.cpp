// The parts of the build view one by one: the ninja log grammar and importer, clang's
// beginningOfTime and "Total" events in the TEF importer, session labels, template folding.
#include "ingest/imported_trace.h"

#include "core/engine/build/build_report.h"
#include "core/engine/accounting/session_labels.h"
#include "core/engine/timeline/timeline_search.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/formats/ninja_log_lines.h"
#include "core/util/json_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <sstream>

namespace cs::test {
namespace {
using process::runCli;  // imported_trace.h runs the CLI as a process

TEST(NinjaLogLines, ParsesTheFiveFields) {
    ingest::NinjaLogEntry e;
    EXPECT_EQ(ingest::parseNinjaLogLine("12\t340\t1796165801575763729\tobj/a.o\tfc311782615f00fd", e), "");
    EXPECT_EQ(e.startMs, 12);
    EXPECT_EQ(e.endMs, 340);
    EXPECT_EQ(e.mtime, 1796165801575763729);
    EXPECT_EQ(e.output, "obj/a.o");
    EXPECT_EQ(e.commandHash, "fc311782615f00fd");
    EXPECT_EQ(ingest::ninjaLogVersion("# ninja log v5"), 5);
    EXPECT_FALSE(ingest::ninjaLogVersion("# ninja log"));
}

TEST(NinjaLogLines, NamesWhatIsWrong) {
    ingest::NinjaLogEntry e;
    EXPECT_NE(ingest::parseNinjaLogLine("12\t340\t0\tobj/a.o", e).find("found 4"), std::string::npos);
    EXPECT_NE(ingest::parseNinjaLogLine("x\t340\t0\tobj/a.o\th", e).find("start"), std::string::npos);
    EXPECT_NE(ingest::parseNinjaLogLine("400\t340\t0\tobj/a.o\th", e).find("end before start"), std::string::npos);
    EXPECT_NE(ingest::parseNinjaLogLine("1\t2\t0\t\th", e).find("empty output"), std::string::npos);
    EXPECT_NE(ingest::parseNinjaLogLine("1\t99999999999999999999\t0\ta\th", e), "");
    EXPECT_NE(ingest::parseNinjaLogLine("1\t2\t0\ta\th\textra", e), "");
}

TEST(NinjaLogImport, KeepsTheLastBuildOneSpanPerCommandOnParallelLanes) {
    // An earlier build (ends 0..900), then the last build: two commands at once, one with two outputs.
    auto t = importContent(".ninja_log",
                           "# ninja log v5\n"
                           "0\t500\t0\told.o\taa\n"
                           "100\t900\t0\told2.o\tab\n"
                           "0\t300\t1796165801000000000\tobj/a.o\th1\n"
                           "10\t400\t1796165801100000000\tobj/b.o\th2\n"
                           "400\t600\t1796165801300000000\tgen.h\th3\n"
                           "400\t600\t1796165801300000000\tgen.cpp\th3\n"
                           "not a line\n",
                           "ninja-log");
    EXPECT_EQ(t->count("SELECT count(*) FROM spans"), 3);
    EXPECT_EQ(t->count("SELECT count FROM stats WHERE name = 'earlier_build_line'"), 2);
    EXPECT_EQ(t->count("SELECT count(*) FROM stats WHERE name = 'malformed_record'"), 1);
    EXPECT_EQ(t->count("SELECT count(*) FROM tracks WHERE kind = 0"), 2) << "two commands ran at once";
    EXPECT_EQ(t->text("SELECT a.value FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE k.str = 'output'"), "gen.cpp");
    // Placed on the epoch clock: the latest mtime - end is 1796165801300000000 - 600 ms.
    EXPECT_EQ(t->text("SELECT c.str FROM sessions s JOIN strings c ON c.id = s.clock_sid"), "CLOCK_REALTIME");
    EXPECT_EQ(t->count("SELECT start_ns FROM sessions"), 1796165801300000000 - 600'000'000);
    EXPECT_EQ(t->count("SELECT min(start_ns) FROM spans"), 1796165801300000000 - 600'000'000);
}

// A clang-shaped time trace: events relative to beginningOfTime, written last, and "Total" events.
std::string clangTrace(long long beginningUs, long long frontendUs) {
    return "{\"traceEvents\":[{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"ts\":10,\"dur\":" + std::to_string(frontendUs + 100) +
           ",\"name\":\"ExecuteCompiler\"},{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"ts\":20,\"dur\":" + std::to_string(frontendUs) +
           ",\"name\":\"Frontend\"},{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"ts\":30,\"dur\":50,\"name\":\"SROAPass\","
           "\"args\":{\"detail\":\"main\"}},{\"pid\":1,\"tid\":2,\"ph\":\"X\",\"ts\":0,\"dur\":" + std::to_string(frontendUs) +
           ",\"name\":\"Total Frontend\",\"args\":{\"count\":1,\"avg ms\":1}}],\"beginningOfTime\":" +
           std::to_string(beginningUs) + "}\n";
}

TEST(ClangTimeTrace, PlacedAtBeginningOfTimeWithTotalsAsPhaseTotals) {
    auto t = importContent("a.cpp.json", clangTrace(1796165549255688, 700), "tef");
    EXPECT_EQ(t->count("SELECT min(start_ns) FROM spans"), (1796165549255688 + 10) * 1000);
    EXPECT_EQ(t->count("SELECT start_ns FROM sessions"), 1796165549255688 * 1000);
    EXPECT_EQ(t->text("SELECT c.str FROM sessions s JOIN strings c ON c.id = s.clock_sid"), "CLOCK_REALTIME");
    EXPECT_EQ(t->count("SELECT count(*) FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str LIKE 'Total%'"), 0);
    EXPECT_EQ(t->count("SELECT count(*) FROM tracks WHERE kind = 0"), 1) << "no lane for the totals' thread";
    EXPECT_EQ(t->count("SELECT dur_ns FROM phase_timings WHERE tool = 3 AND start_ns IS NULL"), 700'000);
    EXPECT_EQ(t->text("SELECT i.str FROM phase_timings p JOIN strings i ON i.id = p.input_sid"), "a.cpp");
    // A new-pass-manager pass of clang 14 is a compiler phase, and its detail is stored.
    EXPECT_EQ(t->count("SELECT s.category FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str = 'SROAPass'"), 11);
    EXPECT_EQ(t->text("SELECT d.str FROM spans s JOIN strings d ON d.id = s.detail_sid"), "main");
    // The totals are not compile time a second time.
    auto a = engine::analyseTrace(*t->reader);
    EXPECT_EQ(a->summary.compileNs, (700 + 100) * 1000);
}

// A trace whose beginningOfTime (`value`, as written) comes before its one event (ts 1 us).
std::unique_ptr<ImportedTrace> beginningFirst(const std::string& value) {
    return importContent("b.json",
                         "{\"beginningOfTime\": " + value + ", \"traceEvents\":[{\"pid\":1,\"tid\":1,\"ph\":\"X\","
                         "\"ts\":1,\"dur\":2,\"name\":\"Frontend\"}]}",
                         "tef");
}

TEST(ClangTimeTrace, BeginningOfTimeBeforeTheEventsServesToo) {
    EXPECT_EQ(beginningFirst("5000000")->count("SELECT start_ns FROM spans"), 5000001000);
}

TEST(ClangTimeTrace, BeginningOfTimeThatIsNoNumberIsMalformed) {
    auto t = beginningFirst("\"soon\"");
    EXPECT_EQ(t->count("SELECT start_ns FROM spans"), 1000);
    EXPECT_EQ(t->count("SELECT count(*) FROM stats WHERE detail LIKE '%beginningOfTime%'"), 1);
}

TEST(ClangTimeTrace, BeginningOfTimeOutOfRangeAtTheEndIsMalformed) {
    auto t = importContent("e.json", clangTrace(99999999999999999, 700), "tef");
    EXPECT_EQ(t->count("SELECT min(start_ns) FROM spans"), 10'000);
    EXPECT_EQ(t->count("SELECT count(*) FROM stats WHERE detail LIKE '%beginningOfTime%below 9e15%'"), 1);
}

TEST(ClangTimeTrace, TwoFilesOfOneBuildShowTheirParallelism) {
    TempDir dir;
    std::filesystem::create_directories(dir.path() / "x");
    std::filesystem::create_directories(dir.path() / "y");
    writeFile(dir.file("x/main.cpp.json"), clangTrace(1796165549000000, 1000));
    writeFile(dir.file("y/main.cpp.json"), clangTrace(1796165549000500, 2000));
    auto r = runCli({"import", dir.file("x/main.cpp.json"), dir.file("y/main.cpp.json"), "-o", dir.file("t.cstrace")});
    ASSERT_EQ(r.status, 0) << r.err;
    auto a = engine::analyseTraceFile(dir.file("t.cstrace"));
    ASSERT_TRUE(a->build);
    ASSERT_EQ(a->build->files.size(), 2u);
    std::map<std::string, std::int64_t> offsets;
    for (const auto& f : a->build->files) offsets[f.label] = f.offsetNs;
    EXPECT_EQ(offsets.at("import:tef: x/main.cpp.json"), 0);
    EXPECT_EQ(offsets.at("import:tef: y/main.cpp.json"), 500'000);
    EXPECT_EQ(a->build->peakParallelism, 2);
    // Wall time is the build's span (the later file ends 500 us after its start + 2110 us).
    EXPECT_EQ(a->summary.wallNs, (500 + 10 + 2100) * 1000);
    // Without a ninja log the files' compiles are the schedule. ExecuteCompiler: x at 10 us for
    // 1100 us, y at 510 us for 2100 us; x ends after y starts, so the critical path is y alone.
    const auto& s = a->build->schedule;
    EXPECT_FALSE(s.fromNinjaLog);
    EXPECT_EQ(s.targets, 2);
    EXPECT_EQ(s.wallNs, (510 + 2100 - 10) * 1000);
    EXPECT_EQ(s.busyNs, (1100 + 2100) * 1000);
    EXPECT_EQ(s.peakConcurrency, 2);
    ASSERT_EQ(s.criticalPath.size(), 1u);
    EXPECT_EQ(s.criticalPath[0].output, "import:tef: y/main.cpp.json");
    EXPECT_EQ(s.criticalPath[0].durNs, 2100 * 1000);
    EXPECT_NE(s.criticalPath[0].spanId, 0);
}

TEST(ClangTimeTrace, SearchFindsSpansByTheirDetail) {
    // Two headers and an instantiation; the search needle appears in a detail only, never in a name.
    auto t = importContent("d.json",
                           "{\"traceEvents\":[{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"ts\":1,\"dur\":50,\"name\":\"Source\","
                           "\"args\":{\"detail\":\"/src/include/Widget.h\"}},{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"ts\":60,"
                           "\"dur\":5,\"name\":\"Source\",\"args\":{\"detail\":\"/usr/include/vector\"}},{\"pid\":1,\"tid\":1,"
                           "\"ph\":\"X\",\"ts\":70,\"dur\":9,\"name\":\"InstantiateClass\",\"args\":{\"detail\":"
                           "\"Box<widget::Part>\"}}],\"beginningOfTime\":1000}",
                           "tef");
    const engine::TimelineData d = engine::loadTimeline(*t->reader);
    ASSERT_EQ(d.detailSpans.size(), 3u);
    auto hits = engine::searchTimeline(d, "WIDGET");
    ASSERT_EQ(hits.size(), 2u) << "the header and the instantiation, matched case-insensitively";
    std::set<std::string> found;
    for (const auto& h : hits) found.insert(std::string(d.str(d.detailOf(h.item.rowId))));
    EXPECT_EQ(found, (std::set<std::string>{"/src/include/Widget.h", "Box<widget::Part>"}));
    // A name match is listed once even when the detail matches too.
    EXPECT_EQ(engine::searchTimeline(d, "Source").size(), 2u);
}

TEST(SessionLabels, ShortestDistinguishingPath) {
    auto s = engine::distinguishingSuffixes({"/b/x/main.cpp.json", "/b/y/main.cpp.json", "/b/x/util.cpp.json",
                                             "/a/x/main.cpp.json", "same", "same"});
    EXPECT_EQ(s[0], "b/x/main.cpp.json");
    EXPECT_EQ(s[1], "y/main.cpp.json");
    EXPECT_EQ(s[2], "util.cpp.json");
    EXPECT_EQ(s[3], "a/x/main.cpp.json");
    EXPECT_EQ(s[4], "same");
    EXPECT_EQ(s[5], "same");
}

// A ninja log as ninja 1.10+ writes it (v5: start ms, end ms, mtime ns, output, command hash; a
// command with two outputs is two lines with one hash; lines in the order the commands ended), one
// build at -j3: a generator, five compiles,
// an archive and a link. The schedule's figures are recomputed here from the rows, by brute force.
TEST(BuildReport, ParallelismAndCriticalPathFromANinjaLog) {
    const std::string log =
        "# ninja log v5\n"
        "0\t50\t1796165801050000000\tgen/version.h\t4f1e2d3c4b5a6978\n"
        "0\t50\t1796165801050000000\tgen/version.cpp\t4f1e2d3c4b5a6978\n"
        "60\t400\t1796165801400000000\tobj/c.o\t3c4d5e6f708192a3\n"
        "55\t800\t1796165801800000000\tobj/b.o\t2b3c4d5e6f708192\n"
        "800\t950\t1796165801950000000\tobj/e.o\t5e6f708192a3b4c5\n"
        "950\t1000\t1796165802000000000\tobj/version.o\t6f708192a3b4c5d6\n"
        "50\t1200\t1796165802200000000\tobj/a.o\t1a2b3c4d5e6f7081\n"
        "400\t1500\t1796165802500000000\tobj/d.o\t4d5e6f708192a3b4\n"
        "1500\t1560\t1796165802560000000\tlibcore.a\t708192a3b4c5d6e7\n"
        "1560\t1900\t1796165802900000000\tapp\t8192a3b4c5d6e7f8\n";
    struct Row {
        std::int64_t start, end;
        std::string output;
    };
    std::vector<Row> rows;  // one per command: lines with the same hash and times are one command
    std::set<std::string> seen;
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("#")) continue;
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, '\t');) f.push_back(x);
        ASSERT_EQ(f.size(), 5u) << line;
        if (!seen.insert(f[0] + "/" + f[1] + "/" + f[4]).second) continue;
        rows.push_back({std::stoll(f[0]) * 1'000'000, std::stoll(f[1]) * 1'000'000, f[3]});
    }
    std::int64_t first = INT64_MAX, last = INT64_MIN, busy = 0;
    for (const Row& r : rows) first = std::min(first, r.start), last = std::max(last, r.end), busy += r.end - r.start;
    int peak = 0;
    for (const Row& at : rows) {
        int running = 0;
        for (const Row& r : rows) running += r.start <= at.start && at.start < r.end;
        peak = std::max(peak, running);
    }
    // The path: the command that ends last, then again and again the one that ended latest at or
    // before the current one's start (ties: the longer, then the smaller output).
    auto better = [](const Row& x, const Row& y) {
        if (x.end != y.end) return x.end > y.end;
        if (x.start != y.start) return x.start < y.start;
        return x.output < y.output;
    };
    std::vector<std::string> path;
    std::int64_t pathNs = 0;
    const Row* cur = nullptr;
    for (const Row& r : rows)
        if (!cur || better(r, *cur)) cur = &r;
    while (cur) {
        path.insert(path.begin(), cur->output);
        pathNs += cur->end - cur->start;
        const Row* next = nullptr;
        for (const Row& r : rows)
            if (&r != cur && r.end <= cur->start && (!next || better(r, *next))) next = &r;
        cur = next;
    }
    ASSERT_GE(path.size(), 3u) << "the log is built to have a path of several steps";

    auto t = importContent(".ninja_log", log, "ninja-log");
    auto a = engine::analyseTrace(*t->reader);
    ASSERT_TRUE(a->build);
    const auto& s = a->build->schedule;
    EXPECT_TRUE(s.fromNinjaLog);
    EXPECT_EQ(s.targets, static_cast<std::int64_t>(rows.size()));
    EXPECT_EQ(s.wallNs, last - first);
    EXPECT_EQ(s.busyNs, busy);
    EXPECT_DOUBLE_EQ(s.averageParallelism, static_cast<double>(busy) / static_cast<double>(last - first));
    EXPECT_EQ(s.peakConcurrency, peak);
    EXPECT_EQ(a->build->peakParallelism, peak);
    std::vector<std::string> got;
    for (const auto& step : s.criticalPath) {
        got.push_back(step.output);
        EXPECT_NE(step.spanId, 0) << step.output << ": a step leads to its span";
    }
    EXPECT_EQ(got, path);
    EXPECT_EQ(s.criticalPathNs, pathNs);

    // The CLI prints both, in text and in JSON.
    const std::string text = t->cli("build-report");
    EXPECT_NE(text.find("peak " + std::to_string(peak)), std::string::npos) << text;
    EXPECT_NE(text.find("Critical path by timing only"), std::string::npos) << text;
    for (const auto& o : path) EXPECT_NE(text.find(o), std::string::npos) << o << " missing from\n" << text;
    auto json = runCli({"build-report", t->trace, "--json", "--top", "50"});
    ASSERT_EQ(json.status, 0) << json.err;
    util::JsonValue doc = util::parseJson(json.out);
    const auto* sched = doc.get("schedule");
    ASSERT_NE(sched, nullptr) << json.out;
    EXPECT_EQ(static_cast<std::int64_t>(sched->get("critical_path_ns")->num), pathNs);
    EXPECT_EQ(static_cast<std::int64_t>(sched->get("busy_ns")->num), busy);
    EXPECT_EQ(static_cast<std::int64_t>(sched->get("peak_concurrency")->num), peak);
    ASSERT_EQ(sched->get("critical_path")->items.size(), path.size());
    EXPECT_EQ(sched->get("critical_path")->items.back().get("output")->str, path.back());
}

TEST(BuildReport, FoldsTemplateArguments) {
    EXPECT_EQ(engine::build::foldTemplateArguments("std::vector<std::pair<int, long>, std::allocator<int>>::push_back"),
              "std::vector<$>::push_back");
    EXPECT_EQ(engine::build::foldTemplateArguments("operator<<<char>"), "operator<<<$>");
    EXPECT_EQ(engine::build::foldTemplateArguments("plain"), "plain");
}

}  // namespace
}  // namespace cs::test
