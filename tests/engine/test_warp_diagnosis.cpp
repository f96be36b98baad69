// Golden tests of the Warp module diagnosis (the Warp guide's (docs/warp.md) table): one fixture directory per mechanism
// under tests/data/warp/diagnosis/, each producing exactly its finding, and a clean fixture producing
// none. Inputs are Warp logs and probe reports shaped as Warp prints them (imported through the CLI),
// or *.loads files: the per-load facts (kernel set, options, generic instances) that the Warp
// collector records and a log cannot show. Expected output: `compilescope modules` in expected.txt;
// on mismatch the test prints a diff and writes expected.txt.actual next to it.
#include "cli_runner.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/all_findings.h"
#include "core/engine/warp/warp_diagnosis.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using cs::test::runCli;

namespace {
fs::path fixtureRoot() { return fs::path(cs::test::sourceDir()) / "tests/data/warp/diagnosis"; }

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string part; std::getline(ss, part, sep);)
        if (!part.empty()) out.push_back(part);
    return out;
}

// *.loads: "load NAME HASH DEVICE BLOCK_DIM RESULT MS [kernels=k:d,...] [generics=k@sig:d,...] [options=k:v,...]"
// ("-" for no hash / block_dim). Written with the same TraceWriter calls the collector's rows take.
void writeLoads(const fs::path& file, cs::trace::TraceWriter& w) {
    auto session = w.addSession({.runtime = w.intern("warp"), .source = w.intern(file.filename().string()), .startNs = 0});
    std::ifstream in(file);
    std::int64_t clock = 0;
    int lineNo = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNo;
        if (line.empty() || line[0] == '#') continue;
        auto f = split(line, ' ');
        ASSERT_GE(f.size(), 7u) << file << ":" << lineNo;
        int result = f[5] == "compiled" ? CS_MODULE_COMPILED : f[5] == "cached" ? CS_MODULE_CACHED : CS_MODULE_ERROR;
        auto dur = static_cast<std::int64_t>(std::stod(f[6]) * 1e6);
        auto id = w.addModuleLoad({.sessionId = session, .startNs = clock, .durNs = dur, .name = w.intern(f[1]),
                                   .hash = f[2] == "-" ? 0 : w.intern(f[2]), .device = w.intern(f[3]),
                                   .blockDim = f[4] == "-" ? std::nullopt : std::optional<std::int64_t>(std::stoll(f[4])),
                                   .result = result,
                                   .origin = w.intern(file.filename().string() + ":" + std::to_string(lineNo))});
        clock += dur;
        for (size_t i = 7; i < f.size(); ++i) {
            auto eq = f[i].find('=');
            auto key = f[i].substr(0, eq);
            for (const auto& item : split(f[i].substr(eq + 1), ',')) {
                auto colon = item.rfind(':');
                auto left = item.substr(0, colon), right = item.substr(colon + 1);
                if (key == "options") {
                    w.addModuleOption({.loadId = id, .key = w.intern(left), .value = w.intern(right)});
                } else if (key == "kernels") {
                    w.addModuleKernel({.loadId = id, .kernel = w.intern(left), .digest = w.intern(right)});
                } else {
                    auto at = left.find('@');
                    w.addModuleKernel({.loadId = id, .kernel = w.intern(left.substr(0, at)), .digest = w.intern(right),
                                       .generic = w.intern(left.substr(0, at) + "[" + left.substr(at + 1) + "]")});
                }
            }
        }
    }
    w.endSession(session, clock, std::nullopt);
}

// Builds the case's trace: imports its logs / reports, or writes its *.loads rows.
std::string buildTrace(const fs::path& dir, const cs::test::TempDir& tmp) {
    std::vector<fs::path> inputs;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename() != "expected.txt" && e.path().extension() != ".actual") inputs.push_back(e.path());
    std::sort(inputs.begin(), inputs.end());
    auto out = tmp.file(dir.filename().string() + ".cstrace");
    if (inputs.front().extension() == ".loads") {
        cs::trace::TraceWriter w(out);
        for (const auto& p : inputs) writeLoads(p, w);
        w.finalize();
        return out;
    }
    std::vector<std::string> args = {"import"};
    for (const auto& p : inputs) args.push_back(p.string());
    args.insert(args.end(), {"-o", out});
    auto r = runCli(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("malformed"), std::string::npos) << r.out;
    return out;
}

void checkGolden(const fs::path& expectedPath, const std::string& actual) {
    std::string expected = cs::test::readFile(expectedPath.string());
    auto actualPath = expectedPath.string() + ".actual";
    if (expected == actual) {
        fs::remove(actualPath);
        return;
    }
    cs::test::writeFile(actualPath, actual);
    std::string cmd = "diff -u '" + expectedPath.string() + "' '" + actualPath + "'";
    std::system(cmd.c_str());
    ADD_FAILURE() << "golden mismatch: " << expectedPath << " (actual written to " << actualPath << ")";
}

struct Case {
    const char* dir;
    const char* kind;  // the one finding it must produce; nullptr = none
};

class WarpDiagnosisGolden : public ::testing::TestWithParam<Case> {};

TEST_P(WarpDiagnosisGolden, ProducesExactlyItsFinding) {
    const Case c = GetParam();
    cs::test::TempDir tmp;
    auto trace = buildTrace(fixtureRoot() / c.dir, tmp);
    auto reader = cs::trace::TraceReader::open(trace);
    auto findings = cs::engine::warp::analyseWarpModules(*reader);
    // Runs related by identity (cold / warm) are information beside the mechanism, not a second one.
    std::erase_if(findings, [](const cs::engine::Finding& f) { return f.kind == "warp.runs_related"; });
    if (c.kind) {
        ASSERT_EQ(findings.size(), 1u) << c.dir;
        EXPECT_EQ(findings[0].kind, c.kind);
        EXPECT_FALSE(findings[0].evidence.empty());
        EXPECT_FALSE(findings[0].mechanism.empty());
        EXPECT_FALSE(findings[0].fix.empty());
        if (findings[0].severity == cs::engine::Severity::Error) {
            EXPECT_FALSE(findings[0].costNs.has_value()) << "a correctness error has no time cost";
        } else {
            ASSERT_TRUE(findings[0].costNs.has_value());
            EXPECT_GT(*findings[0].costNs, 0);
        }
    } else {
        for (const auto& f : findings) ADD_FAILURE() << "unexpected finding " << f.kind << ": " << f.title;
    }
    auto res = runCli({"modules", trace});
    ASSERT_EQ(res.status, 0) << res.err;
    checkGolden(fixtureRoot() / c.dir / "expected.txt", res.out);
}

INSTANTIATE_TEST_SUITE_P(
    WarpTable, WarpDiagnosisGolden,
    ::testing::Values(Case{"identity_churn", "warp.identity_churn"}, Case{"kernel_changed", "warp.kernel_changed_after_load"},
                      Case{"kernel_defined", "warp.kernel_defined_after_load"},
                      Case{"option_after_load", "warp.option_set_after_load"},
                      Case{"generic_instance", "warp.generic_instance_after_load"},
                      Case{"block_dim_variants", "warp.block_dim_variants"},
                      Case{"cache_not_reused", "warp.cache_not_reused"},
                      Case{"cache_not_reused_probe", "warp.cache_not_reused"},
                      Case{"repeated_loads", "warp.repeated_loads"},
                      Case{"many_small_modules", "warp.many_small_modules"},
                      Case{"unique_modules", "warp.unique_modules"},
                      Case{"not_overlapped", "warp.builds_not_overlapped"},
                      Case{"link_dominated", "warp.link_dominated"}, Case{"cpu_load_race", "warp.cpu_load_race"},
                      Case{"clean", nullptr}),
    [](const auto& p) { return std::string(p.param.dir); });
}  // namespace

// The guide's costs: churn costs the superseded build, block_dim variants every build after the first
// block_dim, overlap at most sum - max.
TEST(WarpDiagnosis, CostsFollowTheSeed) {
    cs::test::TempDir tmp;
    auto costOf = [&](const char* dir) {
        auto reader = cs::trace::TraceReader::open(buildTrace(fixtureRoot() / dir, tmp));
        auto f = cs::engine::warp::analyseWarpModules(*reader);
        return f.empty() ? -1 : f[0].costNs.value_or(-1);
    };
    EXPECT_EQ(costOf("identity_churn"), 312440000);
    EXPECT_EQ(costOf("block_dim_variants"), 357950000);
    EXPECT_EQ(costOf("not_overlapped"), 912770000LL + 655200000);
    EXPECT_EQ(costOf("cache_not_reused"), 805310000);
    EXPECT_EQ(costOf("repeated_loads"), 6000000);
    EXPECT_EQ(costOf("many_small_modules"), 3 * 1175250000LL);
    EXPECT_EQ(costOf("option_after_load"), 1800000000);
}

// Findings join the trace-wide list every front end shows.
TEST(WarpDiagnosis, RegisteredInCollectFindings) {
    cs::test::TempDir tmp;
    auto reader = cs::trace::TraceReader::open(buildTrace(fixtureRoot() / "block_dim_variants", tmp));
    auto all = cs::engine::analyseTrace(*reader)->findings;
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].kind, "warp.block_dim_variants");
}
