// Julia importers, one test per printed variant: raw REPL lists (Vector{Any} and Array{Any,1}
// headers, ⋮ elisions, both Method spellings, Julia 1.11 edge tags in the single list, the 1.12 edge
// list), SnoopCompile's printed trees, --trace-compile / @time / @time_imports, and the collector's
// own file. Each asserts the tree shape, child counts and totals, and what was counted as malformed.
#include "julia_test_util.h"

#include "core/ingest/import_files.h"

#include <compilescope/trace_constants.h>

using namespace cs::test;
using cs::engine::InvalidationReason;

namespace {
std::int64_t malformed(const std::string& trace) {
    auto r = cs::trace::TraceReader::open(trace);
    return scalar(*r, "SELECT coalesce(sum(count), 0) FROM stats WHERE name = 'malformed_record'");
}
std::string nodeMi(const cs::engine::InvalidationForest& f, std::int32_t n) { return std::string(f.nodes[static_cast<size_t>(n)].mi); }
}  // namespace

TEST(JuliaRawList, WorldsJl48954ListBuildsOneBackedgeWithItsCaller) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("raw_worlds_48954.txt")});
    EXPECT_EQ(malformed(t), 0);  // the "julia> list48954" prompt line is context, not lost data (issue 35)
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM invalidation_items WHERE list = 0"), 6);
    EXPECT_EQ(scalar(*r, "SELECT kind FROM invalidation_items WHERE ordinal = 1"), CS_INVITEM_INT);
    EXPECT_EQ(scalar(*r, "SELECT kind FROM invalidation_items WHERE ordinal = 4"), CS_INVITEM_METHOD);
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 1u);
    const auto& tree = f->trees[0];
    EXPECT_EQ(tree.reason, InvalidationReason::Inserting);
    EXPECT_EQ(tree.method, "mc48954(x::AbstractFloat, y::Int64) @ Main REPL[3]:1");
    EXPECT_EQ(tree.module, "Main");
    ASSERT_EQ(tree.backedges.size(), 1u);
    EXPECT_TRUE(tree.mtBackedges.empty());
    EXPECT_EQ(nodeMi(*f, tree.backedges[0].root), "MethodInstance for mc48954(::Float64, ::Int64)");
    EXPECT_EQ(f->countChildren(tree.backedges[0].root), 1);
    auto child = f->nodes[static_cast<size_t>(tree.backedges[0].root)].children.at(0);
    EXPECT_EQ(nodeMi(*f, child), "MethodInstance for mcc48954(::Float64, ::Int64)");
    EXPECT_EQ(tree.children, 1);
    EXPECT_EQ(tree.invalidatedInstances, 2);
    EXPECT_TRUE(f->problems.empty());
}

TEST(JuliaRawList, OldArrayAnyHeaderInModAtMethodsMtBackedgesCacheAndDeletion) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("raw_old_array_any.txt")});
    EXPECT_EQ(malformed(t), 1);  // header says 14, 13 items follow: a truncated paste
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 2u);
    // Ascending by children: the deletion (0) before the insertion (1).
    const auto& del = f->trees[0];
    EXPECT_EQ(del.reason, InvalidationReason::Deleting);
    EXPECT_EQ(del.method, "Float64(::Irrational{:twoπ}) in Base at irrationals.jl:207");
    EXPECT_EQ(del.module, "Base");
    EXPECT_EQ(del.mtDisableCount, 1);
    EXPECT_EQ(del.mtDisable.at(0), "MethodInstance for Float64(::Irrational{:twoπ})");
    const auto& ins = f->trees[1];
    EXPECT_EQ(ins.module, "FooPkg");
    ASSERT_EQ(ins.mtBackedges.size(), 1u);
    EXPECT_EQ(ins.mtBackedges[0].signature, "Tuple{typeof(convert),Type{Foo},Any}");
    EXPECT_EQ(nodeMi(*f, ins.mtBackedges[0].root), "MethodInstance for FooPkg.wrap(::Any)");
    EXPECT_EQ(f->countChildren(ins.mtBackedges[0].root), 1);
    EXPECT_EQ(ins.mtCacheCount, 1);
    EXPECT_EQ(ins.children, 1);
}

TEST(JuliaRawList, Julia111EdgeTagsInTheSingleListAttachCallersToTheCause) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("raw_1_11_edges_in_methods.txt")});
    EXPECT_EQ(malformed(t), 0);  // the prompt line is context (issue 35)
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 1u);
    const auto& tree = f->trees[0];
    EXPECT_EQ(tree.method, "show(io::IO, ::Type{T}) where T<:Tracker.TrackedReal @ Tracker "
                           "C:\\Users\\u\\.julia\\packages\\Tracker\\cRI5s\\src\\Tracker.jl:77");
    EXPECT_EQ(tree.module, "Tracker");
    ASSERT_EQ(tree.backedges.size(), 1u);
    auto root = tree.backedges[0].root;
    EXPECT_EQ(nodeMi(*f, root), "MethodInstance for show(::IOBuffer, ::Type)");
    EXPECT_EQ(f->countChildren(root), 2);  // describe, and report under it
    auto describe = f->nodes[static_cast<size_t>(root)].children.at(0);
    EXPECT_EQ(nodeMi(*f, describe), "MethodInstance for Pkg2.describe(::Type)");
    EXPECT_EQ(nodeMi(*f, f->nodes[static_cast<size_t>(describe)].children.at(0)),
              "MethodInstance for Pkg2.report(::Vector{DataType})");
    EXPECT_TRUE(f->problems.empty());
}

TEST(JuliaRawList, ElidedListBuildsTheVisibleTreeAndSaysWhatItDropped) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("raw_elided.txt")});
    EXPECT_EQ(malformed(t), 0);  // 202 announced, ⋮ explains the gap
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM invalidation_items WHERE kind = 10"), 1);
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 1u);
    EXPECT_TRUE(f->trees[0].incomplete);
    EXPECT_EQ(f->trees[0].method, "to_int(x::MyInt) @ MyPkg ~/.julia/dev/MyPkg/src/MyPkg.jl:12");
    EXPECT_EQ(f->trees[0].children, 1);
    ASSERT_EQ(f->problems.size(), 2u);
    EXPECT_NE(f->problems[0].what.find("elided"), std::string::npos);
    EXPECT_EQ(f->problems[0].items, 1);  // the open lastindex/getindex branch
}

TEST(JuliaRawList, Julia112EdgeListAfterLogedgesPromptWithACutOffEntry) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("raw_1_12_logedges_truncated.txt")});
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM invalidation_items WHERE list = 1"), 10);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM invalidation_items WHERE list = 0"), 0);
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 1u);
    const auto& tree = f->trees[0];
    EXPECT_EQ(tree.reason, InvalidationReason::Inserting);
    ASSERT_EQ(tree.backedges.size(), 1u);
    EXPECT_EQ(nodeMi(*f, tree.backedges[0].root), "MethodInstance for show(::IOBuffer, ::Type)");
    EXPECT_EQ(tree.children, 2);  // describe (a CodeInstance) and report under it
    ASSERT_EQ(f->problems.size(), 1u);
    EXPECT_EQ(f->problems[0].what, "insert_backedges_callee cut off at the end of the list");
    EXPECT_EQ(f->problems[0].items, 3);
}

TEST(JuliaRawList, GarbageAndMixedInLinesAreCountedNeverFatal) {
    TempDir dir;
    auto in = dir.file("mixed.txt");
    writeFile(in,
              "julia> list\n"
              "5-element Vector{Any}:\n"
              "  MethodInstance for g(::Int64)\n"
              " 1\n"
              "  \x01\x02 not a julia value\n"
              "  MethodInstance for f(::Int64)\n"
              "  \"jl_method_table_insert\"\n"
              "some program output\n"
              "3-element Vector{Any}:\n"
              "  MethodInstance for h(::Int64)\n");
    auto t = importInto(dir, {in});
    // garbage item, program output, and both lists short of their headers (4 of 5, 1 of 3); the prompt
    // is context (issue 35).
    EXPECT_EQ(malformed(t), 4);
    auto f = treesOf(t);
    EXPECT_TRUE(f->trees.empty());  // the Method line never came
    ASSERT_FALSE(f->problems.empty());
}

TEST(JuliaPrintedTrees, ColouredPasteWithPaddedIndicesWindowsPathsAndBothMethodForms) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("printed_trees.txt")});
    EXPECT_EQ(malformed(t), 0);  // the julia> prompt is context (issue 35)
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 4u);
    EXPECT_EQ(f->trees[0].module, "FooPkg");
    EXPECT_EQ(f->trees[0].children, 0);
    EXPECT_EQ(f->trees[1].reason, InvalidationReason::Deleting);
    EXPECT_EQ(f->trees[1].mtDisableCount, 3);  // first + "+2 more"
    EXPECT_EQ(f->trees[1].children, 2);
    const auto& iter = f->trees[2];
    ASSERT_EQ(iter.mtBackedges.size(), 2u);
    EXPECT_EQ(iter.mtBackedges[0].formerly, "iterate(r::AbstractRange) @ Base range.jl:908");
    EXPECT_EQ(iter.mtBackedges[0].signature, "Tuple{typeof(iterate), Any, Any}");
    EXPECT_EQ(iter.mtCacheCount, 3);
    EXPECT_EQ(iter.children, 14);
    const auto& show = f->trees[3];
    EXPECT_EQ(show.method, "show(io::IO, ::Type{MyType}) @ MyPkg C:\\Users\\u\\MyPkg\\src\\show.jl:40");
    EXPECT_EQ(show.module, "MyPkg");
    ASSERT_EQ(show.backedges.size(), 12u);
    EXPECT_EQ(show.backedges[11].superseded, "show(io::IO, x::Type) @ Base show.jl:950");
    EXPECT_EQ(nodeMi(*f, show.backedges[11].root), "MethodInstance for show(::IO, ::Type)");
    EXPECT_EQ(show.children, 0 + 0 + 1 + 1 + 2 + 3 + 5 + 8 + 13 + 21 + 34 + 840);
    EXPECT_EQ(show.invalidatedInstances, 12 + show.children);
    EXPECT_EQ(show.mtCacheCount, 5);
    EXPECT_TRUE(f->problems.empty());
}

TEST(JuliaPrintedTrees, OrphansAreKeptTruncatedEntriesGarbageAndElidedTreesAreCounted) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("printed_orphans.txt")});
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM stats WHERE name = 'orphan_tree_line'"), 0);  // kept, not lost
    EXPECT_EQ(scalar(*r, "SELECT count FROM stats WHERE name = 'malformed_record'"), 1);  // the garbage line
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 3u);
    EXPECT_EQ(f->trees[0].mtBackedges.size(), 1u);  // the cut-off second entry is not guessed
    EXPECT_EQ(f->trees[0].children, 1);
    EXPECT_EQ(f->trees[1].children, 7);
    // The two entries before the first header: an orphan tree with the children they show.
    EXPECT_TRUE(f->trees[2].orphan);
    EXPECT_EQ(f->trees[2].backedges.size(), 2u);
    EXPECT_EQ(f->trees[2].children, 4 + 9);
    EXPECT_EQ(f->declaredTrees.value_or(-1), 2);
    ASSERT_EQ(f->problems.size(), 2u);
    EXPECT_NE(f->problems[0].what.find("cannot read"), std::string::npos);
    EXPECT_NE(f->problems[1].what.find("elided"), std::string::npos);
}

TEST(JuliaTiming, TraceCompileWithAndWithoutTimingTimeAndTimeImports) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("timing_mixed.txt")});
    EXPECT_EQ(malformed(t), 1);  // "#= 12.x ms =#"; the two lines of program output are context (issue 35)
    auto r = cs::trace::TraceReader::open(t);
    auto spans = [&](int cat) {
        return scalar(*r, "SELECT count(*) FROM spans WHERE category = " + std::to_string(cat));
    };
    EXPECT_EQ(spans(CS_CAT_COMPILE), 6);
    EXPECT_EQ(spans(CS_CAT_INIT), 2);
    EXPECT_EQ(spans(CS_CAT_IMPORT), 4);
    EXPECT_EQ(spans(CS_CAT_OTHER), 2);  // the @time lines
    auto arg = [&](const std::string& span, const std::string& key) {
        return scalar(*r, "SELECT a.value FROM spans s JOIN strings n ON n.id = s.name_sid JOIN span_args a ON "
                          "a.span_id = s.id JOIN strings k ON k.id = a.key_sid WHERE n.str = '" + span +
                              "' AND k.str = '" + key + "'");
    };
    EXPECT_EQ(arg("Tuple{typeof(Base.sum), Array{Int64, 1}}", "recompile"), 1);  // yellow on a tty
    EXPECT_EQ(arg("Tuple{typeof(Main.g), Int64}", "untimed"), 1);
    EXPECT_EQ(scalar(*r, "SELECT dur_ns FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str = "
                         "'Tuple{typeof(Base.:(*)), Array{Float64, 2}, Array{Float64, 2}}'"),
              102000000);
    EXPECT_EQ(arg("SomeDep", "recompile_ns"), 153468970);  // 402.7 ms x 38.11% x 100%
    // Init rows nest in the package printed after them: their shares are already in its figures.
    EXPECT_EQ(arg("FooBar_jll.__init__()", "init_compile_ns"), 1153800);
    EXPECT_EQ(arg("FooBar_jll.Lib.__init__()", "init_compile_ns"), 0);
    EXPECT_EQ(arg("SomeDep → SomeDepFooBarExt", "recompile_below_1pct"), 1);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE k.str = "
                         "'extension_of' AND a.value = 'SomeDep'"),
              1);
    EXPECT_EQ(scalar(*r, "SELECT sum(dur_ns) FROM spans WHERE category = 5"), 12500000 + 402700000 + 3200000 + 5012300000);
}

TEST(JuliaCollector, EnzymeRecordingHasBothListsInstancesTimingsAndVersion) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("enzyme_collector.txt")});
    EXPECT_EQ(malformed(t), 0);
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(r->meta("julia_version"), "1.12.1");
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM invalidation_items WHERE list = 0"), 8);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM invalidation_items WHERE list = 1"), 14);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM methods"), 2);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM spans WHERE category = 1"), 3);
}

TEST(JuliaCollector, NitroObservationsAndBadRecordsAreKeptOrCounted) {
    TempDir dir;
    auto in = dir.file("c.txt");
    writeFile(in,
              "# compilescope-julia 1\n"
              "nitro_stats\t100\tafter train! step 1\t0\t2\t2\n"
              "nitro_key\t100\ttrain!\t1\t(typeof(loss), (128, 64), 0x5f3e)\n"
              "nitro_closure\t1\tMyModel.loss\t31999\n"
              "nitro_closure\t9\tMyModel.loss\t31999\n"
              "item\tmethods\tbogus\tx\n"
              "compile\tnot a precompile line\n"
              "what\n");
    auto t = importInto(dir, {in});
    EXPECT_EQ(malformed(t), 4);  // closure of an unknown key, bad item kind, bad compile, unknown record
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(scalar(*r, "SELECT value FROM counters c JOIN strings n ON n.id = c.name_sid WHERE n.str = 'misses'"), 2);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM cache_lookups"), 1);
    EXPECT_EQ(scalar(*r, "SELECT world FROM closures"), 31999);
}

TEST(JuliaSniffing, EachJuliaFileGoesToItsImporterAndNvccCsvStaysNvcc) {
    const auto& reg = cs::ingest::ImporterRegistry::builtin();
    auto pick = [&](const std::string& name) {
        auto imp = reg.sniff(cs::ingest::readHead(juliaFixture(name)), name);
        return imp ? std::string(imp->id()) : std::string("none");
    };
    EXPECT_EQ(pick("raw_worlds_48954.txt"), "julia-invalidations");
    EXPECT_EQ(pick("raw_old_array_any.txt"), "julia-invalidations");
    EXPECT_EQ(pick("raw_1_12_logedges_truncated.txt"), "julia-invalidations");
    EXPECT_EQ(pick("printed_trees.txt"), "julia-trees");
    EXPECT_EQ(pick("printed_orphans.txt"), "julia-trees");
    EXPECT_EQ(pick("timing_mixed.txt"), "julia-timing");
    EXPECT_EQ(pick("enzyme_collector.txt"), "julia-collector");
    auto csv = reg.sniff("source file name , phase name , phase input files , phase output file , arch , tool, metric , unit\n", "a.csv");
    ASSERT_NE(csv, nullptr);
    EXPECT_EQ(csv->id(), "nvcc-time");
    EXPECT_EQ(reg.sniff("{\"traceEvents\": []}", "t.json") == nullptr || reg.sniff("{\"traceEvents\": []}", "t.json")->id().substr(0, 5) != "julia", true);
}
