// Hostile names: every user-derived text of a trace replaced by attacks on each HTML context (text,
// attribute, script data, SVG <title>, URL), then the report opened in Chromium. Each payload would
// change document.title or write "PWNED" to the console if it ran. Checked twice: as written (with
// the Content-Security-Policy), and with the CSP removed, so the escaping alone is proven too.
#include "chromium.h"
#include "report_fixture.h"
#include "test_util.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/report/report.h"
#include "core/trace/reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

using namespace cs;
using cs::test::countOf;

namespace {
template <size_t N>
std::string withNul(const char (&s)[N]) {
    return std::string(s, N - 1);
}

const std::vector<std::string>& corpus() {
    static const std::vector<std::string> c = {
        "</script><script>document.title='PWNED';console.log('PWNED-1')</script>",
        "<img src=x onerror=\"document.title='PWNED';console.log('PWNED-2')\">",
        "\"><svg onload=\"console.log('PWNED-3')\"></svg>",
        "'><script>console.log('PWNED-4')</script>",
        "\"];document.title='PWNED';console.log('PWNED-5');//\xE2\x80\xA8\xE2\x80\xA9",
        "javascript:console.log('PWNED-6')",
        "</title></text></svg><script>console.log('PWNED-7')</script>",
        "<!--<script>console.log('PWNED-8')</script>-->",
        "</style><style>*{display:none}</style><script>console.log('PWNED-9')</script>",
        "<a href=\"javascript:console.log('PWNED-10')\">x</a>",
        std::string(100000, 'L') + "<script>console.log('PWNED-11')</script>",
        withNul("\xff\xfe<scr\0ipt>console.log('PWNED-12')</script>"),
        "]]><script>console.log('PWNED-13')</script>",
        "<iframe srcdoc=\"<script>parent.console.log('PWNED-14')</script>\"></iframe>",
    };
    return c;
}

// Cycles through the corpus, so every column gets a different attack; names stay distinct.
test::Labeler hostile() {
    auto n = std::make_shared<size_t>(0);
    return [n](const std::string&, const std::string& def) { return corpus()[(*n)++ % corpus().size()] + def; };
}

report::TraceReport hostileTrace(const test::TempDir& dir, report::ReportOptions& options) {
    // The file name is hostile too: it is shown in the header.
    auto path = dir.file("<img src=x onerror=console.log('PWNED-15')>.cstrace");
    test::writeReportFixture(path, hostile());
    auto reader = trace::TraceReader::open(path);
    options.title = corpus()[0];
    auto t = report::collectTrace(engine::analyseTrace(*reader, {.timelineBuckets = options.timelineBuckets,
                                                                 .compileIndexRows = options.compileIndexRows}),
                                  "A");
    for (const auto& attack : corpus()) {
        engine::Finding f;
        f.kind = f.title = f.mechanism = f.fix = attack;
        f.evidence = {{attack, 1, attack}};
        f.costNs = 5;
        t.findings.push_back(f);
    }
    return t;
}

std::string hostileReport(const test::TempDir& dir) {
    report::ReportOptions options;
    auto t = hostileTrace(dir, options);
    std::string html = report::renderReport({t}, options);
    auto out = dir.file("hostile.html");
    test::writeFile(out, html);
    return out;
}

// What an attack that ran, or an element it created, leaves in Chromium's DOM dump and console.
std::vector<std::string> signsOfInjection(const test::ChromiumRun& run, size_t scripts = 2) {
    std::vector<std::string> signs;
    const std::string& dom = run.out;
    for (const auto& line : run.console)
        if (line.find("PWNED") != std::string::npos) signs.push_back("console: " + line);
    std::smatch m;
    if (std::regex_search(dom, m, std::regex("<title>([^<]*)</title>")) && m[1].str() == "PWNED")
        signs.push_back("document.title was set");
    if (countOf(dom, "<script") != scripts) signs.push_back(std::to_string(countOf(dom, "<script")) + " <script> elements");
    // Chromium's serialiser writes '<' as &lt; in text and in attribute values, so a literal '<' starts
    // a real element.
    for (auto tag : {"<img", "<iframe", "<svg onload", "<a href=\"javascript", "<style>*"})
        if (dom.find(tag) != std::string::npos) signs.push_back(std::string("element ") + tag);
    // Every attribute of every real element: no event handler, no URL other than a #fragment.
    std::regex tagRe("<([a-zA-Z][a-zA-Z0-9-]*)((?:\\s+[^\\s=>]+(?:=\"[^\"]*\")?)*)\\s*/?>");
    std::regex attrRe("\\s([^\\s=>]+)(?:=\"([^\"]*)\")?");
    // A page of a split report: a relative name in the same folder or one level up, never a URL.
    std::regex pageLink("(\\.\\./)?([A-Za-z0-9_-]+/)?[A-Za-z0-9_-]+\\.html(#[A-Za-z0-9_-]+)?");
    for (auto t = std::sregex_iterator(dom.begin(), dom.end(), tagRe); t != std::sregex_iterator(); ++t) {
        std::string attrs = (*t)[2].str();
        for (auto a = std::sregex_iterator(attrs.begin(), attrs.end(), attrRe); a != std::sregex_iterator(); ++a) {
            std::string name = (*a)[1].str(), value = (*a)[2].str();
            bool url = name == "src" || name == "srcdoc" || name == "action" || name == "formaction" ||
                       name == "xlink:href" || name == "poster" ||
                       (name == "href" && value.rfind("#", 0) != 0 && !std::regex_match(value, pageLink));
            if (name.rfind("on", 0) == 0 || url) signs.push_back("<" + (*t)[1].str() + " " + name + "=" + value);
        }
    }
    return signs;
}

void expectNothingRan(const test::ChromiumRun& run, const std::string& what) {
    ASSERT_EQ(run.status, 0) << run.log;
    const std::string& dom = run.out;
    // Kept for a person to read when this fails.
    test::writeFile(std::string(COMPILESCOPE_BINARY_DIR) + "/report-hostile-" + (what == "with CSP" ? "csp" : "nocsp") +
                        ".dom.html",
                    dom);
    for (const auto& sign : signsOfInjection(run)) ADD_FAILURE() << what << ": " << sign;
    // The page's own script still ran; the title is the (hostile) title as text.
    EXPECT_NE(dom.find("data-ready=\"1\""), std::string::npos) << what;
    EXPECT_NE(dom.find("<title>&lt;/script&gt;&lt;script&gt;document.title='PWNED'"), std::string::npos) << what;
    // The attacks are on the page as text.
    EXPECT_GT(countOf(dom, "&lt;/script&gt;&lt;script&gt;document.title="), 5u) << what;
    EXPECT_NE(dom.find("&lt;img src=x onerror="), std::string::npos) << what;
}

std::string withoutCsp(const std::string& html) {
    std::regex meta("<meta http-equiv=\"Content-Security-Policy\"[^>]*>");
    EXPECT_TRUE(std::regex_search(html, meta));
    return std::regex_replace(html, meta, "");
}
}  // namespace

TEST(ReportHostile, NoPayloadRunsWithTheCsp) {
    if (test::chromiumPath().empty())
        GTEST_SKIP() << "no Chromium at /usr/bin/chromium (or $COMPILESCOPE_CHROMIUM); packaging/install-deps.sh installs it";
    test::TempDir dir;
    auto html = hostileReport(dir);
    auto run = test::runChromium(html, "--dump-dom", dir);
    expectNothingRan(run, "with CSP");
    // With the CSP, a payload that tried to run would also leave a violation message: there is none.
    EXPECT_TRUE(run.console.empty()) << run.console.size() << " console message(s), first: "
                                     << (run.console.empty() ? "" : run.console[0]);
}

TEST(ReportHostile, NoPayloadRunsWithoutTheCspEither) {
    if (test::chromiumPath().empty())
        GTEST_SKIP() << "no Chromium at /usr/bin/chromium (or $COMPILESCOPE_CHROMIUM); packaging/install-deps.sh installs it";
    test::TempDir dir;
    auto html = hostileReport(dir);
    test::writeFile(html, withoutCsp(test::readFile(html)));
    auto run = test::runChromium(html, "--dump-dom", dir);
    expectNothingRan(run, "without CSP");
    EXPECT_TRUE(run.console.empty()) << run.console[0];
}

// The control: the same checks do see a payload that was written unescaped, and it does run.
TEST(ReportHostile, TheChecksCatchAnUnescapedPayload) {
    if (test::chromiumPath().empty())
        GTEST_SKIP() << "no Chromium at /usr/bin/chromium (or $COMPILESCOPE_CHROMIUM); packaging/install-deps.sh installs it";
    test::TempDir dir;
    auto html = hostileReport(dir);
    std::string text = withoutCsp(test::readFile(html));
    text.replace(text.find("</main>"), 0, "<img src=x onerror=\"document.title='PWNED';console.log('PWNED-control')\">");
    test::writeFile(html, text);
    auto run = test::runChromium(html, "--dump-dom", dir);
    ASSERT_EQ(run.status, 0) << run.log;
    auto signs = signsOfInjection(run);
    std::string all;
    for (const auto& s : signs) all += s + "\n";
    EXPECT_NE(all.find("PWNED-control"), std::string::npos) << all;
    EXPECT_NE(all.find("document.title was set"), std::string::npos) << all;
    EXPECT_NE(all.find("element <img"), std::string::npos) << all;
    EXPECT_NE(all.find("<img onerror="), std::string::npos) << all;
}

TEST(ReportHostile, LongNamesAreCutAndTheFileStaysSmall) {
    test::TempDir dir;
    auto html = test::readFile(hostileReport(dir));
    // 100 000-character names appear many times in the trace; the report keeps at most 4096 of them
    // per title attribute and a short cut in the text.
    auto at = html.find(std::string(4097, 'L'));
    EXPECT_EQ(at, std::string::npos) << html.substr(at < 300 ? 0 : at - 300, 300);
    EXPECT_LT(html.size(), 2000000u);
}

// `report --split`: the index page and every compile's page, each under the same rules. The detail
// pages carry no script at all (script-src 'none').
TEST(ReportHostile, NoPayloadRunsInTheSplitPages) {
    if (test::chromiumPath().empty())
        GTEST_SKIP() << "no Chromium at /usr/bin/chromium (or $COMPILESCOPE_CHROMIUM); packaging/install-deps.sh installs it";
    test::TempDir dir;
    report::ReportOptions options;
    auto t = hostileTrace(dir, options);
    auto pages = report::renderReportPages({t}, options);
    ASSERT_GT(pages.size(), 10u);
    std::filesystem::create_directories(dir.file("split/compiles"));
    size_t checked = 0, attacksShown = 0;
    for (const auto& page : pages) {
        SCOPED_TRACE(page.path);
        const std::string path = dir.file("split/" + page.path);
        test::writeFile(path, page.html);
        const bool index = page.path == "index.html";
        auto run = test::runChromium(path, "--dump-dom", dir);
        ASSERT_EQ(run.status, 0) << run.log;
        for (const auto& sign : signsOfInjection(run, index ? 2 : 0)) ADD_FAILURE() << sign;
        EXPECT_TRUE(run.console.empty()) << run.console.size() << " console message(s), first: "
                                         << (run.console.empty() ? "" : run.console[0]);
        if (index) {
            EXPECT_NE(run.out.find("data-ready=\"1\""), std::string::npos);
        }
        attacksShown += run.out.find("&lt;/script&gt;&lt;script&gt;document.title=") != std::string::npos;
        ++checked;
    }
    EXPECT_EQ(checked, pages.size());
    EXPECT_EQ(attacksShown, pages.size()) << "every page shows the hostile title as text";
}
