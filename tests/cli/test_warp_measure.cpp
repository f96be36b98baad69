// `measure` runs a real command (tests/data/warp/measure/cache_user.sh) that writes into
// WARP_CACHE_PATH and CUDA_CACHE_PATH the way a Warp program does; the test proves the directories
// were private (under the system temp dir, not the caches this process points at), populated by the
// cold run, reused by the warm run, and removed afterwards. `compare` is tested for better, worse,
// inconclusive (inside max(1% of baseline, 2 x baseline MAD)) and a changed launch topology (refused),
// and prints the guide's ledger when given one.
#include "cli_runner.h"
#include "core/measure/noise_band.h"
#include "core/measure/warp_measure.h"
#include "core/util/json_reader.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using cs::test::runCli;

namespace {
std::string script() { return cs::test::sourceDir() + "/tests/data/warp/measure/cache_user.sh"; }

std::vector<std::vector<std::string>> recordLines(const std::string& path) {
    std::vector<std::vector<std::string>> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        std::istringstream ss(line);
        std::vector<std::string> f;
        for (std::string w; ss >> w;) f.push_back(w);
        out.push_back(f);
    }
    return out;
}

bool isUnder(const fs::path& p, const fs::path& root) {
    auto rel = fs::weakly_canonical(p).lexically_relative(fs::weakly_canonical(root));
    return !rel.empty() && *rel.begin() != "..";
}

// Sets an environment variable for the test's lifetime.
struct ScopedEnv {
    std::string name;
    std::string old;
    bool had;
    ScopedEnv(const std::string& n, const std::string& v) : name(n) {
        const char* o = std::getenv(n.c_str());
        had = o != nullptr;
        if (o) old = o;
        ::setenv(n.c_str(), v.c_str(), 1);
    }
    ~ScopedEnv() {
        if (had) ::setenv(name.c_str(), old.c_str(), 1);
        else ::unsetenv(name.c_str());
    }
};
}  // namespace

TEST(WarpMeasure, MedianAndMad) {
    auto [m, d] = cs::measure::medianMad({10, 12, 11, 50});
    EXPECT_DOUBLE_EQ(m, 11.5);
    EXPECT_DOUBLE_EQ(d, 1.0);  // deviations 1.5, 0.5, 0.5, 38.5
    EXPECT_EQ(cs::measure::medianMad({}).first, 0);
}

TEST(WarpMeasure, PrivateCachesPopulatedColdReusedWarmRemoved) {
    cs::test::TempDir tmp;
    auto record = tmp.file("record.txt");
    // Caches this process "owns": the measured command must never see or touch them.
    auto userWarp = tmp.path() / "user-warp-cache", userCuda = tmp.path() / "user-cuda-cache";
    fs::create_directories(userWarp);
    fs::create_directories(userCuda);
    ScopedEnv r("CS_TEST_RECORD", record), w("WARP_CACHE_PATH", userWarp.string()), c("CUDA_CACHE_PATH", userCuda.string());
    auto json = tmp.file("m.json");
    auto res = runCli({"measure", "--samples", "2", "--json", json, "--", "sh", script()});
    ASSERT_EQ(res.status, 0) << res.err << res.out;
    EXPECT_NE(res.out.find("Cold module work        95.00 ms  (median of 2 of 2 samples"), std::string::npos) << res.out;
    EXPECT_NE(res.out.find("warm repeat            0.52 ms"), std::string::npos) << res.out;

    auto lines = recordLines(record);
    ASSERT_EQ(lines.size(), 4u);  // cold + warm per sample
    for (size_t i = 0; i < lines.size(); ++i) {
        const auto& f = lines[i];
        ASSERT_EQ(f.size(), 5u);
        EXPECT_EQ(f[0], f[1]) << "WARP_CACHE_ROOT follows WARP_CACHE_PATH";
        for (int k : {0, 2}) {
            EXPECT_TRUE(isUnder(f[k], fs::temp_directory_path())) << f[k];
            EXPECT_FALSE(isUnder(f[k], userWarp) || isUnder(f[k], userCuda)) << f[k];
            EXPECT_FALSE(fs::exists(f[k])) << f[k] << " was not removed";
        }
        bool cold = i % 2 == 0;
        EXPECT_EQ(f[3], cold ? "built" : "reused") << "warp cache, run " << i;
        EXPECT_EQ(f[4], cold ? "built" : "reused") << "CUDA cache, run " << i;
    }
    EXPECT_EQ(lines[0][0], lines[1][0]) << "the warm run reuses its sample's cache";
    EXPECT_NE(lines[0][0], lines[2][0]) << "every sample gets fresh directories";
    EXPECT_NE(lines[0][2], lines[2][2]);
    EXPECT_TRUE(fs::is_empty(userWarp));
    EXPECT_TRUE(fs::is_empty(userCuda));

    auto report = cs::util::parseJson(cs::test::readFile(json));
    EXPECT_EQ(report.get("samples")->num, 2);
    EXPECT_EQ(report.get("cold_module_ms_median")->num, 95.0);
    EXPECT_EQ(report.get("cold_module_ms_mad")->num, 0.0);
    EXPECT_EQ(report.get("native_compile_ms_median")->num, 80.0);
    EXPECT_EQ(report.get("warm_module_ms_median")->num, 0.52);
    EXPECT_EQ(report.get("compiled_events")->num, 1);
    EXPECT_EQ(report.get("identities")->num, 1);
    EXPECT_EQ(report.get("generated_source_bytes")->num, 58);  // the .cu file the cold run wrote
    ASSERT_EQ(report.get("runs")->items.size(), 4u);
    const auto& warmRun = report.get("runs")->items[1];
    EXPECT_EQ(warmRun.get("phase")->str, "warm");
    EXPECT_EQ(warmRun.get("cached_events")->num, 1);
    EXPECT_EQ(warmRun.get("compiled_events")->num, 0);
    EXPECT_EQ(warmRun.get("warp_cache_files")->num, 3);
    EXPECT_EQ(warmRun.get("cuda_cache_files")->num, 1);
    for (const auto& iso : report.get("isolation")->items) EXPECT_TRUE(iso.get("removed")->boolean);
    const auto& ev = report.get("module_events")->items.at(0);
    EXPECT_EQ(ev.get("hash")->str, "1a2b3c4");
    EXPECT_EQ(ev.get("block_dim")->num, 256);

    // The report imports as a trace like the probe's, and compares with itself as inconclusive.
    auto trace = tmp.file("m.cstrace");
    ASSERT_EQ(runCli({"import", json, "-o", trace}).status, 0);
    auto same = runCli({"compare", json, json});
    EXPECT_EQ(same.status, 0);
    EXPECT_NE(same.out.find("Verdict: inconclusive"), std::string::npos) << same.out;
}

TEST(WarpMeasure, FailingCommandIsNotMeasured) {
    auto res = runCli({"measure", "--samples", "2", "--", "sh", "-c", "exit 3"});
    EXPECT_EQ(res.status, 1);
    EXPECT_NE(res.err.find("all 2 cold runs failed"), std::string::npos) << res.err;
    auto missing = runCli({"measure", "--", "/no/such/program"});
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.err.find("cannot run \"/no/such/program\""), std::string::npos) << missing.err;
    EXPECT_EQ(runCli({"measure", "--samples", "0", "--", "true"}).status, 2);
    EXPECT_EQ(runCli({"measure", "--samples", "2"}).status, 2);
}

namespace {
// A report with the probe's keys; `dims` are the launch dims in order.
std::string report(double median, double mad, const std::vector<int>& dims, const std::string& kernel = "scale") {
    std::string launches;
    for (int d : dims)
        launches += std::string(launches.empty() ? "" : ",") + "{\"kernel\": \"" + kernel + "\", \"dim\": [" +
                    std::to_string(d) + "], \"device\": \"cuda:0\", \"dtypes\": [\"float32\"], \"block_dim\": 256, "
                    "\"adjoint\": false}";
    return "{\"command\": [\"python\", \"app.py\"], \"samples\": 5, \"failed_samples\": 0, \"error_events\": 0,"
           " \"cold_module_ms_median\": " + std::to_string(median) + ", \"cold_module_ms_mad\": " + std::to_string(mad) +
           ", \"generated_source_bytes\": 1000, \"module_events\": [], \"launches\": [" + launches + "]}";
}

cs::test::CliResult compare(const std::string& base, const std::string& cand, std::vector<std::string> extra = {}) {
    cs::test::TempDir tmp;
    cs::test::writeFile(tmp.file("b.json"), base);
    cs::test::writeFile(tmp.file("c.json"), cand);
    std::vector<std::string> args = {"compare", tmp.file("b.json"), tmp.file("c.json")};
    args.insert(args.end(), extra.begin(), extra.end());
    return runCli(args);
}
}  // namespace

TEST(WarpCompare, Better) {
    auto r = compare(report(1000, 10, {64, 64}), report(900, 5, {64, 64}));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Verdict: better"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("noise band +-20.00 ms"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(MAD 10.00, n=5)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("-100.00 ms  (-10.0%)"), std::string::npos) << r.out;
}

TEST(WarpCompare, DifferentCommandsAreNamed) {
    std::string cand = report(900, 5, {64});
    cand.replace(cand.find("app.py"), 6, "other.py");
    auto r = compare(report(1000, 10, {64}), cand);
    EXPECT_NE(r.out.find("the reports ran different commands: [python,app.py] vs [python,other.py]"), std::string::npos)
        << r.out;
}

TEST(WarpCompare, Worse) {
    auto r = compare(report(1000, 10, {64}), report(1100, 10, {64}));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("Verdict: worse"), std::string::npos) << r.out;
}

TEST(WarpCompare, InconclusiveInsideTheNoiseBand) {
    // 2 x MAD dominates: band 20, delta 15.
    auto mad = compare(report(1000, 10, {64}), report(985, 10, {64}));
    EXPECT_EQ(mad.status, 0);
    EXPECT_NE(mad.out.find("Verdict: inconclusive"), std::string::npos) << mad.out;
    // 1% of baseline dominates: band 10, delta 9 is noise, delta 11 is not.
    EXPECT_NE(compare(report(1000, 0, {64}), report(991, 0, {64})).out.find("Verdict: inconclusive"), std::string::npos);
    EXPECT_NE(compare(report(1000, 0, {64}), report(989, 0, {64})).out.find("Verdict: better"), std::string::npos);
}

TEST(WarpCompare, ChangedTopologyIsRefused) {
    auto r = compare(report(1000, 10, {64, 64}), report(400, 10, {64}));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("Verdict: refused: launch topology changed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("baseline ran 2 launches, candidate 1"), std::string::npos) << r.out;
    auto dims = compare(report(1000, 10, {64, 64}), report(400, 10, {64, 32}));
    EXPECT_NE(dims.out.find("first difference at launch #2"), std::string::npos) << dims.out;
    // A kernel moved to module scope is renamed but launches the same work: not a topology change.
    auto renamed = compare(report(1000, 10, {64}), report(800, 10, {64}, "make_scale__locals__scale"));
    EXPECT_EQ(renamed.status, 0);
    EXPECT_NE(renamed.out.find("kernel renamed scale -> make_scale__locals__scale"), std::string::npos) << renamed.out;
}

TEST(WarpCompare, LedgerTable) {
    cs::test::TempDir tmp;
    auto ledger = tmp.file("ledger.json");
    cs::test::writeFile(ledger, R"([{"option": "`enable_backward=False` on `pkg.solver`", "measured": "-38% cold",
        "why_not_taken": "a live tape traverses these kernels", "to_take_it": "set at the entry point, then re-check adjoints"},
       {"option": "`max_unroll=4`", "measured": "-2%, inside noise", "why_not_taken": "no measured gain", "to_take_it": "no action"}])");
    auto r = compare(report(1000, 10, {64}), report(990, 10, {64}), {"--ledger", ledger});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("| Option | Measured | Why not taken | To take it |\n| --- | ---: | --- | --- |\n"
                         "| `enable_backward=False` on `pkg.solver` | -38% cold | a live tape traverses these kernels | "
                         "set at the entry point, then re-check adjoints |\n"),
              std::string::npos)
        << r.out;
    cs::test::writeFile(ledger, R"([{"measured": "x"}])");
    auto bad = compare(report(1000, 10, {64}), report(990, 10, {64}), {"--ledger", ledger});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("has no \"option\""), std::string::npos) << bad.err;
}

// compare reads the same ledgers as `report --ledger`: the Markdown table too (one reader).
TEST(WarpCompare, MarkdownLedgerAsTheReportReadsIt) {
    cs::test::TempDir tmp;
    auto ledger = tmp.file("ledger.md");
    cs::test::writeFile(ledger, "| Option | Measured | Why not taken | To take it |\n| --- | ---: | --- | --- |\n"
                                "| `max_unroll=4` | -2%, inside noise | no measured gain | no action |\n");
    auto r = compare(report(1000, 10, {64}), report(990, 10, {64}), {"--ledger", ledger});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("| `max_unroll=4` | -2%, inside noise | no measured gain | no action |"), std::string::npos) << r.out;
}

TEST(WarpCompare, UnreadableReports) {
    auto r = compare("{\"samples\": 3}", report(990, 10, {64}));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("baseline report: \"cold_module_ms_median\" missing"), std::string::npos) << r.err;
    std::string huge = report(1000, 10, {64});
    huge.replace(huge.find("\"samples\": 5"), 12, "\"samples\": 1e300");
    auto big = compare(huge, report(990, 10, {64}));
    EXPECT_EQ(big.status, 2);
    EXPECT_NE(big.err.find("\"samples\" out of range"), std::string::npos) << big.err;
    auto cut = compare("{\"samples\": ", report(990, 10, {64}));
    EXPECT_EQ(cut.status, 2);
    EXPECT_NE(cut.err.find("not valid JSON"), std::string::npos) << cut.err;
}

// The sitecustomize that measure injects for Python commands: it must keep a sitecustomize the
// environment already had, leave programs that never import warp alone, and, once `warp` is
// imported, turn on its verbose timers and record launches. Where Warp itself is installed the
// instrumentation runs against it; here a package with Warp's public surface (warp.config.verbose,
// warp.launch(kernel, dim, inputs, outputs, ..., device, ..., block_dim)) stands in for the import.
TEST(WarpMeasure, InjectedSitecustomizeRecordsLaunches) {
    const char* python = "/usr/bin/python3";
    if (!fs::exists(python)) GTEST_SKIP() << python << " not installed; the Python injection cannot run";
    cs::test::TempDir tmp;
    auto pkgs = tmp.path() / "pkgs";
    fs::create_directories(pkgs / "warp");
    cs::test::writeFile((pkgs / "warp" / "config.py").string(), "verbose = False\n");
    cs::test::writeFile((pkgs / "warp" / "__init__.py").string(),
                        "from . import config\n"
                        "def launch(kernel, dim, inputs=None, outputs=None, adj_inputs=None, adj_outputs=None,\n"
                        "           device=None, stream=None, adjoint=False, record_tape=True, record_cmd=False,\n"
                        "           max_blocks=0, block_dim=256):\n"
                        "    if config.verbose:\n"
                        "        print('    Compile CUDA (arch=86, mode=release, block_dim=256) took 5.00 ms')\n"
                        "    print(\"Module app 1a2b3c4 load on device 'cuda:0' (block_dim=256) took 7.00 ms  (compiled)\")\n");
    cs::test::writeFile((pkgs / "sitecustomize.py").string(),
                        "import os\nopen(os.environ['CS_TEST_MARK'], 'a').write('previous sitecustomize ran\\n')\n");
    auto app = tmp.file("app.py");
    cs::test::writeFile(app, "import warp\n"
                             "class Kernel:\n    key = 'scale'\n"
                             "class Array:\n    dtype = float\n    device = 'cuda:0'\n"
                             "warp.launch(Kernel(), (8, 4), inputs=[Array()], block_dim=128)\n"
                             "warp.launch(Kernel(), 16, [Array()], [], device='cuda:0')\n");
    auto mark = tmp.file("mark.txt");
    ScopedEnv pp("PYTHONPATH", pkgs.string()), m("CS_TEST_MARK", mark);
    auto json = tmp.file("py.json");
    auto res = runCli({"measure", "--samples", "1", "--json", json, "--", python, app});
    ASSERT_EQ(res.status, 0) << res.err << res.out;
    EXPECT_EQ(cs::test::readFile(mark), "previous sitecustomize ran\nprevious sitecustomize ran\n");  // cold + warm
    auto report = cs::util::parseJson(cs::test::readFile(json));
    EXPECT_EQ(report.get("native_compile_ms_median")->num, 10.0) << "verbose timers were not switched on";
    const auto& launches = report.get("launches")->items;
    ASSERT_EQ(launches.size(), 2u);
    EXPECT_EQ(launches[0].get("kernel")->str, "scale");
    EXPECT_EQ(launches[0].get("dim")->items.size(), 2u);
    EXPECT_EQ(launches[0].get("device")->str, "cuda:0");  // taken from the input array
    EXPECT_EQ(launches[0].get("block_dim")->num, 128);
    EXPECT_EQ(launches[0].get("dtypes")->items.at(0).str, "float");
    EXPECT_EQ(launches[1].get("dim")->items.at(0).num, 16);

    // A Python program that never imports warp runs untouched.
    auto plain = runCli({"measure", "--samples", "1", "--", python, "-c", "print('hello')"});
    EXPECT_EQ(plain.status, 0) << plain.err;
    EXPECT_NE(plain.out.find("No modules were compiled"), std::string::npos) << plain.out;
}

namespace {
// The venv interpreter CMake was configured with (COMPILESCOPE_PYTHON), or "" when it has no warp.
std::string realWarpPython() {
#ifdef COMPILESCOPE_PYTHON_EXE
    std::string python = COMPILESCOPE_PYTHON_EXE;
#else
    std::string python;
#endif
    if (python.empty() || std::system(("'" + python + "' -c 'import warp' > /dev/null 2>&1").c_str()) != 0) return "";
    return python;
}

bool runtimesRequired() {
    const char* v = std::getenv("COMPILESCOPE_REQUIRE_RUNTIMES");
    return v && *v && std::string(v) != "0";
}

// A real Warp program: one kernel launched `dims` times on the CPU, each launch with its dim.
std::string warpProgram(const std::vector<int>& dims) {
    std::string s = "import warp as wp\n"
                    "@wp.kernel\ndef scale(a: wp.array(dtype=float)):\n    a[wp.tid()] = 2.0 * a[wp.tid()]\n"
                    "a = wp.ones(64, dtype=float, device='cpu')\n";
    for (int d : dims) s += "wp.launch(scale, " + std::to_string(d) + ", inputs=[a], device='cpu')\n";
    return s + "wp.synchronize()\n";
}
}  // namespace

// Real Warp 1.19 (the venv's): isolated cold samples each followed by a warm one, module facts read
// from Warp's own debug log (native compile timers, block_dim), the noise band `compare` applies, and
// `compare` refusing a program whose launch topology changed.
TEST(WarpMeasure, RealWarp) {
    const std::string python = realWarpPython();
    if (python.empty()) {
        if (runtimesRequired()) FAIL() << "warp is not importable by the venv interpreter, and COMPILESCOPE_REQUIRE_RUNTIMES=1 forbids skipping";
        GTEST_SKIP() << "warp is not importable by COMPILESCOPE_PYTHON; packaging/install-deps.sh installs it";
    }
    cs::test::TempDir tmp;
    auto app = tmp.file("app.py"), changed = tmp.file("changed.py");
    cs::test::writeFile(app, warpProgram({16, 16}));
    cs::test::writeFile(changed, warpProgram({16, 32}));
    auto json = tmp.file("real.json"), json2 = tmp.file("changed.json");
    auto res = runCli({"measure", "--samples", "3", "--json", json, "--", python, app});
    ASSERT_EQ(res.status, 0) << res.err << res.out;
    auto report = cs::util::parseJson(cs::test::readFile(json));
    EXPECT_EQ(report.get("samples")->num, 3);
    EXPECT_EQ(report.get("failed_samples")->num, 0);

    // Every sample: a cold run that compiled the module in a private cache, then a warm run that found it.
    const auto& runs = report.get("runs")->items;
    ASSERT_EQ(runs.size(), 6u);
    for (size_t i = 0; i < runs.size(); ++i) {
        bool cold = i % 2 == 0;
        EXPECT_EQ(runs[i].get("phase")->str, cold ? "cold" : "warm") << i;
        EXPECT_EQ(runs[i].get("exit_code")->num, 0) << i;
        EXPECT_EQ(runs[i].get("compiled_events")->num, cold ? 1 : 0) << i;
        EXPECT_EQ(runs[i].get("cached_events")->num, cold ? 0 : 1) << i;
        EXPECT_GT(runs[i].get("warp_cache_files")->num, 0) << i;
    }
    std::set<std::string> caches;
    for (const auto& iso : report.get("isolation")->items) {
        EXPECT_TRUE(iso.get("removed")->boolean);
        EXPECT_TRUE(isUnder(iso.get("warp_cache_path")->str, fs::temp_directory_path())) << iso.get("warp_cache_path")->str;
        caches.insert(iso.get("warp_cache_path")->str);
    }
    EXPECT_EQ(caches.size(), 3u) << "every sample gets its own cache";

    // Warp's debug log (log_level LOG_DEBUG, set by the injected hook) shows the native compile and the
    // CPU block_dim 1; the one identity is the module __main__.
    EXPECT_GT(report.get("native_compile_ms_median")->num, 0);
    EXPECT_EQ(report.get("identities")->num, 1);
    const auto& ev = report.get("module_events")->items.at(0);
    EXPECT_EQ(ev.get("name")->str, "__main__");
    EXPECT_EQ(ev.get("device")->str, "cpu");
    EXPECT_EQ(ev.get("block_dim")->num, 1);
    EXPECT_EQ(ev.get("status")->str, "compiled");
    EXPECT_EQ(ev.get("hash")->str.size(), 7u);
    const auto& launches = report.get("launches")->items;
    ASSERT_EQ(launches.size(), 2u);
    EXPECT_EQ(launches[0].get("kernel")->str, "scale");
    EXPECT_EQ(launches[0].get("dim")->items.at(0).num, 16);
    EXPECT_EQ(launches[0].get("device")->str, "cpu");
    EXPECT_EQ(launches[0].get("dtypes")->items.at(0).str, "float32");

    // The median and MAD of the three cold samples, and the band compare applies to them.
    std::vector<double> cold;
    for (const auto& v : report.get("cold_module_ms_values")->items) cold.push_back(v.num);
    ASSERT_EQ(cold.size(), 3u);
    auto [median, mad] = cs::measure::medianMad(cold);
    EXPECT_NEAR(report.get("cold_module_ms_median")->num, median, 1e-6);
    EXPECT_NEAR(report.get("cold_module_ms_mad")->num, mad, 1e-6);
    char band[64];
    std::snprintf(band, sizeof band, "noise band +-%.2f ms", cs::measure::noiseBand(median, mad));
    auto self = runCli({"compare", json, json});
    EXPECT_EQ(self.status, 0) << self.out;
    EXPECT_NE(self.out.find("Verdict: inconclusive"), std::string::npos) << self.out;
    EXPECT_NE(self.out.find(band), std::string::npos) << band << "\n" << self.out;

    // The second launch's dim changed: compare refuses whatever the timings say.
    auto res2 = runCli({"measure", "--samples", "1", "--json", json2, "--", python, changed});
    ASSERT_EQ(res2.status, 0) << res2.err << res2.out;
    auto refused = runCli({"compare", json, json2});
    EXPECT_EQ(refused.status, 1) << refused.out;
    EXPECT_NE(refused.out.find("Verdict: refused: launch topology changed"), std::string::npos) << refused.out;
    EXPECT_NE(refused.out.find("first difference at launch #2"), std::string::npos) << refused.out;
}
