// The report's content, read from the HTML without a browser: each section's figures for a trace
// whose facts are known (report_fixture.h), the CSP naming the inline blocks' hashes, determinism.
#include "chromium.h"
#include "report_fixture.h"
#include "test_util.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/all_findings.h"
#include "core/measure/ledger.h"
#include "core/report/report.h"
#include "core/report/sha256.h"
#include "core/trace/reader.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

using namespace cs;
using cs::test::countOf;

namespace {
std::string reportOf(const std::vector<std::string>& paths, const report::ReportOptions& options = {}) {
    std::ostringstream out;
    report::writeReport(paths, options, out);
    return out.str();
}

std::string sectionCount(const std::string& html, const std::string& id) {
    std::smatch m;
    std::regex re("<section id=\"" + id + "\" data-count=\"([0-9]+)\"");
    return std::regex_search(html, m, re) ? m[1].str() : "absent";
}
}  // namespace

TEST(Report, SectionsCarryTheFixtureCounts) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    test::FixtureCounts c = test::writeReportFixture(path);
    std::string html = reportOf({path});
    test::writeFile(std::string(COMPILESCOPE_BINARY_DIR) + "/report-fixture.html", html);  // for a person to open
    EXPECT_EQ(sectionCount(html, "summary"), "1");
    EXPECT_EQ(sectionCount(html, "cache-misses"), std::to_string(c.misses));
    EXPECT_EQ(countOf(html, "<tr class=\"miss\""), static_cast<size_t>(c.misses));
    EXPECT_EQ(sectionCount(html, "repeated-hashes"), std::to_string(c.repeatedModules));
    EXPECT_EQ(countOf(html, "<tr class=\"module repeated\">"), static_cast<size_t>(c.repeatedModules));
    EXPECT_EQ(countOf(html, "<tr class=\"module\">"), static_cast<size_t>(c.moduleNames - c.repeatedModules));
    EXPECT_EQ(sectionCount(html, "invalidations"), std::to_string(c.invalidationRoots));
    EXPECT_EQ(countOf(html, "<details class=\"inv-node\"") + countOf(html, "<div class=\"inv-leaf\""),
              static_cast<size_t>(c.invalidationNodes));
    EXPECT_EQ(sectionCount(html, "phases"), std::to_string(c.phaseGroups));
    auto reader = trace::TraceReader::open(path);
    EXPECT_EQ(sectionCount(html, "findings"), std::to_string(engine::analyseTrace(*reader)->findings.size()));
    EXPECT_EQ(html.find("id=\"comparison\""), std::string::npos) << "one trace has no comparison";
}

TEST(Report, MissReasonsNameTheMovedComponentNotDeviceFields) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    test::writeReportFixture(path);
    std::string html = reportOf({path});
    // The gradient program's third-step miss: shape of arg 2 moved 128x64 -> 100x64.
    EXPECT_NE(html.find("<code>shape of arg 2</code>: <span class=\"before\">128x64</span> \xE2\x86\x92 "
                        "<span class=\"after\">100x64</span>"),
              std::string::npos);
    // Three first compiles in the cache-miss table (the compile index lists them again, with links).
    const auto section = html.find("<section id=\"cache-misses\"");
    ASSERT_NE(section, std::string::npos);
    EXPECT_EQ(countOf(html.substr(section, html.find("</section>", section) - section), "<td>no earlier entry of "), 3u);
    // `lr` is a Device field: it changes every step but is not part of the key (the ReactantNitro guide (docs/cache-replay.md)), so it is
    // shown beside the miss as not in the key, never as its cause.
    EXPECT_NE(html.find("<li class=\"unkeyed\"><code>lr</code>: <span class=\"before\">d1</span>"), std::string::npos);
    EXPECT_EQ(html.find("<li class=\"keyed\"><code>lr</code>"), std::string::npos);
}

TEST(Report, AcceptanceVerdictFromTheReplayEngine) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    test::writeReportFixture(path);
    std::string html = reportOf({path});
    EXPECT_NE(html.find("data-verdict=\"fail\""), std::string::npos);
    EXPECT_NE(html.find("\"acceptance\":\"fail\""), std::string::npos);
    EXPECT_NE(html.find("<td>misses == entries</td><td>whole trace</td><td class=\"sev-info\">pass</td>"
                        "<td>misses 4, entries 4</td>"),
              std::string::npos);
    EXPECT_NE(html.find("gradient missed at step 3 (first used at step 1, lookup #5): shape of arg 2: 128x64 -&gt; "
                        "100x64"),
              std::string::npos);
    EXPECT_NE(html.find("compiled 4 programs, expected 3"), std::string::npos);
    EXPECT_NE(html.find("entries: runtime 3, replay 4"), std::string::npos);
}

TEST(Report, AcceptanceFromCountersAloneWhenNoLookupsWereRecorded) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    {
        trace::TraceWriter w(path);
        auto sess = w.addSession({.startNs = 0});
        for (auto [name, value] : {std::pair{"misses", 3}, {"entries", 2}})
            w.addCounter({.sessionId = sess, .tsNs = 5, .scope = w.intern("program_cache"), .name = w.intern(name),
                          .value = value});
        w.finalize();
    }
    std::string html = reportOf({path});
    EXPECT_NE(html.find("data-verdict=\"fail\""), std::string::npos);
    EXPECT_NE(html.find("misses 3, entries 2: 1 program(s) compiled twice"), std::string::npos);
    EXPECT_NE(html.find("no lookups recorded to replay"), std::string::npos);
}

TEST(Report, InvalidationTreeRootCarriesItsRecompileCost) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    test::writeReportFixture(path);
    std::string html = reportOf({path});
    // The root: the inserted method, its children count and the recompilation it caused (the Enzyme.jl #776 case (docs/invalidations.md)).
    // Each count is the tree's keyed figure (engine/analysis/trace_figures.h); children and invalidated
    // MethodInstances are labelled apart (issue 35).
    EXPECT_NE(html.find("<span class=\"kind\">inserting</span> <code>show(io::IO, ::Type{&lt;:Tracker.TrackedReal}) "
                        "@ Tracker lib.jl:96</code><span class=\"children\"><span data-figure=\"invalidations.tree.1.children\">2</span>"
                        " children</span><span class=\"invalidated\"><span data-figure=\"invalidations.tree.1.invalidated\">"),
              std::string::npos);
    EXPECT_NE(html.find(" invalidated MethodInstances</span><span class=\"cost\" data-figure=\"invalidations.tree.1.recompile_ns\">1.80 s</span>"),
              std::string::npos);
    EXPECT_NE(html.find("<code>superseding "), std::string::npos);
    EXPECT_NE(html.find("<code>MethodInstance for Enzyme.__init__()</code>"), std::string::npos);
    EXPECT_NE(html.find("costs joined from the trace&#39;s compile timings"), std::string::npos);
}

TEST(Report, RepeatedHashesDiagnosis) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    test::writeReportFixture(path);
    std::string html = reportOf({path});
    EXPECT_NE(html.find("3 hashes: identity churn"), std::string::npos);
    EXPECT_NE(html.find("2 block_dim values: the whole module is compiled once per block dimension"), std::string::npos);
    for (auto h : {"a1b2c3d", "9f8e7d6", "1234567"}) EXPECT_NE(html.find(std::string(">") + h + "<"), std::string::npos) << h;
}

TEST(Report, CspNamesTheHashOfEveryInlineBlockAndNothingRemote) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    test::writeReportFixture(path);
    std::string html = reportOf({path});
    std::smatch m;
    ASSERT_TRUE(std::regex_search(html, m, std::regex("http-equiv=\"Content-Security-Policy\" content=\"([^\"]*)\"")));
    std::string csp = m[1].str();
    EXPECT_NE(csp.find("default-src &#39;none&#39;"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("unsafe"), std::string::npos) << csp;
    std::regex block("<(script|style)>([\\s\\S]*?)</\\1>");
    int blocks = 0;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), block); it != std::sregex_iterator(); ++it) {
        ++blocks;
        EXPECT_NE(csp.find(report::cspHash((*it)[2].str())), std::string::npos) << (*it)[1].str();
    }
    EXPECT_EQ(blocks, 2);
    for (auto remote : {"http://", "https://", "//cdn", "src=\"", "url("}) EXPECT_EQ(html.find(remote), std::string::npos) << remote;
}

TEST(Report, TwoTracesAreCompared) {
    test::TempDir dir;
    auto base = dir.file("base.cstrace"), cand = dir.file("cand.cstrace");
    test::writeReportFixture(base);
    test::writeReportFixture(cand, nullptr, 2);  // every duration doubled
    measure::Ledger ledger = measure::parseLedger(
        "| Option | Measured | Why not taken | To take it |\n|---|---|---|---|\n| `max_unroll=4` | -2% | noise | - |\n",
        "l.md");
    report::ReportOptions options;
    options.ledger = &ledger;
    std::string html = reportOf({base, cand}, options);
    EXPECT_EQ(sectionCount(html, "comparison"), "1");
    EXPECT_EQ(html.find("data-verdict=\"refused\""), std::string::npos);
    EXPECT_NE(html.find("<tr class=\"cmp\" data-verdict=\"worse\"><td><code>module warp.sim</code>"), std::string::npos);
    EXPECT_EQ(countOf(html, "data-verdict=\"better\""), 0u);
    EXPECT_EQ(countOf(html, "<tr class=\"ledger-row\">"), 1u);
    EXPECT_NE(html.find("<code>`max_unroll=4`</code>"), std::string::npos);
}

TEST(Report, ChangedLaunchTopologyRefusesTheComparison) {
    test::TempDir dir;
    auto base = dir.file("base.cstrace"), cand = dir.file("cand.cstrace");
    test::writeReportFixture(base);
    test::writeReportFixture(cand, [](const std::string& kind, const std::string& def) {
        return kind == "kernel" ? def + "_v2" : def;
    });
    std::string html = reportOf({base, cand});
    EXPECT_NE(html.find("data-verdict=\"refused\""), std::string::npos);
    EXPECT_NE(html.find("saxpy grid(256,1,1) block(256,1,1): 3 launch(es) in baseline, 0 in candidate"), std::string::npos);
}

TEST(Report, ByteIdenticalAcrossRuns) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    test::writeReportFixture(path);
    EXPECT_EQ(reportOf({path}), reportOf({path}));
}

TEST(Report, FindingsRenderWithSeverityCostAndFix) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    test::writeReportFixture(path);
    auto reader = trace::TraceReader::open(path);
    report::ReportOptions options;
    auto t = report::collectTrace(engine::analyseTrace(*reader, {.timelineBuckets = options.timelineBuckets}), "A");
    t.findings.clear();  // only the two below: the engines' own findings of the fixture are tested elsewhere
    engine::Finding churn;
    churn.kind = "warp.identity_churn";
    churn.severity = engine::Severity::Warning;
    churn.title = "module warp.sim built under 3 hashes";
    churn.mechanism = "kernel set changed after load";
    churn.evidence = {{"module_loads", 3, "second hash 9f8e7d6"}};
    churn.costNs = 830000000;
    churn.fix = "define every kernel before the first launch";
    t.findings.push_back(churn);
    engine::Finding twice;
    twice.kind = "cache.compiled_twice";
    twice.severity = engine::Severity::Error;
    twice.title = "gradient compiled twice";
    t.findings.push_back(twice);
    std::string html = report::renderReport({t}, options);
    EXPECT_EQ(sectionCount(html, "findings"), "2");
    // Errors first, then by cost.
    EXPECT_LT(html.find("gradient compiled twice"), html.find("module warp.sim built under 3 hashes"));
    EXPECT_NE(html.find("<dd class=\"fix\">define every kernel before the first launch</dd>"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"cost\">830 ms</span>"), std::string::npos);
    EXPECT_NE(html.find("<code>module load 3</code> second hash 9f8e7d6"), std::string::npos);
}

// "Show the change" (docs/fix.md): a finding with a mechanical fix carries the change `compilescope fix`
// writes, in a closed <details> inside its own finding; a finding without one carries none.
TEST(Report, FixableFindingOffersShowTheChange) {
    test::TempDir dir;
    auto path = dir.file("t.cstrace");
    test::writeReportFixture(path);
    const std::string html = reportOf({path});
    std::vector<std::pair<std::string, std::string>> findings;  // kind, its <details> text up to the next finding
    for (size_t at = html.find("<details class=\"finding\""); at != std::string::npos;) {
        size_t next = html.find("<details class=\"finding\"", at + 1);
        std::smatch m;
        std::string block = html.substr(at, next == std::string::npos ? std::string::npos : next - at);
        ASSERT_TRUE(std::regex_search(block, m, std::regex("data-kind=\"([^\"]+)\"")));
        findings.emplace_back(m[1].str(), block);
        at = next;
    }
    bool tree = false;
    for (const auto& [kind, block] : findings) {
        const bool shown = block.find("<details class=\"fix-change\"") != std::string::npos;
        if (kind == "julia.invalidation_tree") {
            tree = true;
            EXPECT_TRUE(shown) << block;
            // The method to make more specific, and the tree as evidence, escaped inside the <pre>.
            EXPECT_NE(block.find("<summary>Show the change: make `show(io::IO, ::Type{&lt;:Tracker.TrackedReal})` more specific"),
                      std::string::npos) << block;
            EXPECT_TRUE(std::regex_search(block, std::regex("<pre class=\"change snippet\">[^<]*#   inserting show\\(io::IO, "
                                                            "::Type\\{&lt;:Tracker.TrackedReal\\}\\) @ Tracker lib.jl:96 invalidated:")))
                << block;
        } else if (kind.rfind("cache.", 0) == 0 || kind.rfind("trace.", 0) == 0) {
            EXPECT_FALSE(shown) << kind << " has no mechanical fix, yet shows a change";
        }
    }
    EXPECT_TRUE(tree) << "the fixture's invalidation tree is not a finding";
}
