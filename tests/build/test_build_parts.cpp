// The parts of the build view one by one: the ninja log grammar and importer, clang's
// beginningOfTime and "Total" events in the TEF importer, session labels, template folding.
#include "ingest/imported_trace.h"

#include "core/engine/build/build_report.h"
#include "core/engine/session_labels.h"
#include "core/engine/timeline/timeline_search.h"
#include "core/engine/trace_analysis.h"
#include "core/formats/ninja_log_lines.h"

#include <gtest/gtest.h>

#include <set>

namespace cs::test {
namespace {

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

TEST(BuildReport, FoldsTemplateArguments) {
    EXPECT_EQ(engine::build::foldTemplateArguments("std::vector<std::pair<int, long>, std::allocator<int>>::push_back"),
              "std::vector<$>::push_back");
    EXPECT_EQ(engine::build::foldTemplateArguments("operator<<<char>"), "operator<<<$>");
    EXPECT_EQ(engine::build::foldTemplateArguments("plain"), "plain");
}

}  // namespace
}  // namespace cs::test
