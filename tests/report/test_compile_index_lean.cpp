// The diff's lean compile index (IndexDetail::Identity) against the full one: every row it lists
// must name the same thing the full index names (table, kind, name, identity, outcome, cost, time,
// key), or `diff` would match compiles the report shows differently; and it carries none of the
// explanation, which only the report reads. And `analyseSides`, which analyses traces on several
// threads, returns them in argument order and throws the first error.
#include "cli_process.h"
#include "report_fixture.h"
#include "test_util.h"

#include "core/engine/analysis/compile_index.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/measure/trace_diff.h"
#include "core/trace/trace_error.h"
#include "core/trace/reader.h"

#include <gtest/gtest.h>

#include <set>

using namespace cs;

namespace {

std::string import(const test::TempDir& dir, const std::string& input, const std::string& name) {
    // `compilescope import` as a process: this test links the report layer, not the importers.
    const auto r = test::process::runCli({"import", input, "-o", dir.file(name)});
    EXPECT_EQ(r.status, 0) << r.err;
    return dir.file(name);
}

// Traces whose compile rows cover every indexed table: cache lookups and a Numba compile span (the
// demo), module loads (Warp's log), torch.compile spans with compile ids, NVRTC programs (the fixture).
std::vector<std::string> traces(const test::TempDir& dir) {
    const std::string src = test::sourceDir();
    const std::string fixture = dir.file("fixture.cstrace");
    test::writeReportFixture(fixture);
    return {src + "/resources/demo/demo.cstrace", fixture,
            import(dir, src + "/resources/demo/warp-verbose.log", "warp.cstrace"),
            import(dir, src + "/tests/data/torch/recompiles_ids_issue148179.log", "torch.cstrace")};
}

}  // namespace

TEST(CompileIndexLean, NamesEveryRowAsTheFullIndexDoes) {
    test::TempDir dir;
    std::set<std::string> tables;
    for (const std::string& path : traces(dir)) {
        auto reader = trace::TraceReader::open(path);
        auto analysis = engine::analyseTrace(*reader);
        const auto full = engine::buildCompileIndex(*reader, *analysis, 100000, engine::IndexDetail::Full);
        const auto lean = engine::buildCompileIndex(*reader, *analysis, 100000, engine::IndexDetail::Identity);
        ASSERT_GT(full.entries.size(), 0u) << path;
        ASSERT_EQ(lean.entries.size(), full.entries.size()) << path;
        EXPECT_EQ(lean.total, full.total) << path;
        for (size_t i = 0; i < full.entries.size(); ++i) {
            const engine::CompileEntry &f = full.entries[i], &l = lean.entries[i];
            SCOPED_TRACE(path + ": " + f.table + " " + std::to_string(f.rowId));
            tables.insert(f.table);
            EXPECT_EQ(l.table, f.table);
            EXPECT_EQ(l.rowId, f.rowId);
            EXPECT_EQ(l.kind, f.kind);
            EXPECT_EQ(l.name, f.name);
            EXPECT_EQ(l.identity, f.identity);
            EXPECT_EQ(l.runtime, f.runtime);
            EXPECT_EQ(l.outcome, f.outcome);
            EXPECT_EQ(l.costNs, f.costNs);
            EXPECT_EQ(l.startNs, f.startNs);
            EXPECT_EQ(l.durNs, f.durNs);
            EXPECT_EQ(l.step, f.step);
            ASSERT_EQ(l.key.size(), f.key.size());
            for (size_t k = 0; k < f.key.size(); ++k) {
                EXPECT_EQ(l.key[k].name, f.key[k].name);
                EXPECT_EQ(l.key[k].value, f.key[k].value);
                EXPECT_EQ(l.key[k].inKey, f.key[k].inKey);
            }
            // Named, never explained: diff matches rows by what names them, and the explanations
            // (why, changes, options, inputs, log) are for the report's rows.
            EXPECT_TRUE(l.changes.empty() && l.options.empty() && l.phases.empty() && l.inputs.empty() && l.log.empty());
            if (f.table != "cuda_programs") {
                EXPECT_TRUE(l.why.empty()) << l.why;
            }
        }
    }
    // The traces above reach every table the lean index reads in its own pass.
    for (const char* t : {"cache_lookups", "module_loads", "cuda_programs", "spans"}) EXPECT_TRUE(tables.count(t)) << t;
}

TEST(CompileIndexLean, SidesComeBackInArgumentOrder) {
    test::TempDir dir;
    const auto paths = traces(dir);
    const auto [base, head] = measure::analyseSides({paths[0], paths[1]}, {paths[2], paths[3]});
    ASSERT_EQ(base.size(), 2u);
    ASSERT_EQ(head.size(), 2u);
    EXPECT_EQ(base[0]->path, paths[0]);
    EXPECT_EQ(base[1]->path, paths[1]);
    EXPECT_EQ(head[0]->path, paths[2]);
    EXPECT_EQ(head[1]->path, paths[3]);
    for (const auto& side : {base, head})
        for (const auto& a : side) EXPECT_EQ(a->compileIndex.rowLimit, measure::kDiffIndexRows) << a->path;
}

TEST(CompileIndexLean, FirstUnreadableTraceInOrderIsTheError) {
    test::TempDir dir;
    const auto paths = traces(dir);
    const std::string missing1 = dir.file("first-missing.cstrace"), missing2 = dir.file("second-missing.cstrace");
    try {
        measure::analyseSides({paths[0], missing1}, {missing2});
        FAIL() << "a missing trace must throw";
    } catch (const trace::TraceError& e) {
        EXPECT_NE(std::string(e.what()).find("first-missing"), std::string::npos) << e.what();
    }
}
