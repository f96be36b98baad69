// Issue 15, Julia invalidations: what users paste is read, not refused. A printed tree that starts at
// a numbered continuation entry (SnoopCompile #373), a printed list cut after 2 of its 3 trees
// (SnoopCompile PR #418), and Julia 1.12 edge-list fragments with no header that start at an
// elision line, including the "no cause" entry of julia PR #57999 (sources: tests/data/julia/README.md).
#include "julia_test_util.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/ingest/import_files.h"
#include "core/ingest/importer_registry.h"

#include <compilescope/trace_constants.h>

using namespace cs::test;
using cs::engine::InvalidationReason;

namespace {
std::string pick(const std::string& name) {
    const auto& reg = cs::ingest::ImporterRegistry::builtin();
    auto imp = reg.sniff(cs::ingest::readHead(juliaFixture(name)), name);
    return imp ? std::string(imp->id()) : std::string("none");
}
std::int64_t malformed(const std::string& trace) {
    auto r = cs::trace::TraceReader::open(trace);
    return scalar(*r, "SELECT coalesce(sum(count), 0) FROM stats WHERE name = 'malformed_record'");
}
std::vector<cs::engine::Finding> findingsOf(const std::string& trace, const std::string& kind) {
    auto reader = cs::trace::TraceReader::open(trace);
    std::vector<cs::engine::Finding> out;
    auto analysis = cs::engine::analyseTrace(*reader);
    for (auto& f : analysis->findings)
        if (f.kind == kind) out.push_back(f);
    return out;
}
}  // namespace

TEST(PastedFragments, EachFragmentIsSniffedAsItsFormat) {
    EXPECT_EQ(pick("printed_fragment_snoopcompile_373.txt"), "julia-trees");
    EXPECT_EQ(pick("printed_cut_snoopcompile_418.txt"), "julia-trees");
    EXPECT_EQ(pick("raw_1_12_edges_no_cause_57999.txt"), "julia-invalidations");
    EXPECT_EQ(pick("raw_1_12_edges_fragment.txt"), "julia-invalidations");
}

TEST(PastedFragments, EntriesWithoutATreeHeaderAreKeptAsAnOrphanTreeWithTheirChildren) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("printed_fragment_snoopcompile_373.txt")});
    EXPECT_EQ(malformed(t), 0);
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 1u);
    const auto& orphan = f->trees[0];
    EXPECT_TRUE(orphan.orphan);
    EXPECT_EQ(orphan.reason, InvalidationReason::Unknown);
    ASSERT_EQ(orphan.backedges.size(), 10u);  // entries 68..77
    EXPECT_TRUE(orphan.mtBackedges.empty());
    EXPECT_EQ(orphan.children, 1 + 16 + 4 + 13 + 6 + 1 + 4 + 1 + 5 + 1);  // the sum shown: 52
    EXPECT_EQ(orphan.backedges.back().superseded, "isequal(x, y) @ Base operators.jl:133");
    EXPECT_EQ(f->countChildren(orphan.backedges.back().root), 16);  // sorted ascending, as SnoopCompile
    EXPECT_EQ(f->orphanLines, 0);
    EXPECT_TRUE(f->problems.empty());
    auto found = findingsOf(t, "julia.invalidation_tree");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].title, "printed entries whose tree header is not in the paste invalidated 62 MethodInstances");
}

TEST(PastedFragments, ACutPrintoutKeepsItsDeclaredLengthAndTreesSaysSo) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("printed_cut_snoopcompile_418.txt")});
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 2u);
    ASSERT_TRUE(f->declaredTrees.has_value());
    EXPECT_EQ(*f->declaredTrees, 3);
    EXPECT_EQ(f->trees[0].children, 1);
    EXPECT_EQ(f->trees[1].children, 1);
    EXPECT_EQ(f->trees[1].backedges.size(), 3u);
    auto res = runCli({"trees", t});
    ASSERT_EQ(res.status, 0) << res.err;
    std::istringstream out(res.out);
    std::string first, second;
    std::getline(out, first);
    std::getline(out, second);
    EXPECT_EQ(first, "3-element Vector{SnoopCompile.MethodInvalidations}:");
    EXPECT_EQ(second, " # 2 of 3 trees present: the printout was cut");
    // A selection is not the printout: its header counts what it shows.
    auto sel = runCli({"trees", t, "--min-children", "1"});
    EXPECT_EQ(sel.out.substr(0, sel.out.find('\n')), "2-element Vector{SnoopCompile.MethodInvalidations}:");
}

TEST(PastedFragments, Julia112EdgeWithNothingForItsCauseIsAnUnknownCauseWithANote) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("raw_1_12_edges_no_cause_57999.txt")});
    EXPECT_EQ(malformed(t), 0);
    auto r = cs::trace::TraceReader::open(t);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM invalidation_items WHERE list = " + std::to_string(CS_INVLIST_EDGES)), 6);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM invalidation_items WHERE kind = " + std::to_string(CS_INVITEM_ELISION)), 2);
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 1u);
    const auto& tree = f->trees[0];
    EXPECT_EQ(tree.reason, InvalidationReason::Unknown);
    EXPECT_FALSE(tree.orphan);
    ASSERT_EQ(tree.mtBackedges.size(), 1u);
    EXPECT_EQ(tree.mtBackedges[0].signature, "Tuple{typeof(InvalidA.f), Signed}");
    EXPECT_EQ(std::string(f->nodes[static_cast<size_t>(tree.mtBackedges[0].root)].mi),
              "MethodInstance for InvalidA.invokesfs(::Int64)");
    EXPECT_EQ(tree.children, 0);
    EXPECT_EQ(tree.invalidatedInstances, 1);  // the root itself: never an empty tree
    EXPECT_EQ(tree.note, "1 of 1 root has no callers in the log: the root itself is the invalidated code");
    std::string text = printed(*f);
    EXPECT_NE(text.find("unknown nothing invalidated:\n"), std::string::npos) << text;
    EXPECT_NE(text.find("   note: 1 of 1 root has no callers"), std::string::npos) << text;
    auto found = findingsOf(t, "julia.invalidation_tree");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].title, "an invalidation with an unknown cause invalidated 1 MethodInstances");
    EXPECT_NE(found[0].mechanism.find("records no cause"), std::string::npos);
}

TEST(PastedFragments, Julia112EdgeFragmentStartingAtAnElisionAttachesItsCaller) {
    TempDir dir;
    auto t = importInto(dir, {juliaFixture("raw_1_12_edges_fragment.txt")});
    EXPECT_EQ(malformed(t), 0);
    auto f = treesOf(t);
    ASSERT_EQ(f->trees.size(), 1u);
    const auto& tree = f->trees[0];
    EXPECT_EQ(tree.reason, InvalidationReason::Unknown);
    ASSERT_EQ(tree.mtBackedges.size(), 1u);
    auto root = tree.mtBackedges[0].root;
    EXPECT_EQ(f->countChildren(root), 1);
    auto child = f->nodes[static_cast<size_t>(root)].children.at(0);
    EXPECT_EQ(std::string(f->nodes[static_cast<size_t>(child)].mi), "MethodInstance for InvalidB.__init__()");
    EXPECT_EQ(tree.invalidatedInstances, 2);
    EXPECT_TRUE(tree.note.empty());  // its root has a caller
    ASSERT_EQ(f->problems.size(), 1u);  // the elisions, said once
    EXPECT_EQ(f->problems[0].items, 2);
}
