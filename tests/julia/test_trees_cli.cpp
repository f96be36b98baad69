// `compilescope trees`: the Enzyme case end to end (golden), the line-for-line re-print of an
// imported printed tree, the options, and the findings the trees produce.
#include "julia_test_util.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/all_findings.h"
#include "core/formats/text_util.h"

using namespace cs::test;

namespace {
std::string withoutAnsiAndTrailingSpace(const std::string& s) {
    std::string out;
    std::istringstream in(s);
    std::string line;
    while (std::getline(in, line)) {
        auto clean = cs::ingest::stripAnsi(line);
        while (!clean.empty() && (clean.back() == ' ' || clean.back() == '\r')) clean.pop_back();
        out += clean + "\n";
    }
    return out;
}
}  // namespace

TEST(TreesCli, EnzymeCaseShowTypeInsertionIsTheRootReachesInitAndCarriesTheRecompileMs) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("enzyme_collector.txt")});
    auto res = runCli({"trees", t, "--nodes"});
    ASSERT_EQ(res.status, 0) << res.err;
    // stderr holds each tree's keyed counts (engine/analysis/trace_figures.h), nothing else: no note.
    EXPECT_TRUE(res.err.starts_with("tree 1: ")) << res.err;
    EXPECT_EQ(res.err.find("note:"), std::string::npos) << res.err;
    expectGolden(res.out, "enzyme_trees.expected.txt");
    auto path = runCli({"trees", t, "--path", "Enzyme.__init__"});
    ASSERT_EQ(path.status, 0) << path.err;
    expectGolden(path.out, "enzyme_path.expected.txt");
}

TEST(TreesCli, EnzymeCaseFromRawPasteAndJuliaTimingFilesInOneTrace) {
    // The same story without the collector: a raw 1.11 list, --trace-compile-timing and
    // @time_imports output imported together; the cost comes from the timing files.
    TempDir dir;
    auto timing = dir.file("load.txt");
    writeFile(timing,
              "#=   42.0 ms =# precompile(Tuple{typeof(Pkg2.report), Array{DataType, 1}}) # recompile\n"
              "               ┌ 900.0 ms Pkg2.__init__() 90.00% compilation time (50% recompilation)\n"
              "    950.0 ms  Pkg2 88.00% compilation time (50% recompilation)\n");
    auto t = importInto(dir, {juliaFixture("raw_1_11_edges_in_methods.txt"), timing});
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 1u);
    EXPECT_EQ(f->trees[0].recompileNs, 42'000'000);
    EXPECT_EQ(f->trees[0].recompiledInstances, 1);
    auto res = runCli({"trees", t});
    EXPECT_NE(res.out.find("   recompiled: 42.0 ms in 1 of 3 invalidated MethodInstances\n"), std::string::npos) << res.out;
}

TEST(TreesCli, ImportedPrintedTreesReprintLineForLine) {
    TempDir dir;
    for (const char* name : {"printed_trees.txt"}) {
        auto t = importInto(dir, {juliaFixture(name)});
        auto res = runCli({"trees", t});
        ASSERT_EQ(res.status, 0) << res.err;
        auto input = withoutAnsiAndTrailingSpace(readFile(juliaFixture(name)));
        input = input.substr(input.find('\n') + 1);  // the julia> prompt is not part of the trees
        EXPECT_EQ(withoutAnsiAndTrailingSpace(res.out), input);
    }
}

TEST(TreesCli, ModuleAndMinChildrenFilterAndBadOptionsAreUsageErrors) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("printed_trees.txt")});
    auto mine = runCli({"trees", t, "--module", "MyRanges"});
    ASSERT_EQ(mine.status, 0);
    EXPECT_EQ(mine.out.substr(0, mine.out.find('\n')), "1-element Vector{SnoopCompile.MethodInvalidations}:");
    EXPECT_NE(mine.out.find("iterate(r::MyRange, state)"), std::string::npos);
    auto big = runCli({"trees", t, "--min-children", "14"});
    EXPECT_EQ(big.out.substr(0, big.out.find('\n')), "2-element Vector{SnoopCompile.MethodInvalidations}:");
    EXPECT_EQ(runCli({"trees", t, "--min-children", "-3"}).status, 2);
    EXPECT_EQ(runCli({"trees", t, "--bogus"}).status, 2);
    EXPECT_EQ(runCli({"trees"}).status, 2);
    EXPECT_EQ(runCli({"trees", dir.file("missing.cstrace")}).status, 2);
}

TEST(TreesCli, UnreadablePartsAreNotedOnStderrNotInTheTrees) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("printed_orphans.txt")});
    auto res = runCli({"trees", t});
    ASSERT_EQ(res.status, 0);
    EXPECT_NE(res.err.find("note: printed trees elided with ⋮"), std::string::npos) << res.err;
    EXPECT_EQ(res.out.find("note:"), std::string::npos);
}

TEST(InvalidationFindings, EnzymeRootIsACostedWarningWithAFix) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("enzyme_collector.txt")});
    auto reader = cs::trace::TraceReader::open(t);
    auto findings = cs::engine::analyseTrace(*reader)->findings;
    ASSERT_FALSE(findings.empty());
    const auto& f = findings[0];
    EXPECT_EQ(f.kind, "julia.invalidation_tree");
    EXPECT_EQ(f.severity, cs::engine::Severity::Warning);
    EXPECT_EQ(f.title, "inserting show(io::IO, ::Type{T}) where T<:Tracker.TrackedReal invalidated 7 MethodInstances "
                       "costing 20763.9 ms of recompilation");
    ASSERT_TRUE(f.costNs.has_value());
    EXPECT_EQ(*f.costNs, 20'763'947'800);
    EXPECT_NE(f.fix.find("show(::IO, ::Type{T})"), std::string::npos);
    // The __init__ span (largest), the show recompile statement, then the tree itself (for viewers to open).
    ASSERT_EQ(f.evidence.size(), 3u);
    EXPECT_EQ(f.evidence[0].table, "spans");
    EXPECT_EQ(f.evidence[0].note, "MethodInstance for Enzyme.__init__() recompiled, 20760.8 ms");
    EXPECT_EQ(cs::test::scalar(*reader, "SELECT category FROM spans WHERE id = " + std::to_string(f.evidence[0].rowId)), CS_CAT_INIT);
    EXPECT_EQ(f.evidence[1].note, "MethodInstance for show(::IOContext{Base.TTY}, ::Type) recompiled, 3.1 ms");
    EXPECT_EQ(f.evidence[2].table, "invalidation_trees");
    const auto forest = cs::engine::analyseTrace(*reader)->invalidations;
    ASSERT_TRUE(forest);
    const auto tree = static_cast<std::size_t>(f.evidence[2].rowId - 1);
    ASSERT_LT(tree, forest->trees.size());
    EXPECT_EQ(forest->trees[tree].method.rfind("show(io::IO, ::Type{T}) where T<:Tracker.TrackedReal", 0), 0u)
        << forest->trees[tree].method;
}

TEST(TreesCli, EdgeValidationHeaderOfConsolidateFalseReprintsAndCompactFormIsNotGuessed) {
    // SnoopCompile 3 with consolidate=false prints edge-validation trees under "Invalidating methods:".
    TempDir dir;
    auto in = dir.file("edge_trees.txt");
    const std::string trees =
        "2-element Vector{SnoopCompile.MultiMethodInvalidations}:\n"
        " Invalidating methods: convert(::Type{A}, x::B) @ PkgA a.jl:3, convert(::Type{A}, x::C) @ PkgA a.jl:4\n"
        "   mt_backedges: 1: signature Tuple{typeof(convert), Type{A}, Any} triggered MethodInstance for PkgZ.run(::Any) (2 children)\n"
        "\n"
        " Invalidating methods: Main.x\n"
        "   backedges: 1: superseding (method not in the log) with MethodInstance for f() (3 children)\n";
    writeFile(in, trees + "inserting g(x) @ M m.jl:1 invalidated:\n   mt_backedges: 1: signature Tuple{typeof(g), Any} triggered "
                          "MethodInstance for h(::Any) (1 children), 2: signature Tuple{typeof(g), Int} triggered "
                          "MethodInstance for k(::Int) (0 children);\n");
    auto t = importInto(dir, {in});
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 3u);
    EXPECT_TRUE(f->trees[1].multiMethodHeader);
    EXPECT_EQ(f->trees[1].methods.size(), 2u);
    // The compact (", "-joined) form is not SnoopCompile's REPL display: counted, not guessed.
    ASSERT_EQ(f->problems.size(), 1u);
    EXPECT_NE(f->problems[0].what.find("cannot read"), std::string::npos);
    cs::engine::InvalidationForest edgeOnly = *f;
    edgeOnly.trees = {f->trees[1], f->trees[2]};
    std::ostringstream out;
    cs::engine::printTrees(out, edgeOnly, {});
    EXPECT_EQ(out.str(), std::string("2-element Vector{SnoopCompile.MethodInvalidations}:\n") + trees.substr(trees.find('\n') + 1));
}
