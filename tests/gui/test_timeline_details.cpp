// The timeline's details pane (every stored column and argument of the selected row, and the same
// in words), its Shift-drag range table, and a lookup's compile drawn as a span; offscreen. The
// lanes, legend, marks, search and origin are test_timeline_interaction.cpp.
#include "timeline_details_test.h"

#include "app/widgets/cache_view.h"
#include "app/widgets/filtered_table.h"
#include "app/widgets/search_view.h"
#include "app/widgets/shortcuts_help.h"
#include "core/ingest/import_files.h"
#include "core/trace/writer.h"
#include "trace_query.h"

#include <QApplication>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTest>
#include <QCheckBox>
#include <QToolButton>

#include <map>

using namespace cs::gui;
namespace demo = cs::test::demo;
using cs::test::TimelineDetailsTest;

TEST_F(TimelineDetailsTest, AWarpLoadShowsEveryStoredColumnItsOptionsAndKernels) {
    openDemo();
    const int lane = laneFrom(cs::engine::LaneSource::ModuleLoads);
    ASSERT_GE(lane, 0);
    // The second warp.sim load (hash bbbbbbb, block_dim 128) carries an option; select it.
    std::int64_t rowId = 0;
    window->timeline()->rawToggle()->setChecked(true);
    const QString d = detailsOfSpan(lane, 1, &rowId);
    const std::string load = std::to_string(rowId);
    // Against the stored row, read here with SQL.
    const std::string hash = cs::test::text(*cs::trace::TraceReader::open(dir.file("demo.cstrace")),
                                            "SELECT s.str FROM module_loads m JOIN strings s ON s.id = m.hash_sid WHERE m.id = " + load);
    ASSERT_FALSE(hash.empty());
    EXPECT_TRUE(d.contains(QStringLiteral("\nhash: %1").arg(QString::fromStdString(hash)))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\ndevice: cuda:0"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\nblock_dim: 128"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\nresult: compiled ("))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\noption fast_math: True"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\nkernel integrate: k1"))) << d.toStdString();
    EXPECT_EQ(window->timeline()->bottomTabs()->currentIndex(), 0);
}

TEST_F(TimelineDetailsTest, AnNvrtcProgramShowsItsOptionsAndInputsInOrder) {
    openNvrtcTrace();
    const int lane = laneFrom(cs::engine::LaneSource::CudaPrograms);
    ASSERT_GE(lane, 0);
    window->timeline()->rawToggle()->setChecked(true);
    const QString d = detailsOfSpan(lane, 0);
    EXPECT_TRUE(d.startsWith(QStringLiteral("saxpy.cu\n"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\noption 1: --gpu-architecture=compute_90\noption 2: -default-device\noption 3: --std=c++17")))
        << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\nsource_digest: d41d8cd9"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\ndur_ns: 250 ms"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\noutput_bytes: 4.00 KiB\n"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\napi: nvrtc ("))) << d.toStdString();
    // The link's input.
    const QString link = detailsOfSpan(lane, 1);
    EXPECT_TRUE(link.contains(QStringLiteral("\ninput 1: ptx saxpy.ptx, 2048 bytes"))) << link.toStdString();
}

// The range table against a brute-force sum over the spans table, read with SQL.
TEST_F(TimelineDetailsTest, TheRangeTableEqualsABruteForceSum) {
    const std::string path = dir.file("synthetic.cstrace");
    demo::writeSyntheticTrace(path, 4000, 4);
    open(path);
    TimelinePlot* p = plot();
    const cs::engine::TimelineData& d = data();
    // A band from 30 % to 55 % of the trace, over the second and third lanes (a real Shift-drag).
    const std::int64_t width = d.maxNs - d.minNs;
    const std::int64_t from = d.minNs + width * 30 / 100, to = d.minNs + width * 55 / 100;
    p->showRange(0, d.minNs, d.maxNs);
    QApplication::processEvents();
    const QPoint a = p->pixelOf(0, 1, 0, from), b = p->pixelOf(0, 2, 0, to);
    ASSERT_GE(a.x(), 0);
    QWidget* w = p->plotWidget();
    QTest::mousePress(w, Qt::LeftButton, Qt::ShiftModifier, w->mapFrom(p, a));
    QTest::mouseMove(w, w->mapFrom(p, (a + b) / 2));
    QTest::mouseMove(w, w->mapFrom(p, b));
    QTest::mouseRelease(w, Qt::LeftButton, Qt::ShiftModifier, w->mapFrom(p, b));
    QApplication::processEvents();
    const TimelineRange& r = p->range();
    ASSERT_TRUE(r.valid()) << "the Shift-drag selected no range";
    ASSERT_EQ(r.lanes, (std::vector<int>{1, 2}));
    EXPECT_EQ(window->timeline()->bottomTabs()->currentIndex(), 1);
    // Brute force: every span of those lanes' tracks, clipped to the range the band chose.
    struct Sum {
        std::size_t count = 0;
        std::int64_t in = 0, longest = 0;
    };
    std::map<std::string, Sum> expected;
    for (int lane : r.lanes) {
        const std::int64_t track = d.lanes[static_cast<std::size_t>(lane)].trackId;
        const std::int64_t off = d.clocks.offsetOf(d.lanes[static_cast<std::size_t>(lane)].sessionId);
        cs::trace::TraceReader::open(path)->query(
            "SELECT s.str, p.start_ns, p.dur_ns FROM spans p JOIN strings s ON s.id = p.name_sid WHERE p.track_id = " + std::to_string(track),
            [&](const cs::trace::Row& st) {
            const std::string name = st.text(0);
            const std::int64_t start = st.integer(1) + off, end = start + st.integer(2);
            if (!(end > r.summary.t0 && start < r.summary.t1)) return;
            Sum& s = expected[name];
            ++s.count;
            s.in += std::min(end, r.summary.t1) - std::max(start, r.summary.t0);
            s.longest = std::max(s.longest, end - start);
        });
    }
    ASSERT_FALSE(expected.empty());
    ASSERT_EQ(r.summary.rows.size(), expected.size());
    std::size_t spans = 0;
    for (const cs::engine::RangeNameRow& n : r.summary.rows) {
        const std::string name(d.str(n.name));
        ASSERT_TRUE(expected.count(name)) << name;
        EXPECT_EQ(n.count, expected[name].count) << name;
        EXPECT_EQ(n.inRangeNs, expected[name].in) << name;
        EXPECT_EQ(n.longestNs, expected[name].longest) << name;
        spans += n.count;
    }
    EXPECT_EQ(r.summary.spans, spans);
    // The table shows the same rows, most time in range first.
    QAbstractItemModel* m = window->timeline()->rangeTable()->proxy();
    ASSERT_EQ(m->rowCount(), static_cast<int>(expected.size()));
    EXPECT_EQ(m->index(0, 0).data().toString().toStdString(), std::string(d.str(r.summary.rows.front().name)));
    EXPECT_TRUE(window->timeline()->rangeHeadline().contains(QStringLiteral("over 2 lanes: %1 spans").arg(spans)))
        << window->timeline()->rangeHeadline().toStdString();
}

// Issue 39: the Details tab speaks in words. A miss says what moved, before and after, and what
// the compile it caused cost; no enum code, no raw nanoseconds, no raw timestamp; the stored row
// stays behind the Raw toggle.
TEST_F(TimelineDetailsTest, AMissIsDetailedInWordsAndTheRawRowIsBehindAToggle) {
    openDemo();
    // The demo's third miss: gradient at 6.2 s, its shape moved from 128x64 to 100x64, compiled 1 s.
    const QString d = detailsOfLookupAt(6200 * demo::kMs);
    EXPECT_TRUE(d.contains(QStringLiteral("\nmiss: shape of arg 2 moved 128x64 → 100x64; compile 1.00 s\n"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\nprogram gradient in cache Nitro at step 4"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\nverdict: miss\n"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\ncompile time: 1.00 s"))) << d.toStdString();
    EXPECT_TRUE(d.contains(QStringLiteral("\nprocess: julia pid 100"))) << d.toStdString();
    for (const char* raw : {"compile_ns", "ts_ns", "session_id", "verdict: ?", "(2)", "cache_lookups"})
        EXPECT_FALSE(d.contains(QString::fromLatin1(raw))) << raw << " in\n" << d.toStdString();
    // The raw row, on demand: every stored column with its code.
    window->timeline()->rawToggle()->setChecked(true);
    const QString raw = window->timeline()->details();
    EXPECT_TRUE(raw.startsWith(d)) << raw.toStdString();
    EXPECT_TRUE(raw.contains(QStringLiteral("\nverdict: miss (%1)").arg(CS_VERDICT_MISS))) << raw.toStdString();
    EXPECT_TRUE(raw.contains(QStringLiteral("\ncompile_ns: %1").arg(1 * demo::kS))) << raw.toStdString();
    window->timeline()->rawToggle()->setChecked(false);
    EXPECT_EQ(window->timeline()->details(), d);
}

TEST_F(TimelineDetailsTest, AModuleLoadIsDetailedInWords) {
    openDemo();
    const int lane = laneFrom(cs::engine::LaneSource::ModuleLoads);
    ASSERT_GE(lane, 0);
    const QString second = detailsOfSpan(lane, 1);  // warp.sim compiled under its second hash
    EXPECT_TRUE(second.contains(QStringLiteral("\nmodule warp.sim compiled in 1.00 s\nhash bbbbbbb, identity 2 of 2\non cuda:0, block_dim 128")))
        << second.toStdString();
    EXPECT_TRUE(second.contains(QStringLiteral("\nresult: compiled\n"))) << second.toStdString();
    EXPECT_TRUE(second.contains(QStringLiteral("\nduration: 1.00 s"))) << second.toStdString();
    EXPECT_FALSE(second.contains(QStringLiteral("dur_ns"))) << second.toStdString();
    EXPECT_FALSE(second.contains(QStringLiteral("start_ns"))) << second.toStdString();
    const QString cached = detailsOfSpan(lane, 2);  // kernels, from the kernel cache
    EXPECT_TRUE(cached.contains(QStringLiteral("\nmodule kernels loaded from the kernel cache in 100 ms\nhash ccccccc, identity 1 of 1")))
        << cached.toStdString();
}

TEST_F(TimelineDetailsTest, AnNvrtcProgramIsDetailedInWords) {
    openNvrtcTrace();
    const int lane = laneFrom(cs::engine::LaneSource::CudaPrograms);
    ASSERT_GE(lane, 0);
    const QString d = detailsOfSpan(lane, 0);
    for (const char* words : {"\napi: nvrtc\n", "\nduration: 250 ms\n", "\noutput size: 4.00 KiB\n", "\nsource digest: d41d8cd9\n",
                              "\nprocess: nvrtc pid 7\n", "\noption 3: --std=c++17"})
        EXPECT_TRUE(d.contains(QString::fromUtf8(words))) << words << " not in\n" << d.toStdString();
    for (const char* raw : {"_ns", "_bytes", "_sid", "session_id", "cuda_programs", "api: nvrtc ("})
        EXPECT_FALSE(d.contains(QString::fromLatin1(raw))) << raw << " in\n" << d.toStdString();
}

// Issue 39: a lookup whose compile time is known draws that compile as a span, so its cost is seen
// at "fit all"; one a compile span of its session already covers draws none (the demo's).
TEST_F(TimelineDetailsTest, ALookupsCompileIsDrawnAsASpan) {
    using namespace cs::trace;
    const std::string path = dir.file("nitro.cstrace");
    constexpr std::int64_t kCompile = 496 * demo::kS;
    {
        TraceWriter w(path);
        auto ses = w.addSession({.pid = 9, .runtime = w.intern("julia"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = 0});
        auto grad = w.intern("gradient"), cache = w.intern("ReactantNitro.program_cache");
        std::int64_t ts = 1 * demo::kMs;
        for (int step = 1; step <= 3; ++step) {
            auto id = w.addCacheLookup({.sessionId = ses, .tsNs = ts, .cache = cache, .program = grad, .verdict = CS_VERDICT_MISS,
                                        .compileNs = kCompile, .step = step});
            w.addKeyComponent({.lookupId = id, .ordinal = 0, .name = w.intern("GraphConst hash"), .role = CS_ROLE_GRAPHCONST,
                               .digest = w.intern("0x100" + std::to_string(step)), .value = w.intern("0x100" + std::to_string(step))});
            ts += kCompile + 2 * demo::kMs;
        }
        w.finalize();
    }
    open(path);
    const int lane = laneFrom(cs::engine::LaneSource::LookupCompiles);
    ASSERT_GE(lane, 0) << "no lane of lookup compiles";
    std::vector<cs::engine::TimelineItem> items;
    data().lanes[static_cast<std::size_t>(lane)].spans.query(data().minNs, data().maxNs + 1, 1, items);
    ASSERT_EQ(items.size(), 3u);
    for (const cs::engine::TimelineItem& it : items) {
        EXPECT_EQ(it.endNs - it.startNs, kCompile);
        EXPECT_EQ(it.category, CS_CAT_COMPILE);
    }
    // At "fit all" the compiles fill the drawn width: the cost is visible, not a tick.
    plot()->fitAll();
    QApplication::processEvents();
    const QPoint a = plot()->pixelOf(0, lane, 0, items[1].startNs), b = plot()->pixelOf(0, lane, 0, items[1].endNs);
    EXPECT_GT(b.x() - a.x(), plot()->plotArea().width() / 4);
    // The span is the lookup: its details and tooltip say what moved and what it cost.
    const QString d = detailsOfSpan(lane, 1);
    EXPECT_TRUE(d.contains(QStringLiteral("miss: GraphConst hash moved 0x1001 → 0x1002; compile 496 s"))) << d.toStdString();
    const QString tip = plot()->tooltipAt(plot()->pixelOf(0, lane, 0, (items[1].startNs + items[1].endNs) / 2));
    EXPECT_TRUE(tip.contains(QStringLiteral("GraphConst hash moved 0x1001 → 0x1002"))) << tip.toStdString();
    // The demo's lookups each have a compile span already: no second drawing of the same compile.
    openDemo();
    EXPECT_LT(laneFrom(cs::engine::LaneSource::LookupCompiles), 0);
}

// Issue 39: every entry of the legend has its own colour; a compile is not a miss, a cache load not a hit.
TEST_F(TimelineDetailsTest, TheLegendsColoursAreDistinct) {
    openDemo();
    plot()->fitAll();
    QApplication::processEvents();
    const QStringList names = window->timeline()->legendEntries();
    const QList<QColor> colors = window->timeline()->legendColors();
    ASSERT_EQ(names.size(), colors.size());
    for (const char* must : {"compile", "cache load", "cache miss", "cache hit"})
        ASSERT_TRUE(names.contains(QString::fromLatin1(must))) << must << " not in " << names.join(QLatin1Char(',')).toStdString();
    for (int i = 0; i < colors.size(); ++i)
        for (int j = i + 1; j < colors.size(); ++j)
            EXPECT_NE(colors[i], colors[j]) << names[i].toStdString() << " and " << names[j].toStdString() << " share "
                                             << colors[i].name().toStdString();
}
