// The acceptance verdict agrees with the findings (issue 35): an [error] finding never goes with PASS
// or "not applicable". Run on the public logs of tests/data, imported as the user imports them.
#include "cli_runner.h"
#include "core/engine/analysis/error_verdict.h"
#include "core/engine/analysis/trace_analysis.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace {
using cs::test::runCli;

std::string dataFile(const std::string& rel) { return std::string(COMPILESCOPE_SOURCE_DIR) + "/tests/data/" + rel; }

bool hasError(const cs::engine::TraceAnalysis& a) {
    for (const auto& f : a.findings)
        if (f.severity == cs::engine::Severity::Error) return true;
    return false;
}

TEST(Verdicts, RecompileLimitHitFailsCheck) {
    for (const char* log : {"torch/recompile_limit_dion23.log", "torch/cache_size_limit_issue128090.log",
                            "torch/recompile_limit_verbose_issue164119.log"}) {
        cs::test::TempDir dir;
        const auto t = dir.file("t.cstrace");
        ASSERT_EQ(runCli({"import", dataFile(log), "-o", t}).status, 0) << log;
        auto check = runCli({"check", t});
        EXPECT_EQ(check.status, 1) << log << "\n" << check.out;
        EXPECT_NE(check.out.find(": FAIL\n"), std::string::npos) << check.out;
        EXPECT_EQ(check.out.find("NOT APPLICABLE"), std::string::npos) << check.out;
        EXPECT_NE(check.out.find("FAIL no [error] finding ([error] findings): jit.recompile_limit_hit"),
                  std::string::npos)
            << check.out;
        auto json = runCli({"info", t, "--json"});
        EXPECT_NE(json.out.find("\"fail\""), std::string::npos) << json.out;
    }
}

TEST(Verdicts, TraceWithoutErrorFindingsStaysNotApplicable) {
    cs::test::TempDir dir;
    const auto t = dir.file("t.cstrace");
    ASSERT_EQ(runCli({"import", dataFile("julia/time_imports_plots_manual.txt"), "-o", t}).status, 0);
    auto a = cs::engine::analyseTraceFile(t, {});
    ASSERT_FALSE(hasError(*a));
    auto check = runCli({"check", t});
    EXPECT_EQ(check.status, 0) << check.out;
    EXPECT_NE(check.out.find("NOT APPLICABLE"), std::string::npos) << check.out;
}

// Every public log of tests/data: a trace with an [error] finding fails, and the verdict's error rows
// name exactly the findings that are [error]s beyond the replay's own.
TEST(Verdicts, VerdictAgreesWithFindingsOnEveryDataTrace) {
    int withErrors = 0, traces = 0;
    for (const char* sub : {"torch", "jax", "julia", "warp/real"}) {
        for (const auto& e : std::filesystem::directory_iterator(dataFile(sub))) {
            const auto ext = e.path().extension().string();
            if (!e.is_regular_file() || ext == ".md") continue;
            if (e.path().filename().string().find(".expected") != std::string::npos) continue;
            cs::test::TempDir dir;
            const auto t = dir.file("t.cstrace");
            auto im = runCli({"import", e.path().string(), "-o", t});
            ASSERT_EQ(im.status, 0) << e.path() << ": " << im.err;
            auto a = cs::engine::analyseTraceFile(t, {});
            ++traces;
            if (!hasError(*a)) continue;
            ++withErrors;
            EXPECT_EQ(a->verdict.state, cs::engine::VerdictState::Fail) << e.path();
            EXPECT_EQ(runCli({"check", t}).status, 1) << e.path();
        }
    }
    EXPECT_GT(traces, 30);
    EXPECT_GE(withErrors, 3);  // the three recompile-limit logs at least
}

// Verdicts in the runtime's own words (issue 35): a PyTorch or JAX user reads frames and functions,
// never ReactantNitro's "one Nitro" or cache_stats(), in any verb that judges or explains the trace.
TEST(RuntimeWords, NoNitroWordsForPyTorchOrJaxTraces) {
    int traces = 0;
    for (const char* sub : {"torch", "jax"}) {
        for (const auto& e : std::filesystem::directory_iterator(dataFile(sub))) {
            if (!e.is_regular_file() || e.path().extension() == ".md") continue;
            cs::test::TempDir dir;
            const auto t = dir.file("t.cstrace");
            ASSERT_EQ(runCli({"import", e.path().string(), "-o", t}).status, 0) << e.path();
            ++traces;
            for (const char* verb : {"check", "explain", "findings", "info"}) {
                const auto out = runCli({verb, t}).out;
                for (const char* word : {"Nitro", "cache_stats()"})
                    EXPECT_EQ(out.find(word), std::string::npos) << e.path() << " " << verb << " says " << word << ":\n" << out;
            }
        }
    }
    EXPECT_GT(traces, 10);
}

}  // namespace
