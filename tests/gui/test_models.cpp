// Every model of the GUI under QAbstractItemModelTester, fed with real snapshots of a real trace,
// through the sort/filter proxies the views use.
#include "gui_test_util.h"

#include "app/models/cache_models.h"
#include "app/models/findings_model.h"
#include "app/models/invalidation_icicle.h"
#include "app/models/invalidation_models.h"
#include "app/models/module_models.h"
#include "core/engine/julia/invalidation_load.h"
#include "core/engine/warp/warp_cache_lookups.h"
#include "app/models/search_model.h"
#include "app/models/summary_models.h"
#include "core/trace/reader.h"
#include "demo_trace_builder.h"
#include "test_util.h"

#include <QSortFilterProxyModel>

#include <algorithm>
#include <map>

using namespace cs::gui;
using cs::test::checkThroughProxy;
namespace demo = cs::test::demo;

namespace {
struct Loaded {
    cs::test::TempDir dir;
    SummaryPtr summary;
    TimelinePtr timeline;
    Loaded() {
        demo::writeDemoTrace(dir.file("demo.cstrace"));
        auto reader = cs::trace::TraceReader::open(dir.file("demo.cstrace"));
        summary = std::make_shared<const cs::engine::CompileSummary>(cs::engine::summarizeCompileTime(*reader));
        timeline = std::make_shared<const cs::engine::TimelineData>(cs::engine::loadTimeline(*reader));
    }
};

FindingsPtr someFindings() {
    auto v = std::make_shared<std::vector<cs::engine::Finding>>();
    for (int i = 0; i < 3; ++i) {
        cs::engine::Finding f;
        f.kind = "test.kind" + std::to_string(i);
        f.title = "finding " + std::to_string(i);
        f.costNs = (i + 1) * 1000000;
        for (int e = 0; e < i + 1; ++e) f.evidence.push_back({"cache_lookups", e + 1, "row " + std::to_string(e)});
        v->push_back(f);
    }
    return v;
}

}  // namespace

TEST(GuiModels, ShareModelsByCategoryAndRuntime) {
    Loaded l;
    ShareModel* m = makeShareModel(QStringLiteral("Category"), nullptr);
    checkThroughProxy(m, [&] { m->setRows(shareRows(*l.summary, l.summary->byCategory)); });
    ASSERT_EQ(m->rowCount(), 6);  // compile, program compile (the misses' times), module build, inference, NVRTC, compiler phase
    EXPECT_EQ(m->index(0, 0).data().toString(), QStringLiteral("compile"));
    EXPECT_EQ(m->index(0, 1).data(SortRole).toLongLong(), demo::kJuliaCompileNs);
    EXPECT_EQ(m->index(0, 3).data().toString(), QStringLiteral("45.0%"));  // 4.5 s of 10 s wall
    delete m;
}

TEST(GuiModels, SessionAndProblemModels) {
    Loaded l;
    SessionModel* s = makeSessionModel(nullptr);
    checkThroughProxy(s, [&] { s->setRows(std::make_shared<const std::vector<cs::engine::SessionSummary>>(l.summary->sessions)); });
    EXPECT_EQ(s->rowCount(), 3);
    EXPECT_EQ(s->index(1, 0).data().toString(), QStringLiteral("warp pid 200"));
    ProblemModel* p = makeProblemModel(nullptr);
    checkThroughProxy(p, [&] { p->setRows(std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a x1 (b)"})); });
    EXPECT_EQ(p->rowCount(), 1);
    delete s;
    delete p;
}

TEST(GuiModels, FindingsTreeHasEvidenceChildren) {
    FindingsModel* m = makeFindingsModel(nullptr);
    FindingsPtr findings = someFindings();
    checkThroughProxy(m, [&] { m->setTree(buildFindingTree(findings)); });
    ASSERT_EQ(m->rowCount(), 3);
    QModelIndex third = m->index(2, 0);
    EXPECT_EQ(m->rowCount(third), 3);
    EXPECT_EQ(m->index(0, 0, third).data().toString(), QStringLiteral("cache lookup 1: row 0"));
    EXPECT_EQ(m->parent(m->index(0, 0, third)), third);
    EXPECT_EQ(m->index(2, 2).data().toString(), QStringLiteral("3.00 ms"));
    m->setTree(buildFindingTree(findings, 1));
    EXPECT_EQ(m->rowCount(), 1);
    delete m;
}

TEST(GuiModels, SearchModelOverAllTraces) {
    Loaded l;
    SearchModel* m = makeSearchModel(nullptr);
    std::vector<SearchInput> in{{QStringLiteral("a"), l.timeline, {}}, {QStringLiteral("b"), l.timeline, {}}};
    checkThroughProxy(m, [&] { m->setRows(searchNames(in, QStringLiteral("gradient"))); });
    EXPECT_EQ(m->rowCount(), 6);  // three names per trace, two traces
    EXPECT_EQ(m->index(0, 5).data().toString(), QStringLiteral("a"));
    EXPECT_EQ(m->index(3, 5).data().toString(), QStringLiteral("b"));
    delete m;
}

TEST(GuiModels, EngineModelsCacheModulesInvalidations) {
    cs::test::TempDir dir;
    demo::writeDemoTrace(dir.file("demo.cstrace"));
    auto reader = cs::trace::TraceReader::open(dir.file("demo.cstrace"));
    auto cache = cs::engine::analyseCache(*reader);
    CacheLookupModel* lookups = makeCacheLookupModel(nullptr);
    checkThroughProxy(lookups, [&] { lookups->setRows(cacheLookupRows(cache)); });
    EXPECT_EQ(lookups->rowCount(), demo::kLookups);
    CacheIssueModel* issues = makeCacheIssueModel(nullptr);
    checkThroughProxy(issues, [&] { issues->setRows(cacheIssueRows(*cache)); });

    auto report = std::make_shared<const cs::engine::warp::ModuleReport>(cs::engine::warp::buildModuleReport(*reader));
    ModulesModel* modules = makeModulesModel(nullptr);
    checkThroughProxy(modules, [&] { modules->setTree(buildModuleTree(report)); });
    EXPECT_EQ(modules->rowCount(), 2);

    auto forest = cs::engine::loadInvalidationTrees(*reader);
    InvalidationsModel* inv = makeInvalidationsModel(nullptr);
    checkThroughProxy(inv, [&] { inv->setTree(buildInvalidationTree(forest)); });
    ASSERT_EQ(inv->rowCount(), 1);
    EXPECT_EQ(inv->rowCount(inv->index(0, 0)), 1);  // one backedge under the inserted method
    delete lookups;
    delete issues;
    delete modules;
    delete inv;
}

// The Cache view's rows: the recorded lookups, then the Warp module loads as lookups of their kernel
// cache (warp_cache_lookups.h), with the module loads' problems beside the recorded cache's.
TEST(GuiModels, CacheLookupsOfTheRecordedAndTheWarpCache) {
    cs::test::TempDir dir;
    demo::writeDemoTrace(dir.file("demo.cstrace"));
    auto reader = cs::trace::TraceReader::open(dir.file("demo.cstrace"));
    auto cache = cs::engine::analyseCache(*reader);
    auto modules = cs::engine::warp::analyseModuleCache(cs::engine::warp::buildModuleReport(*reader));
    ASSERT_TRUE(modules);
    CacheLookupModel* lookups = makeCacheLookupModel(nullptr);
    checkThroughProxy(lookups, [&] { lookups->setRows(cacheLookupRows(cache, modules)); });
    ASSERT_EQ(lookups->rowCount(), demo::kLookups + static_cast<int>(modules->facts.lookups.size()));
    // warp.sim at its second hash: a recompile naming the hash that moved, and a module load by name.
    const int last = lookups->rowCount() - 1;
    bool recompile = false;
    for (int r = demo::kLookups; r <= last; ++r) {
        EXPECT_TRUE(lookups->index(r, 6).data().toString().startsWith(QStringLiteral("module load #")));
        if (lookups->index(r, 0).data().toString() == QStringLiteral("recompile"))
            recompile |= lookups->index(r, 2).data().toString().contains(QStringLiteral("bbbbbbb"));
    }
    EXPECT_TRUE(recompile);
    CacheIssueModel* issues = makeCacheIssueModel(nullptr);
    checkThroughProxy(issues, [&] { issues->setRows(cacheIssueRows(cache.get(), modules.get())); });
    EXPECT_EQ(issues->rowCount(), static_cast<int>(cacheIssueRows(*cache)->size() + cacheIssueRows(*modules)->size()));
    delete lookups;
    delete issues;
}

// Without compile timings the icicle weighs MethodInstances: a root its distinct ones, a caller
// itself and its callers. Children wider in sum than their parent (a caller reached twice) are
// scaled to fit; blocks under the minimum width are left out with their descendants.
TEST(GuiModels, IcicleLayoutWeighsRowsAndFitsChildren) {
    InvalidationTreeSnapshot t;
    const int root = t.add({QStringLiteral("inserting f"), 4, 0, {}, -1, 5});  // 5 distinct instances
    const int a = t.add({QStringLiteral("edge a"), 3, 0, {}, -1}, root);   // 4 with itself
    const int b = t.add({QStringLiteral("edge b"), 1, 0, {}, -1}, root);   // 2 with itself: 6 > 5
    const int a1 = t.add({QStringLiteral("a1"), 2, 0, {}, 0}, a);
    const int other = t.add({QStringLiteral("inserting g"), 0, 0, {}, -1, 1});
    IcicleLayout l = layoutIcicle(t);
    EXPECT_FALSE(l.byCost);
    EXPECT_EQ(l.total, 6);
    std::map<int, IcicleBlock> of;
    for (const IcicleBlock& blk : l.blocks) of[blk.node] = blk;
    ASSERT_EQ(of.size(), 5u);
    EXPECT_DOUBLE_EQ(of[root].x1 - of[root].x0, 5.0 / 6.0);
    EXPECT_DOUBLE_EQ(of[other].x1 - of[other].x0, 1.0 / 6.0);
    EXPECT_EQ(of[a].weight, 4);
    EXPECT_EQ(of[b].weight, 2);
    // 4 + 2 > 5: the edges share the root's width as 4 : 2.
    EXPECT_DOUBLE_EQ(of[a].x1 - of[a].x0, 5.0 / 6.0 * 4.0 / 6.0);
    EXPECT_DOUBLE_EQ(of[b].x1 - of[b].x0, 5.0 / 6.0 * 2.0 / 6.0);
    EXPECT_DOUBLE_EQ(of[a1].x1 - of[a1].x0, (of[a].x1 - of[a].x0) * 3.0 / 4.0);  // 3 of a's 4
    EXPECT_EQ(l.depths, 3);
    EXPECT_EQ(icicleBlockAt(l, of[b].x0 + 1e-6, 1), static_cast<int>(std::find_if(l.blocks.begin(), l.blocks.end(), [&](const IcicleBlock& x) {
                                                                         return x.node == b;
                                                                     }) - l.blocks.begin()));
    // A minimum width of 0.3 leaves out "inserting g" (1/6) and b (5/18), not a (5/9) nor a1 (5/12).
    IcicleLayout coarse = layoutIcicle(t, 0.3);
    EXPECT_EQ(coarse.blocks.size(), 3u);
    for (const IcicleBlock& blk : coarse.blocks) {
        EXPECT_NE(blk.node, other);
        EXPECT_NE(blk.node, b);
    }
}

// Every match, not the first 2000: the search model fetches a thousand rows at a time and sorts all
// of them, so the latest start sorts first even when it was never fetched.
TEST(GuiModels, SearchModelFetchesLazilyAndSortsEveryMatch) {
    cs::test::TempDir dir;
    demo::writeSyntheticTrace(dir.file("big.cstrace"), 6000, 2);
    auto reader = cs::trace::TraceReader::open(dir.file("big.cstrace"));
    auto timeline = std::make_shared<const cs::engine::TimelineData>(cs::engine::loadTimeline(*reader));
    SearchModel* m = makeSearchModel(nullptr);
    auto tester = cs::test::testModel(m);
    auto rows = searchNames({{QStringLiteral("big"), timeline, {}}}, QStringLiteral("kernel_"));
    ASSERT_EQ(rows->size(), 6000u);
    std::int64_t latest = 0;
    for (const SearchRow& r : *rows) latest = std::max(latest, r.item.startNs);
    m->setRows(rows);
    EXPECT_EQ(m->rowCount(), 1000);
    EXPECT_EQ(m->totalRows(), 6000u);
    ASSERT_TRUE(m->canFetchMore({}));
    m->fetchMore({});
    EXPECT_EQ(m->rowCount(), 2000);
    m->sort(2, Qt::DescendingOrder);  // Start
    EXPECT_EQ(m->rowCount(), 1000);
    EXPECT_EQ(m->rowAt(0)->item.startNs, latest);
    for (int r = 1; r < m->rowCount(); ++r) EXPECT_GE(m->rowAt(r - 1)->item.startNs, m->rowAt(r)->item.startNs);
    while (m->canFetchMore({})) m->fetchMore({});
    EXPECT_EQ(m->rowCount(), 6000);
    EXPECT_GE(m->rowAt(4999)->item.startNs, m->rowAt(5999)->item.startNs);
    m->setRows(searchNames({{QStringLiteral("big"), timeline, {}}}, QStringLiteral("kernel_1")));  // keeps the sort
    ASSERT_GT(m->rowCount(), 1);
    for (int r = 1; r < m->rowCount(); ++r) EXPECT_GE(m->rowAt(r - 1)->item.startNs, m->rowAt(r)->item.startNs);
    cs::test::expectModelOk();
    delete m;
}

// The aggregate mode: one row per name with the engine's totals, under the model tester.
TEST(GuiModels, SearchTotalsPerName) {
    Loaded l;
    SearchTotalsModel* m = makeSearchTotalsModel(nullptr);
    std::vector<SearchInput> in{{QStringLiteral("a"), l.timeline, {}}};
    const auto rows = searchNames(in, QStringLiteral("gradient"));
    checkThroughProxy(m, [&] { m->setRows(searchTotals(in, *rows)); });
    qlonglong count = 0, total = 0, brute = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
        count += m->index(r, 1).data().toLongLong();
        total += m->index(r, 2).data(SortRole).toLongLong();
    }
    for (const SearchRow& r : *rows) brute += r.item.endNs - r.item.startNs;
    EXPECT_GT(count, 0);
    EXPECT_EQ(count, static_cast<qlonglong>(rows->size()));
    EXPECT_EQ(total, brute) << "each name's total is the sum of its hits' durations";
    delete m;
}
