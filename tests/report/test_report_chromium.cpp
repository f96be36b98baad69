// The report in a real browser (headless Chromium): zero console messages, every section's counts in
// the DOM after the page's script ran, a screenshot; and a corpus of hostile names that must not run
// any script, with and without the Content-Security-Policy. Skipped, with the reason printed, when
// Chromium is not installed.
#include "chromium.h"
#include "report_fixture.h"
#include "test_util.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/all_findings.h"
#include "core/report/report.h"
#include "core/trace/reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

using namespace cs;
using cs::test::countOf;

namespace {

std::string domCount(const std::string& dom, const std::string& id) {
    std::smatch m;
    return std::regex_search(dom, m, std::regex("<section id=\"" + id + "\" data-count=\"([0-9]+)\""))
               ? m[1].str()
               : "absent";
}


std::string writeReportFile(const test::TempDir& dir, const std::vector<std::string>& traces, const std::string& name) {
    auto out = dir.file(name);
    std::ofstream f(out, std::ios::binary);
    report::writeReport(traces, {}, f);
    return out;
}
}  // namespace

TEST(ReportChromium, FixtureReportHasNoConsoleErrorsAndItsCountsInTheDom) {
    REQUIRE_CHROMIUM();
    test::TempDir dir;
    auto trace = dir.file("fixture.cstrace");
    test::FixtureCounts c = test::writeReportFixture(trace);
    auto html = writeReportFile(dir, {trace}, "report.html");
    auto run = test::runChromium(html, "--dump-dom", dir);
    ASSERT_EQ(run.status, 0) << run.log;
    EXPECT_TRUE(run.console.empty()) << "console messages:\n" << test::consoleText(run);
    const std::string& dom = run.out;
    ASSERT_NE(dom.find("data-ready=\"1\""), std::string::npos) << "the report's script did not run";
    // Built by the script from the JSON data block: it ran under the CSP and parsed its data.
    EXPECT_EQ(countOf(dom, "<button type=\"button\" class=\"chip on sev-"), 3u);
    EXPECT_EQ(domCount(dom, "summary"), "1");
    EXPECT_NE(dom.find("data-verdict=\"fail\""), std::string::npos);
    auto reader = trace::TraceReader::open(trace);
    EXPECT_EQ(domCount(dom, "findings"), std::to_string(engine::analyseTrace(*reader)->findings.size()));
    EXPECT_EQ(domCount(dom, "cache-misses"), std::to_string(c.misses));
    EXPECT_EQ(countOf(dom, "<tr class=\"miss\""), static_cast<size_t>(c.misses));
    EXPECT_EQ(domCount(dom, "repeated-hashes"), std::to_string(c.repeatedModules));
    EXPECT_EQ(countOf(dom, "<tr class=\"module repeated\">"), static_cast<size_t>(c.repeatedModules));
    EXPECT_EQ(domCount(dom, "invalidations"), std::to_string(c.invalidationRoots));
    EXPECT_EQ(countOf(dom, "<details class=\"inv-node\"") + countOf(dom, "<div class=\"inv-leaf\""),
              static_cast<size_t>(c.invalidationNodes));
    EXPECT_EQ(domCount(dom, "phases"), std::to_string(c.phaseGroups));
    EXPECT_EQ(countOf(dom, "<tr class=\"phase\">"), static_cast<size_t>(c.phaseGroups));
    // Timeline: one <g class="lane..."> per lane, as many as the section counts; a tick for misses.
    std::string lanes = domCount(dom, "timeline");
    EXPECT_EQ(std::to_string(countOf(dom, "<g class=\"lane")), lanes);
    EXPECT_GE(std::stoi(lanes), 6);  // step, compile spans; module loads compiled / cached; nvrtc; launches; ...
    // One tick per bucket that holds a miss.
    report::ReportOptions options;
    auto collected = report::collectTrace(engine::analyseTrace(*reader, {.timelineBuckets = options.timelineBuckets}), "A");
    size_t missBuckets = 0;
    for (const auto& lane : collected.timeline.lanes)
        if (lane.marks)
            for (auto n : lane.bucketEvents) missBuckets += n > 0;
    EXPECT_GE(missBuckets, 3u);
    EXPECT_EQ(countOf(dom, "<rect class=\"tick\""), missBuckets);

    // The screenshot a person looks at; kept in the build tree.
    std::string png = std::string(COMPILESCOPE_BINARY_DIR) + "/report-fixture.png";
    std::filesystem::remove(png);
    auto shot = test::runChromium(html, "--screenshot=" + png, dir, "1280,3000");
    ASSERT_EQ(shot.status, 0) << shot.log;
    EXPECT_TRUE(shot.console.empty()) << test::consoleText(shot);
    std::string bytes = test::readFile(png);
    ASSERT_GT(bytes.size(), 10000u);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
    std::cout << "screenshot: " << png << "\n";
}

TEST(ReportChromium, BundledDemoTraceOpensCleanly) {
    REQUIRE_CHROMIUM();
    test::TempDir dir;
    auto html = writeReportFile(dir, {test::sourceDir() + "/resources/demo/demo.cstrace"}, "demo.html");
    auto run = test::runChromium(html, "--dump-dom", dir);
    ASSERT_EQ(run.status, 0) << run.log;
    EXPECT_TRUE(run.console.empty()) << test::consoleText(run);
    EXPECT_NE(run.out.find("data-ready=\"1\""), std::string::npos);
    auto reader = trace::TraceReader::open(test::sourceDir() + "/resources/demo/demo.cstrace");
    std::int64_t groups = 0;
    // Phase timings per tool, phase and arch, and phase spans (the clang time trace) per name.
    reader->query("SELECT (SELECT count(*) FROM (SELECT 1 FROM phase_timings GROUP BY tool, phase_sid, arch_sid)) + "
                  "(SELECT count(*) FROM (SELECT 1 FROM spans WHERE category = 11 AND dur_ns IS NOT NULL GROUP BY name_sid))",
                  [&](const cs::trace::Row& st) { groups = st.integer(0); });
    ASSERT_GT(groups, 8);  // the clang -ftime-trace import's phases are there, not only nvcc's
    EXPECT_EQ(domCount(run.out, "phases"), std::to_string(groups));
    EXPECT_EQ(countOf(run.out, "<tr class=\"phase\">"), static_cast<size_t>(groups));
}

TEST(ReportChromium, ComparisonOfTwoTracesOpensCleanly) {
    REQUIRE_CHROMIUM();
    test::TempDir dir;
    auto a = dir.file("a.cstrace"), b = dir.file("b.cstrace");
    test::writeReportFixture(a);
    test::writeReportFixture(b, nullptr, 2);
    auto html = writeReportFile(dir, {a, b}, "cmp.html");
    auto run = test::runChromium(html, "--dump-dom", dir);
    ASSERT_EQ(run.status, 0) << run.log;
    EXPECT_TRUE(run.console.empty()) << test::consoleText(run);
    EXPECT_NE(run.out.find("data-ready=\"2\""), std::string::npos);
    EXPECT_EQ(domCount(run.out, "comparison"), "1");
    EXPECT_GT(countOf(run.out, "<tr class=\"cmp\" data-verdict=\"worse\">"), 3u);
    std::string png = std::string(COMPILESCOPE_BINARY_DIR) + "/report-compare.png";
    auto shot = test::runChromium(html, "--screenshot=" + png, dir, "1280,7000");
    ASSERT_EQ(shot.status, 0) << shot.log;
    EXPECT_TRUE(shot.console.empty()) << test::consoleText(shot);
    EXPECT_EQ(test::readFile(png).substr(1, 3), "PNG");
}
