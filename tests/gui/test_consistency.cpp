// One analysis, one set of numbers: the CLI's `info --json`, the GUI's Overview and the report's data
// block give the same compile time, cache-load time, time span, acceptance verdict, finding count and
// module identity counts for every kind of trace the suite builds, and for the bundled demo.
//
// Also: each analysis runs once per GUI load and once per report (engine/common/analysis_counters.h).
#include "gui_test_util.h"

#include "app/gui/main_window.h"
#include "app/models/text.h"
#include "app/widgets/overview_view.h"
#include "app/widgets/timeline_view.h"
#include "cli_runner.h"
#include "core/engine/common/analysis_counters.h"
#include "core/ingest/import_files.h"
#include "core/report/report.h"
#include "core/trace/writer.h"
#include "core/util/json_reader.h"
#include "demo_trace_builder.h"
#include "report/report_fixture.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

using namespace cs;

namespace {

struct Figures {
    std::int64_t compileNs = -1, cacheLoadNs = -1, spanNs = -1, findings = -1, moduleNames = -1, repeated = -1;
    std::string verdict;
};

std::int64_t integer(const util::JsonValue& o, const char* key) {
    const util::JsonValue* v = o.get(key);
    EXPECT_TRUE(v && v->isNumber()) << key;
    return v && v->isNumber() ? static_cast<std::int64_t>(std::stoll(v->str)) : -2;
}

Figures fromCli(const std::string& trace) {
    auto r = test::runCli({"info", trace, "--json"});
    EXPECT_EQ(r.status, 0) << r.err;
    auto j = util::parseJson(r.out);
    Figures f;
    f.compileNs = integer(j, "compile_ns");
    f.cacheLoadNs = integer(j, "cache_load_ns");
    f.spanNs = integer(j, "time_span_ns");
    f.findings = integer(j, "findings");
    f.moduleNames = integer(j, "module_names");
    f.repeated = integer(j, "repeated_modules");
    f.verdict = j.get("acceptance")->str;
    return f;
}

Figures fromReport(const std::string& trace) {
    std::ostringstream out;
    report::writeReport({trace}, {}, out);
    const std::string html = out.str();
    const std::string open = "<script type=\"application/json\" id=\"report-data\">";
    auto at = html.find(open);
    EXPECT_NE(at, std::string::npos);
    auto end = html.find("</script>", at);
    auto j = util::parseJson(std::string_view(html).substr(at + open.size(), end - at - open.size()));
    const util::JsonValue& t = j.get("traces")->items.at(0);
    Figures f;
    f.compileNs = integer(t, "compile_ns");
    f.cacheLoadNs = integer(t, "cache_load_ns");
    f.spanNs = integer(t, "time_span_ns");
    f.findings = static_cast<std::int64_t>(t.get("findings")->items.size());
    f.moduleNames = integer(t, "module_names");
    f.repeated = integer(t, "repeated_module_names");
    f.verdict = t.get("acceptance")->str;
    return f;
}

// The GUI: the Overview's figures and headline of the loaded document.
Figures fromGui(const std::string& trace, QString* headline) {
    gui::MainWindow window;
    window.resize(1000, 700);
    window.openTraces({QString::fromStdString(trace)});
    EXPECT_TRUE(test::waitFor([&] { return !window.isLoading(); })) << "loading did not finish";
    const gui::TraceDocument& doc = window.documents().at(0);
    Figures f;
    if (!doc.summary || !doc.analyses || !doc.analyses->trace || !doc.findings) {
        ADD_FAILURE() << "the GUI did not publish every stage for " << trace;
        return f;
    }
    const auto& a = *doc.analyses->trace;
    f.compileNs = doc.summary->compileNs;
    f.cacheLoadNs = doc.summary->cacheLoadNs;
    f.spanNs = doc.summary->spanNs();
    f.findings = static_cast<std::int64_t>(doc.findings->size());
    f.moduleNames = a.moduleNames();
    f.repeated = a.repeatedModules();
    f.verdict = engine::verdictName(a.verdict.state);
    *headline = window.overview()->headline();
    return f;
}

void expectSame(const Figures& a, const Figures& b, const std::string& what) {
    EXPECT_EQ(a.compileNs, b.compileNs) << what << ": compile time";
    EXPECT_EQ(a.cacheLoadNs, b.cacheLoadNs) << what << ": cache-load time";
    EXPECT_EQ(a.spanNs, b.spanNs) << what << ": time span";
    EXPECT_EQ(a.verdict, b.verdict) << what << ": acceptance verdict";
    EXPECT_EQ(a.findings, b.findings) << what << ": findings";
    EXPECT_EQ(a.moduleNames, b.moduleNames) << what << ": module names";
    EXPECT_EQ(a.repeated, b.repeated) << what << ": repeated module names";
}

std::string demoSource(const std::string& name) { return std::string(COMPILESCOPE_SOURCE_DIR) + "/resources/demo/" + name; }

std::string import(const test::TempDir& dir, const std::vector<std::string>& inputs, const std::string& name) {
    ingest::importFiles({.inputs = inputs, .output = dir.file(name), .forcedFormat = "", .overwrite = false});
    return dir.file(name);
}

// Runtime counters without lookups: judged from the counters (misses 3 != entries 2: fail).
std::string countersOnly(const test::TempDir& dir) {
    const std::string path = dir.file("counters.cstrace");
    trace::TraceWriter w(path, {});
    auto s = w.addSession({.runtime = w.intern("julia"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = 1000});
    for (auto [name, value] : {std::pair{"hits", 5}, {"misses", 3}, {"entries", 2}})
        w.addCounter({.sessionId = s, .tsNs = 2000, .scope = w.intern("ReactantNitro.cache_stats"), .name = w.intern(name),
                      .value = value});
    w.endSession(s, 5000, 0);
    w.finalize();
    return path;
}

struct Case {
    std::string name, path;
};

std::string dataFile(const std::string& rel) { return std::string(COMPILESCOPE_SOURCE_DIR) + "/tests/data/" + rel; }

bool shell(const std::string& cmd, const std::string& log) {
    const bool ok = std::system((cmd + " > " + log + " 2>&1").c_str()) == 0;
    if (!ok) ADD_FAILURE() << cmd << "\n" << test::readFile(log);
    return ok;
}

// Traces that real compilers write here: a clang time trace, an nvcc device time trace, NVRTC's own
// time trace, and a recording (`record --cuda`) of a real NVRTC + nvJitLink program. Each is skipped
// with a printed reason when its tool is missing.
void compilerTraces(const test::TempDir& dir, std::vector<Case>& c) {
    const char* clang = "/usr/bin/clang++";
    if (std::filesystem::exists(clang)) {
        test::writeFile(dir.file("c.cpp"), "#include <map>\nint main() { std::map<int, int> m; m[1] = 2; return (int)m.size(); }\n");
        if (shell(std::string(clang) + " -ftime-trace -c " + dir.file("c.cpp") + " -o " + dir.file("c.o"), dir.file("clang.log")))
            c.push_back({"clang time trace (TEF only)", import(dir, {dir.file("c.json")}, "clang.cstrace")});
    } else {
        std::printf("[ skipped case ] clang time trace: %s not installed\n", clang);
    }
    // A whole build: two files' time traces placed at their beginningOfTime, and the .ninja_log.
    const char* ninja = "/usr/bin/ninja";
    if (std::filesystem::exists(clang) && std::filesystem::exists(ninja)) {
        test::writeFile(dir.file("b1.cpp"), "#include <map>\nint b1() { std::map<int, int> m; m[1] = 2; return (int)m.size(); }\n");
        test::writeFile(dir.file("b2.cpp"), "#include <map>\nint b2() { std::map<int, long> m; m[1] = 2; return (int)m.size(); }\n");
        test::writeFile(dir.file("build.ninja"), std::string("rule cxx\n  command = ") + clang +
                                                   " -O1 -ftime-trace -c $in -o $out\nbuild obj/b1.o: cxx b1.cpp\n"
                                                   "build obj/b2.o: cxx b2.cpp\n");
        if (shell("cd " + dir.path().string() + " && " + ninja, dir.file("ninja.log")))
            c.push_back({"clang build (time traces + .ninja_log)",
                         import(dir, {dir.file("obj/b1.json"), dir.file("obj/b2.json"), dir.file(".ninja_log")}, "build.cstrace")});
    } else {
        std::printf("[ skipped case ] clang build: %s or %s not installed\n", clang, ninja);
    }
    const char* nvcc = "/usr/local/cuda/bin/nvcc";
    if (std::filesystem::exists(nvcc)) {
        test::writeFile(dir.file("k.cu"), "__global__ void add(float* a, const float* b, int n) {\n"
                                          "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += b[i]; }\n");
        if (shell(std::string(nvcc) + " -c -arch=sm_90 -fdevice-time-trace " + dir.file("k.trace") + " -o " + dir.file("k.o") + " " +
                      dir.file("k.cu"),
                  dir.file("nvcc.log")))
            c.push_back({"nvcc device time trace", import(dir, {dir.file("k.trace.json")}, "nvcc.cstrace")});
    } else {
        std::printf("[ skipped case ] nvcc device time trace: %s not installed\n", nvcc);
    }
#if defined(COMPILESCOPE_NVRTC_DEMO) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    const std::string demo = COMPILESCOPE_NVRTC_DEMO;
    if (shell(demo + " --time-trace " + dir.file("nvrtc-tt"), dir.file("nvrtc-tt.log")))
        c.push_back({"NVRTC time trace", import(dir, {dir.file("nvrtc-tt.json")}, "nvrtc-tt.cstrace")});
    const std::string recorded = dir.file("nvrtc-recorded.cstrace");
    if (shell(std::string(COMPILESCOPE_CLI) + " record --cuda -o " + recorded + " -- " + demo, dir.file("record.log")))
        c.push_back({"recorded NVRTC + nvJitLink (record --cuda)", recorded});
#else
    std::printf("[ skipped case ] NVRTC traces: NVRTC / nvJitLink not found at configure time, or a sanitizer build\n");
#endif
}

std::vector<Case> traces(const test::TempDir& dir) {
    std::vector<Case> c;
    c.push_back({"bundled demo", demoSource("demo.cstrace")});
    test::demo::writeDemoTrace(dir.file("gui-demo.cstrace"));
    c.push_back({"GUI demo trace", dir.file("gui-demo.cstrace")});
    test::writeReportFixture(dir.file("fixture.cstrace"));
    c.push_back({"report fixture", dir.file("fixture.cstrace")});
    c.push_back({"Warp verbose log", import(dir, {demoSource("warp-verbose.log")}, "warp.cstrace")});
    c.push_back({"Julia printout", import(dir, {demoSource("julia-enzyme.txt")}, "julia.cstrace")});
    c.push_back({"recorded + imported", import(dir, {dir.file("gui-demo.cstrace"), demoSource("warp-verbose.log")}, "merged.cstrace")});
    c.push_back({"counters only", countersOnly(dir)});
    // The importers' own test inputs, shaped as the tools print them: every file of these folders.
    std::vector<std::string> inputs = {"warp/diagnosis/identity_churn/run.log", "warp/diagnosis/cache_not_reused/1-cold.log",
                                       "warp/diagnosis/block_dim_variants/run.log"};
    for (const char* folder : {"julia", "warp/real", "torch", "jax"}) {
        std::vector<std::string> files;
        for (const auto& e : std::filesystem::directory_iterator(dataFile(folder))) {
            const std::string name = e.path().filename().string();
            if (e.is_regular_file() && !name.ends_with(".md") && !name.ends_with(".expected.txt"))
                files.push_back(std::string(folder) + "/" + name);
        }
        std::sort(files.begin(), files.end());
        inputs.insert(inputs.end(), files.begin(), files.end());
    }
    for (const std::string& f : inputs) {
        std::string out = f;
        for (char& ch : out)
            if (ch == '/') ch = '-';
        c.push_back({f, import(dir, {dataFile(f)}, out + ".cstrace")});
    }
    compilerTraces(dir, c);
    return c;
}

}  // namespace

TEST(OneAnalysis, CliGuiAndReportAgreeOnEveryTrace) {
    test::TempDir dir;
    for (const Case& c : traces(dir)) {
        SCOPED_TRACE(c.name);
        Figures cli = fromCli(c.path), report = fromReport(c.path);
        QString headline;
        Figures gui = fromGui(c.path, &headline);
        std::printf("[ case ] %-45s compile %lld ns, loads %lld ns, span %lld ns, %lld findings, %s\n", c.name.c_str(),
                    static_cast<long long>(cli.compileNs), static_cast<long long>(cli.cacheLoadNs),
                    static_cast<long long>(cli.spanNs), static_cast<long long>(cli.findings), cli.verdict.c_str());
        expectSame(cli, report, c.name + " (CLI vs report)");
        expectSame(cli, gui, c.name + " (CLI vs GUI)");
        // A trace without compiles or cache loads says what it lacks and how to record it (issue 39);
        // any other gives the CLI's compile time.
        if (headline.contains(QStringLiteral("This trace records no compile"))) {
            EXPECT_EQ(cli.compileNs, 0) << headline.toStdString();
            EXPECT_EQ(cli.cacheLoadNs, 0) << headline.toStdString();
            EXPECT_TRUE(headline.contains(QStringLiteral("compilescope record"))) << headline.toStdString();
        } else if (headline.contains(QStringLiteral("unknown time compiling"))) {
            // Compiles printed without a time (issue 35): unknown, never 0 ns or a share of it.
            EXPECT_EQ(cli.compileNs, 0) << headline.toStdString();
            EXPECT_FALSE(headline.contains(QStringLiteral("% of "))) << headline.toStdString();
        } else {
            EXPECT_TRUE(headline.contains(gui::durationText(cli.compileNs))) << headline.toStdString();
        }
        EXPECT_FALSE(headline.contains(QStringLiteral("seed"), Qt::CaseInsensitive)) << headline.toStdString();
    }
}

TEST(OneAnalysis, EachAnalysisRunsOncePerGuiLoadAndOncePerReport) {
    test::TempDir dir;
    // A trace with lookups, module loads and invalidation items: every analysis applies.
    const std::string path = demoSource("demo.cstrace");
    auto& counters = engine::analysisCounters();
    auto expectEachOnce = [&](const char* what) {
        SCOPED_TRACE(what);
        for (const auto* c : {&counters.traceAnalyses, &counters.summaries, &counters.cacheReplays, &counters.moduleCacheReplays, &counters.moduleReports,
                              &counters.forests, &counters.findings})
            EXPECT_EQ(c->load(), 1);
    };
    counters.reset();
    QString headline;
    fromGui(path, &headline);
    expectEachOnce("one GUI load");
    counters.reset();
    std::ostringstream out;
    report::writeReport({path}, {}, out);
    expectEachOnce("one report");
}

// Nothing lost without a word: a trace whose collector dropped events says so first in info, in the
// findings (with the remedy), at the top of the report and above the GUI's Overview and Timeline.
TEST(Losses, EveryViewShowsALoss) {
    test::TempDir dir;
    const std::string path = dir.file("lossy.cstrace");
    {
        trace::TraceWriter w(path, {});
        auto s = w.addSession({.pid = 7, .runtime = w.intern("numba"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = 0});
        auto t = w.addTrack({.sessionId = s, .tid = 7, .name = w.intern("main")});
        w.addSpan({.trackId = t, .startNs = 10, .durNs = 1000, .category = CS_CAT_COMPILE, .name = w.intern("f")});
        w.addStat(s, "dropped_buffer_full", "collector", 1547576, "8 threads");
        w.addStat(s, "recovered_after_exit", "recorder", 12, "");  // information, not a loss
        w.endSession(s, 5000, 0);
        w.finalize();
    }
    auto info = test::runCli({"info", path});
    EXPECT_EQ(info.out.rfind("warning: 1,547,576 recorded events never reached the trace", 0), 0u) << info.out;
    auto findings = test::runCli({"findings", path});
    EXPECT_NE(findings.out.find("trace.events_lost: 1,547,576 recorded events lost (dropped_buffer_full, collector)"),
              std::string::npos)
        << findings.out;
    EXPECT_NE(findings.out.find("COMPILESCOPE_BUFFER_POLICY=block"), std::string::npos) << findings.out;
    EXPECT_EQ(findings.out.find("recovered_after_exit"), std::string::npos) << findings.out;
    std::ostringstream out;
    report::writeReport({path}, {}, out);
    const std::string html = out.str();
    auto banner = html.find("<div class=\"warnbox lossbanner\" role=\"alert\" id=\"data-lost\">");
    ASSERT_NE(banner, std::string::npos);
    EXPECT_LT(banner, html.find("id=\"summary\"")) << "the banner comes before any figure";

    gui::MainWindow window;
    window.resize(1000, 700);
    window.show();
    window.openTraces({QString::fromStdString(path)});
    ASSERT_TRUE(test::waitFor([&] { return !window.isLoading(); }));
    EXPECT_TRUE(window.overview()->lossBanner().contains(QStringLiteral("1,547,576 recorded events never reached the trace")))
        << window.overview()->lossBanner().toStdString();
    EXPECT_TRUE(window.timeline()->lossBanner().contains(QStringLiteral("1,547,576"))) << window.timeline()->lossBanner().toStdString();

    // A trace that lost nothing shows no banner.
    gui::MainWindow clean;
    clean.show();
    clean.openTraces({QString::fromStdString(demoSource("demo.cstrace"))});
    ASSERT_TRUE(test::waitFor([&] { return !clean.isLoading(); }));
    EXPECT_TRUE(clean.overview()->lossBanner().isEmpty());
    EXPECT_TRUE(clean.timeline()->lossBanner().isEmpty());
}

// Open anything: a Warp log and a Julia printout given to the window are imported and opened, with the
// same figures `import` + `info` give; a file no importer knows says so, naming the file.
TEST(OpenAnything, ForeignFilesAreImportedThenOpened) {
    test::TempDir dir;
    gui::MainWindow window;
    window.resize(1000, 700);
    window.openTraces({QString::fromStdString(demoSource("warp-verbose.log")), QString::fromStdString(demoSource("julia-enzyme.txt"))});
    ASSERT_TRUE(test::waitFor([&] { return !window.isLoading(); }, 60000));
    ASSERT_EQ(window.documents().size(), 2u);
    const gui::TraceDocument& warp = window.documents()[0];
    ASSERT_TRUE(warp.analyses && warp.analyses->trace) << window.statusText().toStdString();
    EXPECT_EQ(warp.label, QStringLiteral("warp-verbose.log"));
    EXPECT_GT(warp.analyses->trace->moduleLoads(), 0);
    const Figures imported = fromCli(import(dir, {demoSource("warp-verbose.log")}, "warp.cstrace"));
    EXPECT_EQ(warp.summary->compileNs, imported.compileNs);
    EXPECT_EQ(static_cast<std::int64_t>(warp.findings->size()), imported.findings);
    const gui::TraceDocument& julia = window.documents()[1];
    ASSERT_TRUE(julia.analyses && julia.analyses->trace);
    EXPECT_TRUE(julia.analyses->invalidations != nullptr);

    test::writeFile(dir.file("notes.txt"), "shopping list: milk, bread\n");
    gui::MainWindow other;
    other.openTraces({QString::fromStdString(dir.file("notes.txt"))});
    ASSERT_TRUE(test::waitFor([&] { return !other.isLoading(); }));
    EXPECT_TRUE(other.statusText().contains(QStringLiteral("notes.txt"))) << other.statusText().toStdString();
    EXPECT_TRUE(other.statusText().contains(QStringLiteral("not a CompileScope trace either"))) << other.statusText().toStdString();
}
