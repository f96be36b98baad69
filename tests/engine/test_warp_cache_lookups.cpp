// Warp module loads replayed as a persistent cache (core/engine/warp/warp_cache_lookups.h): a
// (compiled) load is a miss keyed by the module's identity, a (cached) load a hit, so `explain`
// covers Warp. Counted against the module report of the same analysis and against the log itself.
#include "cli_runner.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/warp/warp_cache_lookups.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

using namespace cs;

namespace {
engine::warp::ModuleLoad load(std::int64_t id, const std::string& name, const std::string& hash, int result) {
    engine::warp::ModuleLoad l;
    l.id = id;
    l.sessionId = 1;
    l.name = name;
    l.hash = hash;
    l.device = "cuda:0";
    l.startNs = id * 1000;
    l.durNs = 500;
    l.result = result;
    return l;
}

// (compiled) / (cached) lines of a Warp log, counted from the text (a line may follow a progress dot).
std::pair<int, int> countLines(const std::string& path) {
    std::ifstream in(path);
    int compiled = 0, cached = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.find("Module ") == std::string::npos || line.find(" load on device ") == std::string::npos) continue;
        compiled += line.find("(compiled)") != std::string::npos;
        cached += line.find("(cached)") != std::string::npos;
    }
    return {compiled, cached};
}
}  // namespace

// A -> B -> A: the second hash is a miss naming the hash that moved; the return to the first hash
// is a hit of the entry its first compile created; an error asks the cache nothing.
TEST(WarpCacheLookups, CompiledIsAMissCachedAHitKeyedByIdentity) {
    auto report = engine::warp::groupLoads({load(1, "map_mul", "6bdf336aa", CS_MODULE_COMPILED),
                                            load(2, "map_mul", "fdfd350bb", CS_MODULE_COMPILED),
                                            load(3, "map_mul", "6bdf336aa", CS_MODULE_CACHED),
                                            load(4, "map_mul", "0000000cc", CS_MODULE_ERROR)});
    auto a = engine::warp::analyseModuleCache(report);
    ASSERT_TRUE(a);
    ASSERT_EQ(a->facts.lookups.size(), 3u);
    EXPECT_EQ(a->replay.total.misses, 2);
    EXPECT_EQ(a->replay.total.hits, 1);
    EXPECT_TRUE(a->replay.disagreements.empty());
    EXPECT_EQ(a->replay.outcomes[2].entry, a->replay.outcomes[0].entry);  // back to the first identity
    ASSERT_EQ(a->attribution.misses.size(), 2u);
    const auto& second = a->attribution.misses[1];
    EXPECT_EQ(second.cause, engine::MissCause::KeyMoved);
    EXPECT_NE(second.reason.find("6bdf336"), std::string::npos) << second.reason;
    EXPECT_NE(second.reason.find("fdfd350"), std::string::npos) << second.reason;
    EXPECT_EQ(engine::lookupName(a->facts.lookups[1]), "module load #2");
    EXPECT_EQ(engine::lookupTable(a->facts.lookups[1]), std::string("module_loads"));
    EXPECT_FALSE(engine::warp::analyseModuleCache(engine::warp::groupLoads({load(1, "m", "h", CS_MODULE_ERROR)})));
}

// A cached load of an identity this process never compiled came from an earlier run's kernel cache:
// a hit, not a disagreement with Warp.
TEST(WarpCacheLookups, AWarmRunsCachedLoadsAreHitsOfThePersistentCache) {
    auto a = engine::warp::analyseModuleCache(engine::warp::groupLoads({load(1, "support", "5e90a30", CS_MODULE_CACHED),
                                                                        load(2, "support", "cf9d851", CS_MODULE_CACHED)}));
    ASSERT_TRUE(a);
    EXPECT_EQ(a->replay.total.hits, 2);
    EXPECT_EQ(a->replay.total.loads, 2);
    EXPECT_TRUE(a->replay.disagreements.empty());
}

// Every real Warp log: the module cache's misses and hits are the log's (compiled) and (cached)
// lines, the module report counts the same, the acceptance verdict is left to a training run's
// cache, and `explain` prints the same numbers.
TEST(WarpCacheLookups, RealLogsMissesAndHitsAgreeWithModulesAndExplain) {
    const auto dir = std::filesystem::path(test::sourceDir()) / "tests/data/warp/real";
    int withLoads = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".log") continue;
        SCOPED_TRACE(entry.path().filename().string());
        test::TempDir tmp;
        const std::string trace = tmp.file("t.cstrace");
        auto r = test::runCli({"import", entry.path().string(), "-o", trace});
        ASSERT_EQ(r.status, 0) << r.err;
        auto a = engine::analyseTraceFile(trace);
        auto [compiled, cached] = countLines(entry.path().string());
        int reportCompiled = 0, reportCached = 0;
        for (const auto& m : a->modules->modules) reportCompiled += m.compiled, reportCached += m.cached;
        EXPECT_EQ(reportCompiled, compiled);
        EXPECT_EQ(reportCached, cached);
        auto e = test::runCli({"explain", trace});
        ASSERT_EQ(e.status, 0) << e.err;
        if (compiled + cached == 0) {
            EXPECT_FALSE(a->moduleCache);
            EXPECT_NE(e.out.find("no cache lookups recorded"), std::string::npos) << e.out;
            continue;
        }
        ++withLoads;
        ASSERT_TRUE(a->moduleCache);
        EXPECT_EQ(a->moduleCache->replay.total.misses, compiled);
        EXPECT_EQ(a->moduleCache->replay.total.hits, cached);
        EXPECT_TRUE(a->moduleCache->replay.disagreements.empty());
        // The program-cache rules do not judge module loads; Warp's own rule does, one row, and the
        // verdict follows it (a module compiled under two hashes on one device and block_dim fails).
        ASSERT_EQ(a->verdict.rules.size(), 1u);
        EXPECT_EQ(a->verdict.rules[0].rule, "one compiled hash per module");
        EXPECT_EQ(a->verdict.state, a->verdict.rules[0].pass ? engine::VerdictState::Pass : engine::VerdictState::Fail);
        EXPECT_EQ(a->verdict.rules[0].pass,
                  !std::regex_search(a->verdict.rules[0].detail, std::regex("compiled under [0-9]+ hashes")))
            << a->verdict.rules[0].detail;
        std::smatch m;
        ASSERT_TRUE(std::regex_search(e.out, m, std::regex("Warp module loads .*: lookups (\\d+), misses (\\d+), hits (\\d+)")))
            << e.out;
        EXPECT_EQ(std::stoi(m[1]), compiled + cached);
        EXPECT_EQ(std::stoi(m[2]), compiled);
        EXPECT_EQ(std::stoi(m[3]), cached);
    }
    EXPECT_GE(withLoads, 5);
}
