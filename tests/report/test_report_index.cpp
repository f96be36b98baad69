// Issue 18: the report as tlparse shows compiles, and better. The index lists one row per compile
// and cache event; a miss's row links to details that name the moved component; evidence links to
// rows; no card overflows its width at 1000 and 1400 px (measured by the browser); the summary leads
// with the tiles of what the trace holds; `--split` writes an index page and a page per compile.
#include "chromium.h"
#include "cli_process.h"
#include "report_fixture.h"
#include "test_util.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/report/report.h"
#include "core/report/sha256.h"
#include "core/trace/reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

using namespace cs;
using cs::test::countOf;

namespace {

std::string demoTrace() { return test::sourceDir() + "/resources/demo/demo.cstrace"; }


std::string writeHtml(const test::TempDir& dir, const std::vector<std::string>& traces, const std::string& name) {
    std::ostringstream out;
    report::writeReport(traces, {}, out);
    test::writeFile(dir.file(name), out.str());
    return dir.file(name);
}

// Every compile and cache event the trace holds, counted by SQL of its own (not the engine's).
std::int64_t compileEvents(const std::string& trace) {
    auto r = trace::TraceReader::open(trace);
    std::int64_t n = 0;
    r->query("SELECT (SELECT count(*) FROM cache_lookups) + (SELECT count(*) FROM module_loads) + "
             "(SELECT count(*) FROM cuda_programs) + (SELECT count(*) FROM cuda_jit) + "
             "(SELECT count(*) FROM spans WHERE category IN (1, 2))",
             [&](const cs::trace::Row& st) { n = st.integer(0); });
    return n;
}

// The element with id `id` up to its closing tag (articles do not nest).
std::string elementById(const std::string& dom, const std::string& tag, const std::string& id) {
    auto at = dom.find("<" + tag + " class=\"compile-detail\" id=\"" + id + "\"");
    if (at == std::string::npos) return {};
    return dom.substr(at, dom.find("</" + tag + ">", at) - at);
}

// The report with a measuring script added (and allowed by hash in its CSP): it writes, on <html>,
// every card and detail block whose content is wider than its box, and the page's own overflow.
std::string withOverflowProbe(const std::string& html) {
    static constexpr char kProbe[] =
        "(function(){var bad=[];"
        "document.querySelectorAll('section.card, article.compile-detail, div.metric').forEach(function(c){"
        "if(c.scrollWidth>c.clientWidth+1)bad.push((c.id||c.className)+':'+c.scrollWidth+'>'+c.clientWidth);});"
        "var d=document.documentElement;if(d.scrollWidth>window.innerWidth)bad.push('page:'+d.scrollWidth+'>'+window.innerWidth);"
        "d.setAttribute('data-overflow',bad.length?bad.join(' '):'none');"
        "d.setAttribute('data-width',String(window.innerWidth));})();";
    std::string out = html;
    auto csp = out.find("script-src");
    EXPECT_NE(csp, std::string::npos);
    out.insert(csp + std::string("script-src").size(), " '" + report::cspHash(kProbe) + "'");
    out.insert(out.rfind("</body>"), std::string("<script>") + kProbe + "</script>");
    return out;
}

std::string attr(const std::string& dom, const std::string& name) {
    std::smatch m;
    return std::regex_search(dom, m, std::regex(name + "=\"([^\"]*)\"")) ? m[1].str() : "absent";
}

// The label of the summary's first tile.
std::string firstTile(const std::string& html) {
    std::smatch m;
    return std::regex_search(html, m, std::regex("<div class=\"metric[^\"]*\"><div class=\"value\"[^>]*>[^<]*</div><div class=\"label\">([^<]*)</div>"))
               ? m[1].str()
               : "none";
}

std::string import(const test::TempDir& dir, const std::vector<std::string>& inputs, const std::string& name) {
    // `compilescope import` as a process: this test links the report layer, not the importers.
    std::vector<std::string> args{"import"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    args.insert(args.end(), {"-o", dir.file(name)});
    const auto r = test::process::runCli(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return dir.file(name);
}
}  // namespace

TEST(ReportIndex, EngineListsEveryCompileOnlyWhenAsked) {
    auto plain = engine::analyseTraceFile(demoTrace());
    EXPECT_EQ(plain->compileIndex.total, 0) << "the GUI's load must not pay for the index";
    auto a = engine::analyseTraceFile(demoTrace(), {.compileIndexRows = 1000});
    EXPECT_EQ(a->compileIndex.total, compileEvents(demoTrace()));
    EXPECT_EQ(a->compileIndex.entries.size(), static_cast<size_t>(a->compileIndex.total));
    // Rows are in time order, each names its session as the GUI does ("numba pid 32166").
    bool numba = false;
    for (size_t i = 1; i < a->compileIndex.entries.size(); ++i)
        EXPECT_LE(a->compileIndex.entries[i - 1].startNs.value_or(0), a->compileIndex.entries[i].startNs.value_or(0));
    for (const auto& e : a->compileIndex.entries) numba |= e.session.rfind("numba pid ", 0) == 0;
    EXPECT_TRUE(numba);
}

TEST(ReportIndex, ARowLimitKeepsMissesAndCompilesFirst) {
    test::TempDir dir;
    auto trace = dir.file("fixture.cstrace");
    test::writeReportFixture(trace);
    auto a = engine::analyseTraceFile(trace, {.compileIndexRows = 6});
    const auto& index = a->compileIndex;
    EXPECT_EQ(index.total, compileEvents(trace));
    ASSERT_EQ(index.entries.size(), 6u);
    for (const auto& e : index.entries)
        EXPECT_TRUE(e.outcome == engine::CompileOutcome::Miss || e.outcome == engine::CompileOutcome::Compiled)
            << e.kind << " " << e.rowId << " " << engine::outcomeName(e.outcome);
    std::ostringstream out;
    report::ReportOptions options;
    options.compileIndexRows = 6;
    report::writeReport({trace}, options, out);
    EXPECT_NE(out.str().find(std::to_string(index.total - 6) + " more events are counted above but not listed"),
              std::string::npos);
}

TEST(ReportIndex, DemoIndexHasOneRowPerCompileAndLookup) {
    REQUIRE_CHROMIUM();
    test::TempDir dir;
    auto html = writeHtml(dir, {demoTrace()}, "demo.html");
    auto run = test::runChromium(html, "--dump-dom", dir);
    ASSERT_EQ(run.status, 0) << run.log;
    EXPECT_TRUE(run.console.empty()) << test::consoleText(run);
    const std::string& dom = run.out;
    ASSERT_NE(dom.find("data-ready=\"1\""), std::string::npos);
    const std::int64_t events = compileEvents(demoTrace());
    auto lookups = trace::TraceReader::open(demoTrace())->rowCount("cache_lookups");
    ASSERT_GT(lookups, 10);
    EXPECT_EQ(countOf(dom, "<tr class=\"compile\""), static_cast<size_t>(events));
    EXPECT_EQ(countOf(dom, "<tr class=\"compile\" data-outcome=\"hit\"") + countOf(dom, "<tr class=\"compile\" data-outcome=\"miss\""),
              static_cast<size_t>(lookups));
    EXPECT_NE(dom.find("<section id=\"compiles\" data-count=\"" + std::to_string(events) + "\""), std::string::npos);
    EXPECT_EQ(countOf(dom, "<article class=\"compile-detail\""), static_cast<size_t>(events));
    // The script built the filter and one chip per outcome.
    EXPECT_EQ(countOf(dom, "class=\"index-filter\""), 1u);
    EXPECT_GE(countOf(dom, "<button type=\"button\" class=\"chip on oc-"), 3u);
    // Lanes and sessions are named as the GUI names them, never "session 2".
    std::int64_t numbaPid = 0;
    trace::TraceReader::open(demoTrace())->query(
        "SELECT se.pid FROM sessions se JOIN strings s ON s.id = se.runtime_sid WHERE s.str = 'numba' ORDER BY se.id LIMIT 1",
        [&](const cs::trace::Row& st) { numbaPid = st.integer(0); });
    ASSERT_GT(numbaPid, 0);
    EXPECT_NE(dom.find("numba pid " + std::to_string(numbaPid)), std::string::npos);
    EXPECT_EQ(dom.find("(session 2)"), std::string::npos);
}

TEST(ReportIndex, FollowingAMissLinkShowsTheMovedComponent) {
    REQUIRE_CHROMIUM();
    test::TempDir dir;
    auto trace = dir.file("fixture.cstrace");
    test::writeReportFixture(trace);
    auto html = writeHtml(dir, {trace}, "fixture.html");
    auto run = test::runChromium(html, "--dump-dom", dir);
    ASSERT_EQ(run.status, 0) << run.log;
    EXPECT_TRUE(run.console.empty()) << test::consoleText(run);
    const std::string& dom = run.out;
    // Every miss row links to its details; the gradient miss of step 3 shows its shape moving.
    std::regex missRow("<tr class=\"compile\" data-outcome=\"miss\"[^>]*>.*?<a href=\"#([A-Za-z0-9-]+)\">");
    size_t misses = 0, moved = 0;
    for (auto m = std::sregex_iterator(dom.begin(), dom.end(), missRow); m != std::sregex_iterator(); ++m) {
        ++misses;
        const std::string target = elementById(dom, "article", (*m)[1].str());
        ASSERT_FALSE(target.empty()) << "the link #" << (*m)[1].str() << " leads nowhere";
        EXPECT_NE(target.find("data-outcome=\"miss\""), std::string::npos);
        if (target.find("<code class=\"component\">shape of arg 2</code>: <span class=\"before\">128x64</span> \xE2\x86\x92 "
                        "<span class=\"after\">100x64</span>") != std::string::npos) {
            ++moved;
            // It names the entry it was compared with, as a link to that lookup's details.
            std::smatch against;
            ASSERT_TRUE(std::regex_search(target, against, std::regex("compared with</dt><dd><a href=\"#([A-Za-z0-9-]+)\"")));
            EXPECT_FALSE(elementById(dom, "article", against[1].str()).empty());
        }
    }
    EXPECT_EQ(misses, 4u);
    EXPECT_EQ(moved, 1u);
    // Evidence of findings links to the rows the index lists, and each target exists.
    std::regex evidence("<a class=\"evidence\" href=\"#([A-Za-z0-9-]+)\">");
    size_t links = 0;
    for (auto m = std::sregex_iterator(dom.begin(), dom.end(), evidence); m != std::sregex_iterator(); ++m, ++links)
        EXPECT_NE(dom.find("id=\"" + (*m)[1].str() + "\""), std::string::npos) << (*m)[1].str();
    EXPECT_GT(links, 3u);
    // Every section leads back to the index.
    EXPECT_GE(countOf(dom, "<a class=\"up\" href=\"#compiles\">"), 8u);
}

TEST(ReportIndex, NoCardOverflowsAt1000And1400Pixels) {
    REQUIRE_CHROMIUM();
    test::TempDir dir;
    auto fixture = dir.file("fixture.cstrace");
    test::writeReportFixture(fixture);
    for (const auto& [name, trace] : {std::pair{"demo", demoTrace()}, std::pair{"fixture", fixture}}) {
        auto html = dir.file(std::string(name) + "-probe.html");
        test::writeFile(html, withOverflowProbe(test::readFile(writeHtml(dir, {trace}, std::string(name) + ".html"))));
        for (const char* width : {"1000", "1400"}) {
            SCOPED_TRACE(std::string(name) + " at " + width + " px");
            auto run = test::runChromium(html, "--dump-dom", dir, std::string(width) + ",3000");
            ASSERT_EQ(run.status, 0) << run.log;
            EXPECT_TRUE(run.console.empty()) << test::consoleText(run);
            EXPECT_EQ(attr(run.out, "data-width"), width) << "the probe did not run";
            EXPECT_EQ(attr(run.out, "data-overflow"), "none");
        }
    }
}

TEST(ReportIndex, TheProbeSeesAnOverflowingCard) {
    REQUIRE_CHROMIUM();
    test::TempDir dir;
    auto fixture = dir.file("fixture.cstrace");
    test::writeReportFixture(fixture);
    // The control: without the scrolling wrappers, the index's unbreakable cells do overflow a
    // 700 px page, and the probe says so.
    std::string html = test::readFile(writeHtml(dir, {fixture}, "fixture.html"));
    html = std::regex_replace(html, std::regex("<div class=\"scroll\">"), "<div class=\"noscroll\">");
    test::writeFile(dir.file("control.html"), withOverflowProbe(html));
    auto run = test::runChromium(dir.file("control.html"), "--dump-dom", dir, "700,3000");
    ASSERT_EQ(run.status, 0) << run.log;
    EXPECT_NE(attr(run.out, "data-overflow").find("compiles:"), std::string::npos) << attr(run.out, "data-overflow");
}

TEST(ReportIndex, EachKindOfTraceLeadsWithItsOwnTiles) {
    test::TempDir dir;
    const std::string demo = test::sourceDir() + "/resources/demo/";
    auto tef = dir.file("clang.json");
    test::writeFile(tef, R"({"traceEvents":[
{"pid":1,"tid":1,"ph":"X","ts":0,"dur":9000,"name":"ExecuteCompiler"},
{"pid":1,"tid":1,"ph":"X","ts":10,"dur":6000,"name":"Frontend"},
{"pid":1,"tid":1,"ph":"X","ts":20,"dur":3000,"name":"Source","args":{"detail":"/usr/include/c++/12/vector"}},
{"pid":1,"tid":1,"ph":"X","ts":6100,"dur":2800,"name":"Backend"},
{"pid":1,"tid":1,"ph":"X","ts":6200,"dur":2000,"name":"OptModule","args":{"detail":"writer.cpp"}},
{"pid":1,"tid":0,"ph":"X","ts":0,"dur":6000,"name":"Total Frontend","args":{"count":1,"avg ms":6}}
],"beginningOfTime":1700000000000000})");
    const std::pair<std::string, std::string> cases[] = {
        {import(dir, {demo + "warp-verbose.log"}, "warp.cstrace"), "modules compiled"},
        {import(dir, {demo + "julia-enzyme.txt"}, "julia.cstrace"), "invalidation trees"},
        {import(dir, {tef}, "tef.cstrace"), "compiler phases"},
        {demoTrace(), "cache misses (replayed)"},
    };
    for (const auto& [trace, label] : cases) {
        std::ostringstream out;
        report::writeReport({trace}, {}, out);
        EXPECT_EQ(firstTile(out.str()), label) << trace;
        // No tile that shows nothing happened comes first.
        EXPECT_LT(out.str().find("<div class=\"metric\">"), out.str().find("<div class=\"metric zero\">"));
    }
}

TEST(ReportIndex, SplitWritesAnIndexAndAPagePerCompile) {
    test::TempDir dir;
    auto trace = dir.file("fixture.cstrace");
    test::writeReportFixture(trace);
    auto out = dir.file("split");
    auto r = test::process::runCli({"report", trace, "--split", out});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string index = test::readFile(out + "/index.html");
    const std::int64_t events = compileEvents(trace);
    EXPECT_EQ(countOf(index, "<tr class=\"compile\""), static_cast<size_t>(events));
    EXPECT_EQ(countOf(index, "<article class=\"compile-detail\""), 0u);
    std::regex link("<a href=\"(compiles/[A-Za-z0-9-]+\\.html)\">");
    size_t pages = 0;
    for (auto m = std::sregex_iterator(index.begin(), index.end(), link); m != std::sregex_iterator(); ++m, ++pages) {
        const std::string page = test::readFile(out + "/" + (*m)[1].str());
        ASSERT_FALSE(page.empty()) << (*m)[1].str();
        EXPECT_EQ(countOf(page, "<article class=\"compile-detail\""), 1u);
        EXPECT_NE(page.find("script-src &#39;none&#39;"), std::string::npos);
        EXPECT_NE(page.find("href=\"../index.html#compiles\""), std::string::npos);
    }
    EXPECT_EQ(pages, static_cast<size_t>(events));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(out + "/compiles"), std::filesystem::directory_iterator()),
              events);
    // -o and --split exclude each other.
    EXPECT_EQ(test::process::runCli({"report", trace, "--split", out, "-o", dir.file("x.html")}).status, 2);
}
