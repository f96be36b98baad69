// The tree builder on in-memory lists, quoting SnoopCompile's semantics (docs/formats.md 1.2): depth
// climbing with dummy ancestors, mt_backedges closed by a signature, merge of identical
// (method, reason) roots, the 1.12 edge list consolidated into the method trees, versions and tags
// this build does not know reported instead of guessed, and the signature keys of the cost join.
#include "core/engine/julia/invalidation_load.h"
#include "core/engine/julia/invalidation_printed.h"
#include "core/engine/julia/invalidation_trees.h"
#include "core/engine/julia/invalidation_build.h"
#include "core/formats/julia_signature.h"

#include <compilescope/trace_constants.h>
#include <gtest/gtest.h>

#include <deque>

using namespace cs::engine;

namespace {
// Items are views; the texts the helpers make live for the whole test program.
std::string_view kept(std::string s) {
    static std::deque<std::string> store;
    return store.emplace_back(std::move(s));
}
RawInvalidationItem mi(const std::string& s) { return {CS_INVITEM_METHOD_INSTANCE, kept("MethodInstance for " + s)}; }
RawInvalidationItem ci(const std::string& s) { return {CS_INVITEM_CODE_INSTANCE, kept("CodeInstance for " + s)}; }
RawInvalidationItem depth(int d) { return {CS_INVITEM_INT, kept(std::to_string(d))}; }
RawInvalidationItem tag(const std::string& s) { return {CS_INVITEM_TAG, kept("\"" + s + "\"")}; }
RawInvalidationItem method(const std::string& s) { return {CS_INVITEM_METHOD, kept(s)}; }
RawInvalidationItem sig(const std::string& s) { return {CS_INVITEM_TYPE, kept(s)}; }
RawInvalidationItem vec(const std::string& s) { return {CS_INVITEM_VECTOR, kept(s)}; }
const std::string kM = "f(::AbstractFloat) @ Main REPL[1]:1";
}  // namespace

TEST(InvalidationTrees, PrecompileToolsShapedInsertionWithDepth0TreeAndEmptySignature) {
    // PrecompileTools tests: Any[mis[1], 0, mis[2], 1, Tuple{}, m, "jl_method_table_insert"]
    InvalidationInput in;
    in.methodsList = {mi("a(::Int64)"), depth(0), mi("b(::Int64)"), depth(1), sig("Tuple{}"), method(kM),
                      tag("jl_method_table_insert")};
    auto f = buildInvalidationTrees(in);
    ASSERT_EQ(f.trees.size(), 1u);
    ASSERT_EQ(f.trees[0].mtBackedges.size(), 1u);
    EXPECT_EQ(f.trees[0].mtBackedges[0].signature, "Tuple{}");
    EXPECT_EQ(f.countChildren(f.trees[0].mtBackedges[0].root), 1);
    EXPECT_TRUE(f.problems.empty());
}

TEST(InvalidationTrees, PrecompileToolsShapedDeletion) {
    // Any[mis[1], 1, mis[2], "jl_method_table_disable", m, "jl_method_table_disable"]
    InvalidationInput in;
    in.methodsList = {mi("a(::Int64)"), depth(1), mi("b(::Int64)"), tag("jl_method_table_disable"), method(kM),
                      tag("jl_method_table_disable")};
    auto f = buildInvalidationTrees(in);
    ASSERT_EQ(f.trees.size(), 1u);
    EXPECT_EQ(f.trees[0].reason, InvalidationReason::Deleting);
    ASSERT_EQ(f.trees[0].backedges.size(), 1u);
    EXPECT_EQ(f.nodes[static_cast<size_t>(f.trees[0].backedges[0].root)].mi, "MethodInstance for b(::Int64)");
    EXPECT_EQ(f.trees[0].children, 1);
}

TEST(InvalidationTrees, DeepDepthsClimbToTheRightParentAndSortAscending) {
    InvalidationInput in;
    // Root r gets callers: c1 (depth1) <- c11 (2) <- c111 (3); c2 (1) ; c12 (2, under c2).
    in.methodsList = {mi("c1()"), depth(1), mi("c11()"), depth(2), mi("c111()"), depth(3), mi("c2()"), depth(1),
                      mi("c21()"), depth(2), mi("r()"), tag("jl_method_table_insert"), method(kM),
                      tag("jl_method_table_insert")};
    auto f = buildInvalidationTrees(in);
    ASSERT_EQ(f.trees.size(), 1u);
    auto root = f.trees[0].backedges.at(0).root;
    EXPECT_EQ(f.countChildren(root), 5);
    const auto& kids = f.nodes[static_cast<size_t>(root)].children;
    ASSERT_EQ(kids.size(), 2u);
    EXPECT_EQ(f.nodes[static_cast<size_t>(kids[0])].mi, "MethodInstance for c2()");  // 1 descendant first
    EXPECT_EQ(f.countChildren(kids[1]), 2);
    std::ostringstream out;
    printTree(out, f, f.trees[0], {.vectorHeader = false, .costs = false, .nodes = true}, "");
    EXPECT_EQ(out.str(),
              "inserting f(::AbstractFloat) @ Main REPL[1]:1 invalidated:\n"
              "   backedges: 1: superseding (method not in the log) with MethodInstance for r() (5 children)\n"
              "     MethodInstance for r() (5 children)\n"
              "      MethodInstance for c2() (1 children)\n"
              "       MethodInstance for c21() (0 children)\n"
              "      MethodInstance for c1() (2 children)\n"
              "       MethodInstance for c11() (1 children)\n"
              "        MethodInstance for c111() (0 children)\n");
}

TEST(InvalidationTrees, SameMethodTwiceMergesIntoOneTreeAndJoinsEqualSignatures) {
    InvalidationInput in;
    in.methodsList = {mi("w(::Any)"), depth(0), mi("u()"), depth(1), sig("Tuple{typeof(f), Any}"), method(kM),
                      tag("jl_method_table_insert"),
                      mi("w(::Any)"), depth(0), mi("v()"), depth(1), sig("Tuple{typeof(f), Any}"), method(kM),
                      tag("jl_method_table_insert")};
    auto f = buildInvalidationTrees(in);
    ASSERT_EQ(f.trees.size(), 1u);
    ASSERT_EQ(f.trees[0].mtBackedges.size(), 1u);
    EXPECT_EQ(f.countChildren(f.trees[0].mtBackedges[0].root), 2);  // u and v under one w
}

TEST(InvalidationTrees, EdgeListConsolidatesIntoTheMethodTreeAndUnattributedGoesToUnknown) {
    InvalidationInput in;
    in.juliaVersion = "1.12.0";
    in.methodsList = {mi("g(::Int64)"), depth(1), mi("f(::Float64)"), tag("jl_method_table_insert"), method(kM),
                      tag("jl_method_table_insert")};
    in.edgesList = {mi("f(::Real)"), tag("insert_backedges_callee"), ci("P.h(::Real)"), vec("Any[" + kM + "]"),
                    ci("P.k()"), tag("verify_methods"), ci("P.h(::Real)"),
                    ci("Q.z()"), tag("verify_methods"), ci("Q.y()"),
                    sig("Tuple{typeof(f), Integer}"), tag("insert_backedges_callee"), ci("R.q(::Integer)"), {CS_INVITEM_NOTHING, "nothing"}};
    auto f = buildInvalidationTrees(in);
    ASSERT_EQ(f.trees.size(), 2u);
    // unknown (Q.y <- Q.z, and the signature whose matches Julia logged as `nothing`: a cause not
    // recorded, not a deletion - issue 15), then the merged insertion (f(::Float64)+1, f(::Real)+2).
    const auto& unknown = f.trees[0];
    EXPECT_EQ(unknown.reason, InvalidationReason::Unknown);
    EXPECT_EQ(unknown.method, "nothing");
    EXPECT_EQ(unknown.children, 1);
    ASSERT_EQ(unknown.mtBackedges.size(), 1u);
    EXPECT_EQ(unknown.mtBackedges[0].signature, "Tuple{typeof(f), Integer}");
    EXPECT_EQ(unknown.invalidatedInstances, 3);  // R.q itself, Q.y and its caller Q.z
    EXPECT_EQ(unknown.note, "1 of 2 roots have no callers in the log: the root itself is the invalidated code");
    const auto& ins = f.trees[1];
    EXPECT_EQ(ins.method, kM);
    ASSERT_EQ(ins.backedges.size(), 2u);
    EXPECT_EQ(ins.children, 3);
    EXPECT_EQ(f.nodes[static_cast<size_t>(ins.backedges[1].root)].mi, "MethodInstance for f(::Real)");
    EXPECT_TRUE(f.problems.empty());  // nothing was deleted: no unnamed deleted method to report
}

TEST(InvalidationTrees, UnknownVersionIsReportedAndNotBuilt) {
    InvalidationInput in;
    in.juliaVersion = "1.15.0";
    in.methodsList = {mi("g()"), depth(1), mi("f()"), tag("jl_method_table_insert"), method(kM), tag("jl_method_table_insert")};
    auto f = buildInvalidationTrees(in);
    EXPECT_TRUE(f.trees.empty());
    ASSERT_EQ(f.problems.size(), 1u);
    EXPECT_NE(f.problems[0].what.find("Julia 1.15.0"), std::string::npos);
    EXPECT_EQ(f.problems[0].items, 6);
    EXPECT_TRUE(knownJuliaVersion("1.10.4"));
    EXPECT_FALSE(knownJuliaVersion("1.8.5"));
    EXPECT_FALSE(knownJuliaVersion("garbage"));
}

TEST(InvalidationTrees, UnknownAndPre19TagsAreCountedAndTheRestStillBuilds) {
    InvalidationInput in;
    in.methodsList = {mi("x()"), tag("jl_something_new"), mi("y()"), tag("jl_insert_method_instance"),
                      {CS_INVITEM_INT, "3"}, mi("g()"), depth(1), mi("f()"), tag("jl_method_table_insert"),
                      method(kM), tag("jl_method_table_insert"), mi("dangling()")};
    auto f = buildInvalidationTrees(in);
    ASSERT_EQ(f.trees.size(), 1u);
    EXPECT_EQ(f.trees[0].children, 1);
    ASSERT_EQ(f.problems.size(), 4u);
    EXPECT_NE(f.problems[0].what.find("unknown tag \"jl_something_new\""), std::string::npos);
    EXPECT_NE(f.problems[1].what.find("Julia <= 1.8"), std::string::npos);
    EXPECT_NE(f.problems[3].what.find("truncated"), std::string::npos);
}

TEST(InvalidationTrees, FilterByModuleMinChildrenAndFindCaller) {
    InvalidationInput in;
    in.methodsList = {mi("A.g()"), depth(1), mi("A.h()"), depth(2), mi("f()"), tag("jl_method_table_insert"),
                      method("f(::Int) @ PkgA a.jl:1"), tag("jl_method_table_insert"),
                      mi("B.g()"), depth(1), mi("f2()"), tag("jl_method_table_insert"),
                      method("f2(::Int) @ PkgB b.jl:1"), tag("jl_method_table_insert")};
    auto f = buildInvalidationTrees(in);
    ASSERT_EQ(f.trees.size(), 2u);
    EXPECT_EQ(filterTrees(f, "PkgA", 0)->trees.size(), 1u);
    EXPECT_EQ(filterTrees(f, "", 2)->trees.size(), 1u);
    EXPECT_EQ(filterTrees(f, "Nope", 0)->trees.size(), 0u);
    auto path = findCaller(f, "A.h()");
    ASSERT_TRUE(path.has_value());
    EXPECT_EQ(path->nodes.size(), 3u);
    EXPECT_FALSE(findCaller(f, "zzz").has_value());
}

TEST(JuliaSignature, MethodInstanceAndPrecompileTextsMeetOnOneKey) {
    std::string q1, q2;
    EXPECT_EQ(methodInstanceKey("MethodInstance for show(::IOContext{Base.TTY}, ::Type)", &q1),
              precompileSignatureKey("Tuple{typeof(Base.show), Base.IOContext{Base.TTY}, Type}", &q2));
    EXPECT_TRUE(qualifiersAgree(q1, q2));
    EXPECT_EQ(methodInstanceKey("MethodInstance for sum(::Vector{Int64})"),
              precompileSignatureKey("precompile(Tuple{typeof(Base.sum), Array{Int64, 1}})"));
    EXPECT_EQ(methodInstanceKey("MethodInstance for show(::IOBuffer, ::Type)"),
              precompileSignatureKey("Tuple{typeof(Base.show), Base.GenericIOBuffer{Array{UInt8, 1}}, Type}"));
    EXPECT_EQ(methodInstanceKey("MethodInstance for (::Type{Foo})(::Int64)"), precompileSignatureKey("Tuple{Type{Foo}, Int64}"));
    EXPECT_EQ(methodInstanceKey("MethodInstance for +(::Int64, ::Int64)"), precompileSignatureKey("Tuple{typeof(Base.:(+)), Int64, Int64}"));
    // Same name in different modules must not meet: qualifiers disagree.
    methodInstanceKey("MethodInstance for Enzyme.__init__()", &q1);
    precompileSignatureKey("Tuple{typeof(Tracker.__init__)}", &q2);
    EXPECT_FALSE(qualifiersAgree(q1, q2));
    EXPECT_NE(methodInstanceKey("MethodInstance for f(::Int64)"), methodInstanceKey("MethodInstance for f(::Int32)"));
    EXPECT_EQ(methodInstanceKey("not a call"), "");
    EXPECT_EQ(moduleOfText("f(x) @ Tracker C:\\a\\b.jl:3"), "Tracker");
    EXPECT_EQ(moduleOfText("f(x) in FooPkg at /a/b.jl:3"), "FooPkg");
}

TEST(InvalidationCost, RecompileStatementsAndInitSpansJoinTakingTheLargerNeverTheSum) {
    InvalidationInput in;
    in.methodsList = {mi("Enzyme.__init__()"), depth(2), mi("P.g()"), depth(1), mi("show(::IOBuffer, ::Type)"),
                      tag("jl_method_table_insert"), method(kM), tag("jl_method_table_insert")};
    auto f = buildInvalidationTrees(in);
    joinRecompileCosts(f, {{"Tuple{typeof(Enzyme.__init__)}", false, 18'000'000'000, 1},
                           {"Enzyme.__init__()", true, 20'000'000'000, 2},
                           {"Tuple{typeof(Base.show), Base.GenericIOBuffer{Vector{UInt8}}, Type}", false, 5'000'000, 3},
                           {"Tuple{typeof(Other.__init__)}", false, 7'000'000, 4}});
    ASSERT_EQ(f.trees.size(), 1u);
    EXPECT_TRUE(f.costJoined);
    EXPECT_EQ(f.trees[0].recompileNs, 20'005'000'000);
    EXPECT_EQ(f.trees[0].recompiledInstances, 2);
    EXPECT_EQ(f.trees[0].invalidatedInstances, 3);
    EXPECT_EQ(f.nodes[static_cast<size_t>(f.trees[0].backedges[0].root)].subtreeRecompileNs, 20'005'000'000);
}

TEST(InvalidationRobustness, EveryPrefixOfAListAndEveryCutLineIsHandled) {
    // Truncated pastes are the common case: every prefix must build without throwing, and a cut in
    // the middle of a group must be reported rather than guessed into a tree.
    std::vector<RawInvalidationItem> list = {mi("A.g()"), depth(1), mi("A.h()"), depth(2), mi("f()"),
                                             tag("jl_method_table_insert"), mi("w(::Any)"), depth(0), mi("u()"),
                                             depth(1), sig("Tuple{typeof(f), Any}"), mi("c()"),
                                             tag("invalidate_mt_cache"), method(kM), tag("jl_method_table_insert")};
    for (size_t k = 0; k <= list.size(); ++k) {
        InvalidationInput in;
        in.methodsList.assign(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(k));
        in.edgesList = in.methodsList;  // the same items read as an edge list must not crash either
        InvalidationForest f;
        ASSERT_NO_THROW(f = buildInvalidationTrees(in)) << "prefix " << k;
        if (k > 0 && k < list.size()) {
            EXPECT_FALSE(f.problems.empty()) << "prefix " << k;
        }
    }
    std::vector<std::string> printedLines = {
        " inserting f(::AbstractFloat) @ Main REPL[36]:1 invalidated:",
        "   mt_backedges: 1: signature Tuple{typeof(f), Any} triggered MethodInstance for applyf(::Vector{Any}) (1 children)",
        "   backedges: 1: superseding g(x) @ Main REPL[39]:1 with MethodInstance for g(::Int64) (7 children)",
        "   mt_disable: MethodInstance for Float64(::Irrational{:twoπ})", "               +2 more", "   3 mt_cache"};
    for (const auto& line : printedLines) {
        for (size_t cut = 0; cut <= line.size(); ++cut) {
            InvalidationInput in;
            in.printedTreeLines = {printedLines[0], line.substr(0, cut)};
            ASSERT_NO_THROW(buildInvalidationTrees(in));
        }
    }
}

TEST(InvalidationRobustness, HostileTextsNeitherCrashNorRecurseWithoutBound) {
    std::string deep = "MethodInstance for f(::" + std::string(200000, '{') + std::string(200000, '}') + ")";
    EXPECT_NO_THROW(methodInstanceKey(deep));
    EXPECT_NO_THROW(precompileSignatureKey("Tuple{" + std::string(100000, '{') + "}"));
    EXPECT_EQ(methodInstanceKey("MethodInstance for f("), "");
    EXPECT_EQ(methodInstanceKey("MethodInstance for ))(("), "");
    InvalidationInput in;
    in.methodsList = {mi("a()"), depth(2000000000), mi("b()"), {CS_INVITEM_INT, "-5"}, mi("c()"), depth(2000),
                      mi("d()"), tag("jl_method_table_insert"), method(kM), tag("jl_method_table_insert")};
    auto f = buildInvalidationTrees(in);
    ASSERT_EQ(f.trees.size(), 1u);
    // c at depth 2000 hangs under 1999 filled-in ancestors, which SnoopCompile's countchildren counts
    // too; the refused depths (2000000000, -5) add nothing.
    EXPECT_EQ(f.trees[0].children, 2000);
    std::ostringstream out;
    printTrees(out, f, {.vectorHeader = true, .costs = true, .nodes = true});
    EXPECT_NE(out.str().find("(not logged)"), std::string::npos);
}
