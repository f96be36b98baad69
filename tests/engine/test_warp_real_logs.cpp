// The Warp findings that real logs called for (issue 15), each on lines copied from a public issue
// (tests/data/warp/real/SOURCES.md): a module cycling through hashes, compile time rising with each
// hash, a unique module whose hash is not its name's, a slow cache hit with its likely cause,
// repeated loads counted per identity, and runs related across sessions (cold / warm, fragments joined).
// Findings come from collectFindings, so `compilescope findings` and the report show them too.
#include "cli_runner.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/warp/warp_diagnosis.h"
#include "core/trace/reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using cs::engine::Finding;
using cs::test::runCli;

namespace {
std::string realLog(const std::string& name) {
    return (std::filesystem::path(cs::test::sourceDir()) / "tests/data/warp/real" / name).string();
}

struct Analysed {
    cs::test::TempDir dir;
    std::string trace;
    std::vector<Finding> findings;
    std::vector<const Finding*> of(const std::string& kind) const {
        std::vector<const Finding*> out;
        for (const auto& f : findings)
            if (f.kind == kind)
                out.push_back(&f);
        return out;
    }
};

std::unique_ptr<Analysed> analyse(const std::vector<std::string>& logs,
                                  const std::vector<std::string>& options = {}) {
    auto a = std::make_unique<Analysed>();
    a->trace = a->dir.file("t.cstrace");
    std::vector<std::string> args = {"import"};
    for (const auto& l : logs)
        args.push_back(realLog(l));
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"-o", a->trace});
    auto r = runCli(args);
    EXPECT_EQ(r.status, 0) << r.err;
    auto reader = cs::trace::TraceReader::open(a->trace);
    a->findings = cs::engine::analyseTrace(*reader)->findings;
    return a;
}

std::string kinds(const Analysed& a) {
    std::string s;
    for (const auto& f : a.findings)
        s += f.kind + ": " + f.title + "\n";
    return s;
}
} // namespace

// erikfrey/mjx_warp#58: one module loaded under 7 hashes, then the same 7 again in the same order.
TEST(WarpRealLogs, HashCycleWithTheCycle) {
    auto a = analyse({"mjx_warp_58_support_cycle.log"});
    ASSERT_EQ(a->findings.size(), 1u) << kinds(*a); // the cycle explains the reloads: no repeats, no churn
    const Finding& f = a->findings[0];
    EXPECT_EQ(f.kind, "warp.hash_cycle");
    EXPECT_EQ(f.title,
              "module mujoco.mjx._src.support cycles through 7 hashes in a fixed order (13 loads): "
              "5e90a30 -> cf9d851 -> 1192ca8 -> a7d0b54 -> 00930da -> 3495bb4 -> beb86f2 -> 5e90a30");
    EXPECT_EQ(f.costNs, 77560000LL + 66320000 + 75140000 + 78980000 + 68480000 + 80820000); // the 6 reloads
    EXPECT_EQ(f.evidence.size(), 9u); // the first round, the return to its first hash, the last load
}

// newton-physics/newton#918: map_div and map_mul each toggle between two hashes (A -> B -> A), and
// one (cached) load takes 2438.61 ms among loads of 2-75 ms. The banner says driver 12.8 >= toolkit
// 12.8, so Warp cached PTX: the likely cause is the driver compiling it.
TEST(WarpRealLogs, TogglesAndASlowCacheHit) {
    auto a = analyse({"newton_918_mpm_anymal.log"});
    ASSERT_EQ(a->findings.size(), 3u) << kinds(*a);
    auto cycles = a->of("warp.hash_cycle");
    ASSERT_EQ(cycles.size(), 2u);
    std::sort(cycles.begin(), cycles.end(), [](auto* x, auto* y) { return x->title < y->title; });
    EXPECT_EQ(
        cycles[0]->title,
        "module map_div cycles through 2 hashes in a fixed order (3 loads): aa66fcd -> d1e0001 -> aa66fcd");
    EXPECT_EQ(cycles[0]->costNs, 50280000);
    EXPECT_EQ(
        cycles[1]->title,
        "module map_mul cycles through 2 hashes in a fixed order (3 loads): 6bdf336 -> fdfd350 -> 6bdf336");
    EXPECT_EQ(cycles[1]->costNs, 34020000);
    auto slow = a->of("warp.slow_cache_hit");
    ASSERT_EQ(slow.size(), 1u);
    // Cached loads 1.79, 34.02, 44.37, 50.28, 75.41, 2438.61 ms: median (44.37 + 50.28) / 2.
    const std::int64_t median = (44370000 + 50280000) / 2;
    EXPECT_EQ(slow[0]->costNs, 2438610000 - median);
    EXPECT_NE(slow[0]->title.find(
                  "module newton._src.solvers.mujoco.solver_mujoco loaded from cache in 2438.61 ms, 51x"),
              std::string::npos)
        << slow[0]->title;
    EXPECT_NE(
        slow[0]->mechanism.find("CUDA driver compiling PTX at load (the banner: driver 12.8, toolkit 12.8)"),
        std::string::npos)
        << slow[0]->mechanism;
    EXPECT_NE(slow[0]->fix.find("CUDA_CACHE_PATH"), std::string::npos);
    ASSERT_EQ(slow[0]->evidence.size(), 1u);
    EXPECT_NE(
        slow[0]->evidence[0].note.find("9a8f779 cuda:0 cached 2438.61 ms (newton_918_mpm_anymal.log:20)"),
        std::string::npos)
        << slow[0]->evidence[0].note;
}

// erikfrey/mjx_warp#63: five hashes of mujoco.mjx._src.solver, each compiled and slower than the last.
TEST(WarpRealLogs, CompileTimeRisingWithEveryHash) {
    auto a = analyse({"mjx_warp_63_solver_rising.log"});
    ASSERT_EQ(a->findings.size(), 1u) << kinds(*a); // replaces the plain churn finding
    const Finding& f = a->findings[0];
    EXPECT_EQ(f.kind, "warp.compile_time_rising");
    EXPECT_EQ(f.title, "module mujoco.mjx._src.solver compile time rose with each of its 5 hashes "
                       "(436.63 ms -> 964.80 ms): kernels added after the first load");
    EXPECT_EQ(f.costNs, 436630000LL + 496400000 + 806940000 + 826020000); // every build but the last
    EXPECT_EQ(f.evidence.size(), 5u);
}

// newton-physics/newton#697: ccd_kernel_builder rises (13 -> 21 -> 29 s); forward falls, which is
// plain churn and stays so.
TEST(WarpRealLogs, RisingAndChurnToldApart) {
    auto a = analyse({"newton_697_ccd_rising.log"});
    ASSERT_EQ(a->findings.size(), 2u) << kinds(*a);
    auto rising = a->of("warp.compile_time_rising");
    ASSERT_EQ(rising.size(), 1u);
    EXPECT_NE(
        rising[0]->title.find(
            "ccd_kernel_builder compile time rose with each of its 3 hashes (13025.32 ms -> 29339.83 ms)"),
        std::string::npos)
        << rising[0]->title;
    EXPECT_EQ(rising[0]->costNs, 13025320000LL + 20842540000LL);
    auto churn = a->of("warp.identity_churn");
    ASSERT_EQ(churn.size(), 1u);
    EXPECT_EQ(churn[0]->title, "module mujoco_warp._src.forward built under 3 hashes (identity churn)");
    EXPECT_EQ(churn[0]->costNs, 1563280000LL + 1449570000);
}

// NVIDIA/warp#995: module="unique" modules loaded under hashes that are not their names' suffixes; the
// narrowphase module's CUDA identity is loaded 7 times (its CPU one once, glued after a test's dot).
// The CPU hash 66e742d is no evidence: Warp hashes CPU loads at block_dim 1, the name at the module's
// default block_dim (warp_unique.h; real Warp 1.19 on the CPU in tests/collector/test_warp_real.py).
TEST(WarpRealLogs, UniqueModuleHashDiffersFromItsName) {
    auto a = analyse({"warp_995_unique_mismatch.log"});
    ASSERT_EQ(a->findings.size(), 3u) << kinds(*a);
    auto mismatch = a->of("warp.unique_hash_mismatch");
    ASSERT_EQ(mismatch.size(), 2u);
    std::sort(mismatch.begin(), mismatch.end(), [](auto* x, auto* y) { return x->title < y->title; });
    EXPECT_EQ(mismatch[0]->title,
              "unique module _create_narrowphase_kernel__locals___primitive_narrowphase_e8422eb6 "
              "loaded under hash 7550883, not the e8422eb6 its name carries");
    EXPECT_EQ(mismatch[0]->evidence.size(), 1u);
    EXPECT_FALSE(mismatch[0]->costNs.has_value());
    EXPECT_EQ(mismatch[1]->title,
              "unique module _tile_euler_dense__locals__euler_dense_c973a74a loaded under hash "
              "efca307, not the c973a74a its name carries");
    auto repeats = a->of("warp.repeated_loads");
    ASSERT_EQ(repeats.size(), 1u);
    EXPECT_EQ(repeats[0]->title, "module _create_narrowphase_kernel__locals___primitive_narrowphase_e8422eb6 "
                                 "loaded 7 times under one identity");
    EXPECT_EQ(repeats[0]->costNs, 1240000LL + 1250000 + 1220000 + 1210000 + 1270000 + 1210000);
}

// Real Warp 1.19.0 on the CPU (tests/warp/programs/unique_modules.py): three module="unique" modules,
// each named after its hash at block_dim 256 and loaded at block_dim 1, so no load carries its name's
// digits. That is Warp's design, not NVIDIA/warp#995: the three count as unique modules, no mismatch.
TEST(WarpRealLogs, UniqueModulesOnTheCpuAreNotHashMismatches) {
    auto a = analyse({"warp119_cpu_unique_modules.log"});
    ASSERT_EQ(a->findings.size(), 1u) << kinds(*a);
    auto unique = a->of("warp.unique_modules");
    ASSERT_EQ(unique.size(), 1u) << kinds(*a);
    EXPECT_EQ(unique[0]->title, "3 hash-named modules, one per kernel (module=\"unique\")");
    EXPECT_EQ(unique[0]->costNs, 2 * 220710000LL);  // (modules - 1) x the cheapest build
}

// Repeats are counted per identity: six identities loaded twice each are never "loaded 7 times under
// one identity". (Loads as the collector or a log gives them: A A B B ... is not a cycle.)
TEST(WarpRealLogs, RepeatedLoadsCountedPerIdentity) {
    std::vector<cs::engine::warp::ModuleLoad> loads;
    std::int64_t id = 0;
    auto cachedLoad = [&](const char* hash) {
        cs::engine::warp::ModuleLoad l;
        l.id = ++id;
        l.sessionId = 1;
        l.name = "newton._src.geometry.narrow_phase";
        l.hash = hash;
        l.device = "cuda:0";
        l.durNs = 4000000;
        l.result = CS_MODULE_CACHED;
        return l;
    };
    const char* hashes[] = {"f5e09bb", "d368c20", "6b4a09b", "6d6e05a", "d7cd559", "248a785"};
    for (const char* h : hashes)
        for (int i = 0; i < 2; ++i)
            loads.push_back(cachedLoad(h));
    auto findings = cs::engine::warp::diagnoseModules(cs::engine::warp::groupLoads(loads));
    auto it = std::find_if(findings.begin(), findings.end(),
                           [](const Finding& f) { return f.kind == "warp.repeated_loads"; });
    ASSERT_NE(it, findings.end());
    EXPECT_EQ(it->title, "module newton._src.geometry.narrow_phase: 6 identities each loaded twice");
    EXPECT_EQ(it->costNs, 6 * 4000000);
    EXPECT_EQ(it->evidence.size(), 6u);
    // Uneven repeats say so: one identity 3 times, one twice.
    loads.push_back(cachedLoad("248a785"));
    findings = cs::engine::warp::diagnoseModules(cs::engine::warp::groupLoads(loads));
    it = std::find_if(findings.begin(), findings.end(),
                      [](const Finding& f) { return f.kind == "warp.repeated_loads"; });
    ASSERT_NE(it, findings.end());
    EXPECT_EQ(it->title, "module newton._src.geometry.narrow_phase: 6 identities loaded again (7 repeat "
                         "loads, up to 3 times each)");
}

// newton-physics/newton#918 then #888 (same CI runners and Warp build): #918's run compiled
// newton._src.geometry.inertia 829810a, #888's loaded it from cache.
TEST(WarpRealLogs, ColdAndWarmRunsMatchedByIdentity) {
    auto a = analyse({"newton_918_mpm_anymal.log", "newton_888_robot_g1.log"});
    auto related = a->of("warp.runs_related");
    ASSERT_EQ(related.size(), 1u) << kinds(*a);
    EXPECT_EQ(related[0]->title, "1 identity, compiled in run 1, loaded from cache in run 2 (3865.91 ms of "
                                 "builds, 350.64 ms of loads)");
    EXPECT_EQ(related[0]->severity, cs::engine::Severity::Info);
    EXPECT_EQ(related[0]->evidence.size(), 2u);
    EXPECT_EQ(a->findings.size(), 4u) << kinds(*a); // + #918's two toggles and its slow cache hit
}

// newton-physics/newton#697's forward churn, then a warm run loading the same three hashes from cache:
// the runs are related by identity, and the churn is reported once, not again at 0 ns.
TEST(WarpRealLogs, ChurnNotRepeatedForTheWarmRun) {
    auto a = analyse({"newton_697_ccd_rising.log", "constructed_697_forward_warm.log"});
    auto churn = a->of("warp.identity_churn");
    ASSERT_EQ(churn.size(), 1u) << kinds(*a);
    EXPECT_EQ(churn[0]->costNs, 1563280000LL + 1449570000);
    auto related = a->of("warp.runs_related");
    ASSERT_EQ(related.size(), 1u);
    EXPECT_EQ(related[0]->title, "3 identities, compiled in run 1, loaded from cache in run 2 (4345.09 ms of "
                                 "builds, 61.27 ms of loads)");
    EXPECT_EQ(a->findings.size(), 3u) << kinds(*a); // + the rising ccd_kernel_builder
}

// NVIDIA/warp#991's one-kernel modules, split in two files: as two sessions each fragment is a
// many-small-modules finding of its own; joined into one session, one finding counts all 11.
TEST(WarpRealLogs, JoinedFragmentsCountManySmallModulesOnce) {
    auto apart = analyse({"warp_991_fem_part1.log", "warp_991_fem_part2.log"});
    auto small = apart->of("warp.many_small_modules");
    ASSERT_EQ(small.size(), 2u) << kinds(*apart);
    auto joined = analyse({"warp_991_fem_part1.log", "warp_991_fem_part2.log"}, {"--join-sessions"});
    small = joined->of("warp.many_small_modules");
    ASSERT_EQ(small.size(), 1u) << kinds(*joined);
    EXPECT_EQ(small[0]->title, "11 modules of __main__.dyn each built once on cuda:0");
    EXPECT_EQ(small[0]->costNs, 10 * 236210000LL); // (modules - 1) x the cheapest build
    EXPECT_EQ(joined->findings.size(), 1u) << kinds(*joined);
    auto reader = cs::trace::TraceReader::open(joined->trace);
    EXPECT_EQ(reader->rowCount("sessions"), 1);
    // The second fragment continues the first's clock.
    EXPECT_EQ(cs::test::scalar(*reader,
                               "SELECT min(start_ns) FROM module_loads m JOIN strings s ON s.id=m.origin_sid "
                               "WHERE s.str LIKE 'warp_991_fem_part2.log:%'"),
              236720000LL + 236210000 + 245930000 + 245230000 + 266170000 + 266470000);
}

// Every new kind reaches `compilescope findings` and the HTML report (both render collectFindings).
TEST(WarpRealLogs, NewFindingsInTheCliAndTheReport) {
    auto a = analyse({"newton_918_mpm_anymal.log", "newton_888_robot_g1.log", "mjx_warp_63_solver_rising.log",
                      "warp_995_unique_mismatch.log"});
    auto res = runCli({"findings", a->trace});
    ASSERT_EQ(res.status, 0) << res.err;
    for (const char* kind : {"warp.hash_cycle", "warp.slow_cache_hit", "warp.compile_time_rising",
                             "warp.unique_hash_mismatch", "warp.runs_related", "warp.repeated_loads"})
        EXPECT_NE(res.out.find(kind), std::string::npos) << kind << "\n" << res.out;
    EXPECT_NE(res.out.find("module map_div cycles through 2 hashes in a fixed order (3 loads): aa66fcd -> "
                           "d1e0001 -> aa66fcd"),
              std::string::npos)
        << res.out;
    auto html = a->dir.file("r.html");
    auto rep = runCli({"report", a->trace, "-o", html});
    ASSERT_EQ(rep.status, 0) << rep.err;
    std::string page = cs::test::readFile(html);
    for (const char* text :
         {"cycles through 2 hashes in a fixed order", "loaded from cache in 2438.61 ms",
          "compile time rose with each of its 5 hashes", "not the e8422eb6 its name carries",
          "compiled in run 1, loaded from cache in run 2"})
        EXPECT_NE(page.find(text), std::string::npos) << text;
}
