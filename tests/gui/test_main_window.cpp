// The real main window, offscreen: open the demo trace and check what each view shows.
#include "gui_test_util.h"

#include "app/gui/main_window.h"
#include "app/models/trace_loader.h"
#include "app/plots/timeline_plot.h"
#include "app/plots/bar_chart.h"
#include "app/widgets/cache_view.h"
#include "app/widgets/filtered_table.h"
#include "app/widgets/findings_view.h"
#include "app/widgets/invalidations_view.h"
#include "app/widgets/modules_view.h"
#include "app/widgets/overview_view.h"
#include "app/widgets/search_view.h"
#include "app/widgets/timeline_view.h"
#include "core/trace/writer.h"
#include "demo_trace_builder.h"
#include "app/models/text.h"
#include "test_util.h"

#include <QAction>
#include <QApplication>
#include <QColor>
#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QSortFilterProxyModel>
#include <QTreeView>

#include <filesystem>

using namespace cs::gui;
namespace demo = cs::test::demo;

namespace {
class MainWindowTest : public ::testing::Test {
protected:
    void SetUp() override {
        demo::writeDemoTrace(dir.file("demo.cstrace"));
        path = QString::fromStdString(dir.file("demo.cstrace"));
        window = std::make_unique<MainWindow>();
        window->resize(1200, 800);
        window->show();
    }
    void open(const QStringList& paths) {
        window->openTraces(paths);
        ASSERT_TRUE(cs::test::waitFor([&] { return !window->isLoading(); })) << "loading did not finish";
    }
    TimelinePlot* plot() const { return window->timeline()->plot(); }
    cs::test::TempDir dir;
    QString path;
    std::unique_ptr<MainWindow> window;
};
}  // namespace

TEST_F(MainWindowTest, OverviewShowsCompileTimeSharesAndVerdict) {
    open({path});
    OverviewView* o = window->overview();
    // 5.30 s of it on the wall clock, its share of the wall time; the nvcc phases carry no timestamp,
    // so their 50 ms are said apart, outside the wall time (issue 35); 100 ms of cache loads beside.
    EXPECT_TRUE(o->headline().contains(QStringLiteral("5.35 s compiling: 5.30 s (53.0%) of 10.0 s clocked wall time, "
                                                      "50.0 ms in logs without a clock · 100 ms cache loads")))
        << o->headline().toStdString();
    EXPECT_EQ(o->categoryModel()->rowCount(), 6);
    EXPECT_EQ(o->categoryModel()->index(0, 0).data().toString(), QStringLiteral("compile"));
    EXPECT_EQ(o->runtimeModel()->rowCount(), 3);
    EXPECT_EQ(o->runtimeModel()->index(1, 0).data().toString(), QStringLiteral("Warp"));  // as users say it
    EXPECT_EQ(o->runtimeModel()->index(1, 1).data().toString(), QStringLiteral("2.00 s"));
    EXPECT_EQ(o->sessionModel()->rowCount(), 3);
    EXPECT_TRUE(o->verdict().contains(QStringLiteral("Acceptance"))) << o->verdict().toStdString();
    EXPECT_EQ(window->statusText(), QStringLiteral("1 trace(s) open"));
}

// Runtimes as users say them, microseconds as "µs", the chart in the timeline's category colours.
TEST(OverviewText, RuntimeNamesUnitsAndColours) {
    EXPECT_EQ(runtimeDisplayName("import:warp-log"), QStringLiteral("Warp (imported log)"));
    EXPECT_EQ(runtimeDisplayName("import:julia-timing"), QStringLiteral("Julia (imported timing output)"));
    EXPECT_EQ(runtimeDisplayName("numba"), QStringLiteral("Numba"));
    EXPECT_EQ(runtimeDisplayName("nvrtc"), QStringLiteral("CUDA (NVRTC)"));
    EXPECT_EQ(runtimeDisplayName("import:tef"), QStringLiteral("Trace Event Format (imported)"));
    EXPECT_EQ(runtimeDisplayName("my-runtime"), QStringLiteral("my-runtime"));
    EXPECT_EQ(durationText(12300), QStringLiteral("12.3 \u00B5s"));
    EXPECT_EQ(durationText(1500000), QStringLiteral("1.50 ms"));
}

// An acceptance verdict with 100 failed rules (one per cache scope) scrolls inside its box: the window
// still fits a 1000 px screen.
TEST_F(MainWindowTest, OverviewWithAHundredViolationsFitsA1000pxScreen) {
    const std::string many = dir.file("many.cstrace");
    {
        cs::trace::TraceWriter w(many, {});
        auto s = w.addSession({.runtime = w.intern("julia"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = 0});
        for (int i = 0; i < 100; ++i) {
            const auto scope = w.intern("cache_" + std::to_string(i));
            for (auto [name, value] : {std::pair{"hits", 5}, {"misses", 3}, {"entries", 2}})
                w.addCounter({.sessionId = s, .tsNs = 10 + i, .scope = scope, .name = w.intern(name), .value = value});
        }
        w.endSession(s, 5000, 0);
        w.finalize();
    }
    open({QString::fromStdString(many)});
    EXPECT_EQ(window->overview()->verdict().count(QStringLiteral("✗")), 100) << "every violation is listed";
    EXPECT_LE(window->overview()->minimumSizeHint().height(), 1000);
    EXPECT_LE(window->minimumSizeHint().height(), 1000);
    window->resize(1200, 900);
    QApplication::processEvents();
    EXPECT_LE(window->height(), 1000);
}

TEST_F(MainWindowTest, TimelineShowsLanesMarksAndSelection) {
    open({path});
    window->tabs()->setCurrentWidget(window->timeline());
    TimelinePlot* p = plot();
    ASSERT_EQ(p->sources().size(), 1u);
    // julia lookups row, julia main, warp module loads, NVRTC programs.
    EXPECT_EQ(p->rowCount(), 4);
    p->replot();
    EXPECT_GT(p->lastPaintItems(), 10u);
    const cs::engine::TimelineData& d = *p->sources()[0].data;
    // Click the middle of the first "compile gradient" (1 s .. 4 s) at depth 0 of the main lane.
    QPoint at = p->pixelOf(0, 0, 0, 2500 * demo::kMs);
    p->selectAt(at);
    ASSERT_TRUE(p->selection().valid());
    EXPECT_EQ(d.str(p->selection().item.name), "compile gradient");
    EXPECT_TRUE(window->timeline()->details().contains(QStringLiteral("compile gradient")));
    EXPECT_TRUE(window->timeline()->details().contains(QStringLiteral("3.00 s")));
    // Depth 1 at the same time is the inference child.
    p->selectAt(p->pixelOf(0, 0, 1, 1500 * demo::kMs));
    EXPECT_EQ(d.str(p->selection().item.name), "infer gradient");
    // The SVG export draws the same spans.
    QString svg = p->toSvg();
    EXPECT_TRUE(svg.contains(QStringLiteral("<rect")));
    EXPECT_TRUE(svg.contains(QStringLiteral("julia pid 100")));
    EXPECT_TRUE(p->savePng(QString::fromStdString(dir.file("timeline.png"))));
    EXPECT_GT(QFileInfo(QString::fromStdString(dir.file("timeline.png"))).size(), 1000);
}

TEST_F(MainWindowTest, KeyboardZoomsAndPansLikePerfetto) {
    open({path});
    window->tabs()->setCurrentWidget(window->timeline());
    TimelinePlot* p = plot();
    auto [a0, b0] = p->visibleRangeNs();
    QTest::keyClick(p->plotWidget(), Qt::Key_W);
    auto [a1, b1] = p->visibleRangeNs();
    EXPECT_NEAR(static_cast<double>(b1 - a1), static_cast<double>(b0 - a0) / 1.25, 1e3);
    QTest::keyClick(p->plotWidget(), Qt::Key_D);
    auto [a2, b2] = p->visibleRangeNs();
    EXPECT_GT(a2, a1);
    EXPECT_NEAR(static_cast<double>(b2 - a2), static_cast<double>(b1 - a1), 1e3);
    QTest::keyClick(p->plotWidget(), Qt::Key_0);
    EXPECT_EQ(p->visibleRangeNs(), std::make_pair(a0, b0));
}

TEST_F(MainWindowTest, ActivatingAFindingJumpsToItsTimelineRange) {
    open({path});
    // An analysis result for the recompile of the gradient program at step 4 (6.2 s .. 7.2 s).
    auto findings = std::make_shared<std::vector<cs::engine::Finding>>();
    cs::engine::Finding f;
    f.kind = "cache.recompile";
    f.title = "gradient recompiled at step 4";
    f.mechanism = "shape of arg 2 moved";
    f.fix = "pad the batch";
    f.evidence.push_back({"cache_lookups", 6, "shape 128x64 -> 100x64"});
    f.startNs = 6200 * demo::kMs;
    f.endNs = 7200 * demo::kMs;
    findings->push_back(f);
    window->publishFindings(window->documents()[0].id, findings);
    EXPECT_EQ(window->findings()->model()->rowCount(), 1);
    EXPECT_EQ(window->overview()->topFindingsModel()->rowCount(), 1);
    window->activateFinding(0);
    EXPECT_EQ(window->tabs()->currentWidget(), window->timeline());
    auto [a, b] = plot()->visibleRangeNs();
    EXPECT_LE(a, *f.startNs);
    EXPECT_GE(b, *f.endNs);
    EXPECT_LT(b - a, 1200 * demo::kMs);  // zoomed to the range, not the whole trace
    EXPECT_TRUE(window->findings()->details().contains(QStringLiteral("pad the batch")));
}

TEST_F(MainWindowTest, SearchBoxFindsNamesAndSelectsOnTimeline) {
    open({path});
    window->searchBox()->setText(QStringLiteral("warp.sim"));
    QTest::keyClick(window->searchBox(), Qt::Key_Return);
    EXPECT_EQ(window->tabs()->currentWidget(), window->search());
    SearchModel* m = window->search()->model();
    ASSERT_EQ(m->rowCount(), 2);
    EXPECT_EQ(m->index(0, 4).data().toString(), QStringLiteral("warp pid 200 · module loads"));
    emit window->search()->rowActivated(*m->rowAt(1));
    EXPECT_EQ(window->tabs()->currentWidget(), window->timeline());
    EXPECT_EQ(plot()->selection().item.startNs, 2 * demo::kS);
    auto [a, b] = plot()->visibleRangeNs();  // followed the selection
    EXPECT_LE(a, 2 * demo::kS);
    EXPECT_LT(b - a, 2 * demo::kS);
}

// A Warp user pastes a module hash: the search finds the load of that identity, labelled with its
// name, hash and outcome.
TEST_F(MainWindowTest, AHashSearchFindsItsModule) {
    open({path});
    window->searchBox()->setText(QStringLiteral("bbbbbbb"));
    QTest::keyClick(window->searchBox(), Qt::Key_Return);
    SearchModel* m = window->search()->model();
    ASSERT_EQ(m->rowCount(), 1);
    EXPECT_EQ(m->rowAt(0)->name, QStringLiteral("warp.sim bbbbbbb (compiled)"));
    EXPECT_EQ(m->index(0, 4).data().toString(), QStringLiteral("warp pid 200 · module loads"));
}

// A span argument is searchable: the GPU model in Warp's init banner is in no name, only in the
// "device cuda:0" argument of the init span (the bundled trace, recorded from a real workload). Its
// hit comes from the worker thread, joins the results with the argument shown, and is outlined on
// the timeline, where Enter then selects it.
TEST_F(MainWindowTest, ASpanArgumentSearchFindsItsSpan) {
    open({QStringLiteral(COMPILESCOPE_SOURCE_DIR "/resources/demo/demo.cstrace")});
    window->tabs()->setCurrentWidget(window->timeline());
    window->searchBox()->setText(QStringLiteral("A6000"));
    QTest::keyClick(window->searchBox(), Qt::Key_Return);
    SearchModel* m = window->search()->model();
    ASSERT_TRUE(cs::test::waitFor([&] { return m->rowCount() > 0; })) << window->search()->summary().toStdString();
    ASSERT_EQ(m->rowCount(), 1);
    EXPECT_TRUE(m->rowAt(0)->name.startsWith(QStringLiteral("Warp 1.10.0 initialized [device cuda:0=\"NVIDIA RTX A6000\"")))
        << m->rowAt(0)->name.toStdString();
    EXPECT_EQ(window->search()->summary(), QStringLiteral("1 match(es) for “A6000” in 1 name(s)"));
    EXPECT_EQ(window->tabs()->currentWidget(), window->timeline()) << "late hits do not switch tabs";
    EXPECT_EQ(window->timeline()->hitCount(), 1);
    QTest::keyClick(window->searchBox(), Qt::Key_Return);
    EXPECT_EQ(plot()->selection().item.rowId, m->rowAt(0)->item.rowId);
    // A name search still answers at once, and a text in neither names nor arguments finds nothing.
    window->searchBox()->setText(QStringLiteral("no such text anywhere"));
    QTest::keyClick(window->searchBox(), Qt::Key_Return);
    ASSERT_TRUE(cs::test::waitFor([&] { return !window->search()->summary().contains(QStringLiteral("searching")); }));
    EXPECT_EQ(m->rowCount(), 0);
}

TEST_F(MainWindowTest, SeveralTracesAreLanesOfOneTimeline) {
    std::string second = dir.file("rank1.cstrace");
    demo::writeDemoTrace(second);
    open({path, QString::fromStdString(second)});
    EXPECT_EQ(window->documents().size(), 2u);
    EXPECT_EQ(plot()->sources().size(), 2u);
    EXPECT_EQ(plot()->rowCount(), 8);
    window->setCurrentDocument(1);
    EXPECT_TRUE(window->overview()->headline().startsWith(QStringLiteral("rank1.cstrace")));
}

TEST_F(MainWindowTest, BadFileIsReportedAndCancelStopsLoading) {
    std::string bad = dir.file("notes.cstrace");
    cs::test::writeFile(bad, "this is not a trace");
    open({QString::fromStdString(bad)});
    EXPECT_TRUE(window->statusText().startsWith(QStringLiteral("Could not open"))) << window->statusText().toStdString();

    std::string big = dir.file("big.cstrace");
    demo::writeSyntheticTrace(big, 200000, 2);
    TraceLoader loader;
    QSignalSpy finished(&loader, &TraceLoader::finished);
    QSignalSpy timeline(&loader, &TraceLoader::timelineReady);
    int id = loader.load(QString::fromStdString(big));
    loader.cancel(id);
    ASSERT_TRUE(cs::test::waitFor([&] { return finished.count() == 1; }));
    EXPECT_TRUE(finished.at(0).at(1).toBool());  // cancelled
    EXPECT_EQ(timeline.count(), 0);              // nothing half-built published
}

TEST_F(MainWindowTest, ExportsTheHtmlReportOfTheOpenTraces) {
    open({path});
    ASSERT_TRUE(window->reportAction()->isEnabled());
    QSignalSpy written(window.get(), &MainWindow::reportWritten);
    QString out = QString::fromStdString(dir.file("report.html"));
    window->exportReportTo(out);
    ASSERT_TRUE(cs::test::waitFor([&] { return written.count() == 1; }, 60000));
    EXPECT_EQ(written.at(0).at(1).toString(), QString()) << written.at(0).at(1).toString().toStdString();
    std::string html = cs::test::readFile(out.toStdString());
    EXPECT_NE(html.find("<html"), std::string::npos);
    EXPECT_NE(html.find("warp.sim"), std::string::npos);
    // The spy records in the worker thread; the window hears of it through its (queued) slot.
    EXPECT_TRUE(cs::test::waitFor([&] { return window->statusText() == QStringLiteral("Wrote ") + out; }))
        << window->statusText().toStdString();
}

TEST_F(MainWindowTest, CacheViewShowsLookupsMissCausesAndTheVerdict) {
    open({path});
    CacheView* c = window->cache();
    CacheLookupModel* m = c->lookups();
    // The recorded lookups, then the Warp module loads as lookups of their kernel cache.
    ASSERT_EQ(m->rowCount(), demo::kLookups + demo::kModuleLoads);
    // The answer first: outcome, program, why it missed, cost.
    EXPECT_EQ(m->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Outcome"));
    EXPECT_EQ(m->headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Program"));
    EXPECT_EQ(m->headerData(2, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Why it missed"));
    EXPECT_EQ(m->headerData(3, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Compile"));
    int first = 0, recompiles = 0, hits = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
        const QString o = m->index(r, 0).data().toString();
        if (m->index(r, 6).data().toString().startsWith(QStringLiteral("module load #"))) continue;
        first += o == QStringLiteral("first compile");
        recompiles += o == QStringLiteral("recompile");
        hits += o == QStringLiteral("hit");
        // Coloured by outcome, and the full text of every cell in its tooltip.
        const int tone = m->index(r, 0).data(ToneRole).toInt();
        EXPECT_EQ(tone, o == QStringLiteral("recompile") ? 3 : o == QStringLiteral("first compile") ? 2 : 1) << o.toStdString();
        if (!m->index(r, 2).data().toString().isEmpty()) {
            EXPECT_EQ(m->index(r, 2).data(Qt::ToolTipRole).toString(), m->index(r, 2).data().toString());
        }
    }
    EXPECT_EQ(first + recompiles, demo::kMisses);
    EXPECT_EQ(recompiles, 1);  // the gradient at step 4
    EXPECT_EQ(hits, demo::kLookups - demo::kMisses);
    // The gradient program recompiled at step 4: a late miss, and 3 programs where a train-only run expects 2.
    EXPECT_TRUE(c->verdict().contains(QStringLiteral("FAIL"))) << c->verdict().toStdString();
    EXPECT_TRUE(window->overview()->verdict().contains(QStringLiteral("FAIL")));
    // Misses per step: 2 first compiles at step 1 (gradient, optimizer), 1 recompile at step 4, stacked
    // apart; the count axis ticks at whole numbers only.
    ASSERT_EQ(c->chart()->barCount(), 4);
    ASSERT_EQ(c->chart()->seriesCount(), 2);
    EXPECT_EQ(c->chart()->value(0), 2.0);
    EXPECT_EQ(c->chart()->value(3), 1.0);
    EXPECT_EQ(c->chart()->seriesValue(0, 0), 2.0);  // first compiles
    EXPECT_EQ(c->chart()->seriesValue(1, 0), 0.0);
    EXPECT_EQ(c->chart()->seriesValue(0, 3), 0.0);
    EXPECT_EQ(c->chart()->seriesValue(1, 3), 1.0);  // the recompile
    const QStringList ticks = c->chart()->valueTickLabels();
    ASSERT_FALSE(ticks.isEmpty());
    for (const QString& t : ticks) EXPECT_FALSE(t.contains(QLatin1Char('.'))) << t.toStdString();
    ASSERT_TRUE(c->showLookup(6));  // cache_lookups.id 6: the step-4 miss
    EXPECT_TRUE(c->details().contains(QStringLiteral("shape of arg 2: 128x64 -> 100x64"))) << c->details().toStdString();
}

TEST_F(MainWindowTest, ModulesViewShowsRepeatedHashesAndWhatDiffers) {
    open({path});
    ModulesModel* m = window->modules()->model();
    ASSERT_EQ(m->rowCount(), 2);  // warp.sim, kernels
    QModelIndex sim = m->index(0, 0);
    EXPECT_EQ(sim.data().toString(), QStringLiteral("warp.sim"));
    EXPECT_EQ(m->index(0, 1).data().toLongLong(), 2);  // identities
    EXPECT_EQ(m->index(0, 2).data().toString(), QStringLiteral("aaaaaaa, bbbbbbb"));
    EXPECT_EQ(m->index(0, 3).data().toString(), QStringLiteral("128, 256"));
    EXPECT_EQ(m->index(0, 4).data().toInt(), 2);  // compiled
    EXPECT_EQ(m->rowCount(sim), 2);
    EXPECT_EQ(m->index(1, 5).data().toInt(), 1);  // kernels: cached once
    EXPECT_GT(window->modules()->findingsModel()->rowCount(), 0);
}

TEST_F(MainWindowTest, InvalidationsViewShowsTreesWithChildrenAndPathToAMethod) {
    open({path});
    InvalidationsView* v = window->invalidations();
    InvalidationsModel* m = v->model();
    ASSERT_EQ(m->rowCount(), 1);
    EXPECT_TRUE(m->index(0, 0).data().toString().startsWith(QStringLiteral("inserting show(io::IO"))) << m->index(0, 0).data().toString().toStdString();
    EXPECT_EQ(m->index(0, 1).data().toLongLong(), demo::kInvalidationChildren);
    EXPECT_TRUE(v->summary().startsWith(QStringLiteral("1 tree ("))) << v->summary().toStdString();
    ASSERT_TRUE(v->showPathTo(QStringLiteral("c111")));
    QModelIndex current = v->table()->view()->currentIndex();
    EXPECT_EQ(current.data().toString(), QStringLiteral("MethodInstance for c111()"));
    EXPECT_TRUE(v->table()->view()->isExpanded(current.parent()));
    v->table()->filter()->setText(QStringLiteral("c21"));  // search keeps the path to matches
    EXPECT_EQ(v->table()->proxy()->rowCount(), 1);
}

TEST_F(MainWindowTest, EngineFindingJumpsToItsRowsAndTimelineRange) {
    open({path});
    const auto& findings = window->documents()[0].findings;
    ASSERT_TRUE(findings && !findings->empty());
    int warp = -1;
    for (std::size_t i = 0; i < findings->size(); ++i)
        if ((*findings)[i].kind.rfind("warp.", 0) == 0 && (*findings)[i].startNs && warp < 0) warp = static_cast<int>(i);
    ASSERT_GE(warp, 0) << "no Warp finding with a time range for the two hashes of warp.sim";
    const cs::engine::Finding& f = (*findings)[static_cast<std::size_t>(warp)];
    window->activateFinding(warp);
    auto [a, b] = plot()->visibleRangeNs();
    EXPECT_LE(a, *f.startNs);
    EXPECT_GE(b, *f.endNs);
    EXPECT_LT(b - a, 2 * (*f.endNs - *f.startNs) + 1);
    QModelIndex row = window->modules()->table()->view()->currentIndex();
    EXPECT_TRUE(row.data().toString().startsWith(QStringLiteral("hash "))) << row.data().toString().toStdString();
}

// The ranks of one job: ten traces, each rank's trace.cstrace in a folder of its own. Each is named
// by the path that tells it apart (lanes, chooser), and with more than eight traces open every
// rank's group starts collapsed, one header row each, until the user opens one.
TEST_F(MainWindowTest, ManyRanksAreNamedApartAndStartCollapsed) {
    auto rank = [&](int r) {
        const std::string folder = dir.file("rank" + std::to_string(r));
        std::filesystem::create_directories(folder);
        const std::string p = folder + "/trace.cstrace";
        cs::trace::TraceWriter w(p, {});
        auto s = w.addSession({.runtime = w.intern("bench"), .startNs = 0});
        auto t = w.addTrack({.sessionId = s, .name = w.intern("worker")});
        w.addSpan({.trackId = t, .startNs = 100, .durNs = 1000 + r, .category = CS_CAT_COMPILE, .name = w.intern("compile")});
        w.endSession(s, 5000, 0);
        w.finalize();
        return QString::fromStdString(p);
    };
    QStringList paths;
    for (int r = 0; r < 10; ++r) paths << rank(r);
    open(paths);
    ASSERT_EQ(window->documents().size(), 10u);
    EXPECT_EQ(window->documents()[3].label, QStringLiteral("rank3/trace.cstrace"));
    QComboBox* chooser = nullptr;  // the trace chooser: the combo box that lists the ten traces
    for (auto* c : window->findChildren<QComboBox*>())
        if (c->count() == 10) chooser = c;
    ASSERT_NE(chooser, nullptr);
    EXPECT_EQ(chooser->itemText(7), QStringLiteral("rank7/trace.cstrace"));
    TimelinePlot* p = window->timeline()->plot();
    ASSERT_EQ(p->groupCount(), 10);
    for (int g = 0; g < p->groupCount(); ++g) EXPECT_TRUE(p->groupCollapsed(g)) << p->groupLabel(g).toStdString();
    // Ten traces open: each came as an outline first (tests/gui/test_ranks.cpp); once loaded,
    // each is its full timeline and no group says it is loading.
    for (const auto& d : window->documents()) {
        ASSERT_TRUE(d.timeline);
        EXPECT_FALSE(d.timeline->outline) << d.label.toStdString();
        EXPECT_EQ(d.timeline->events, 1u);
    }
    for (int g = 0; g < p->groupCount(); ++g) EXPECT_FALSE(p->groupLoading(g));
    EXPECT_TRUE(p->groupLabel(5).startsWith(QStringLiteral("rank5/trace.cstrace: "))) << p->groupLabel(5).toStdString();
    // Opened by the user, a rank stays open when another rank is opened; the new one starts collapsed.
    p->setGroupCollapsed(5, false);
    open({rank(10)});
    ASSERT_EQ(p->groupCount(), 11);
    EXPECT_FALSE(p->groupCollapsed(5));
    EXPECT_TRUE(p->groupCollapsed(4));
    EXPECT_TRUE(p->groupCollapsed(10));
}

// Two traces (a comparison, not a job's ranks) start expanded.
TEST_F(MainWindowTest, TwoTracesStartExpanded) {
    open({path, path});
    TimelinePlot* p = window->timeline()->plot();
    ASSERT_GT(p->groupCount(), 0);
    for (int g = 0; g < p->groupCount(); ++g) EXPECT_FALSE(p->groupCollapsed(g));
}

// Issue 39: a trace without a compile says so, names its sessions' runtime and the command that
// records compiles for it, instead of "0 ns compiling".
TEST_F(MainWindowTest, ATraceWithoutCompilesSaysWhatItLacksAndHowToRecordIt) {
    using namespace cs::trace;
    const std::string file = dir.file("launches.cstrace");
    {
        TraceWriter w(file);
        auto ses = w.addSession({.pid = 5, .runtime = w.intern("warp"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = 0, .endNs = 2 * demo::kS});
        auto main = w.addTrack({.sessionId = ses, .kind = CS_TRACK_THREAD, .tid = 5, .name = w.intern("main")});
        w.addSpan({.trackId = main, .startNs = demo::kS, .durNs = 10 * demo::kMs, .category = CS_CAT_LAUNCH, .name = w.intern("integrate")});
        w.finalize();
    }
    open({QString::fromStdString(file)});
    const QString h = window->overview()->headline();
    EXPECT_TRUE(h.contains(QStringLiteral("This trace records no compile (1 session: Warp). To see compiles, record the program with: "
                                          "compilescope record --warp -o t.cstrace -- python APP.py")))
        << h.toStdString();
    EXPECT_FALSE(h.contains(QStringLiteral("0 ns"))) << h.toStdString();
    // The demo, which compiled, keeps its figures.
    open({path});
    window->setCurrentDocument(1);
    EXPECT_FALSE(window->overview()->headline().contains(QStringLiteral("records no compile"))) << window->overview()->headline().toStdString();
}
