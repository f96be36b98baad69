// The timeline's details pane (every stored column and argument of the selected row), its Shift-drag
// range table, its collapsible process groups, and where sequence-only work is drawn; offscreen.
#include "timeline_window_test.h"

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

namespace {
class TimelineDetailsTest : public cs::test::TimelineWindowTest {
protected:
    const cs::engine::TimelineData& data() const { return *plot()->sources()[0].data; }
    int laneFrom(cs::engine::LaneSource source) const {
        for (std::size_t l = 0; l < data().lanes.size(); ++l)
            if (data().lanes[l].source == source) return static_cast<int>(l);
        return -1;
    }
    // Selects span `index` (in row then time order) of lane `lane` and waits for the details read
    // from the trace; its row id in `rowId`.
    QString detailsOfSpan(int lane, std::size_t index, std::int64_t* rowId = nullptr) {
        std::vector<cs::engine::TimelineItem> items;
        data().lanes[static_cast<std::size_t>(lane)].spans.query(data().minNs, data().maxNs + 1, 1, items);
        if (items.size() <= index) return QStringLiteral("(no span %1)").arg(index);
        TimelineSelection s;
        s.source = 0;
        s.lane = lane;
        s.item = items[index];
        if (rowId) *rowId = s.item.rowId;
        plot()->select(s, false);
        if (!cs::test::waitFor([&] { return window->timeline()->detailsComplete(); }, 10000)) return QStringLiteral("(timed out)");
        return window->timeline()->details();
    }
    // An NVRTC program saxpy.cu (250 ms, three options, 4 KiB of output) and an nvJitLink link of its PTX.
    void openNvrtcTrace() {
        using namespace cs::trace;
        const std::string path = dir.file("nvrtc.cstrace");
        {
            TraceWriter w(path);
            auto ses = w.addSession({.pid = 7, .runtime = w.intern("nvrtc"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = 0});
            auto prog = w.addCudaProgram({.sessionId = ses, .api = CS_CUDA_NVRTC, .startNs = 1000, .durNs = 250'000'000,
                                          .name = w.intern("saxpy.cu"), .sourceDigest = w.intern("d41d8cd9"), .result = 0,
                                          .logBytes = 0, .outputBytes = 4096});
            const char* options[] = {"--gpu-architecture=compute_90", "-default-device", "--std=c++17"};
            for (int i = 0; i < 3; ++i) w.addCudaProgramOption({.programId = prog, .ordinal = i, .option = w.intern(options[i])});
            auto link = w.addCudaProgram({.sessionId = ses, .api = CS_CUDA_NVJITLINK, .startNs = 300'000'000, .durNs = 50'000'000,
                                          .name = w.intern("link")});
            w.addCudaProgramInput({.programId = link, .ordinal = 0, .kind = w.intern("ptx"), .name = w.intern("saxpy.ptx"), .bytes = 2048});
            w.finalize();
        }
        open(path);
    }
    // Selects the single cache-lookup mark at `tsNs` (trace time) and waits for its details.
    QString detailsOfLookupAt(std::int64_t tsNs, TimelineSelection* out = nullptr) {
        for (std::size_t m = 0; m < data().marks.size(); ++m) {
            std::vector<cs::engine::MarkItem> marks;
            data().marks[m].lookups.query(data().minNs, data().maxNs + 1, 1, marks);
            for (const cs::engine::MarkItem& it : marks) {
                if (it.tsNs != tsNs || it.count != 1) continue;
                TimelineSelection s;
                s.source = 0;
                s.marks = static_cast<int>(m);
                s.mark = it;
                if (out) *out = s;
                plot()->select(s, false);
                if (!cs::test::waitFor([&] { return window->timeline()->detailsComplete(); }, 10000)) return QStringLiteral("(timed out)");
                return window->timeline()->details();
            }
        }
        return QStringLiteral("(no lookup at %1)").arg(tsNs);
    }
};
}  // namespace

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

TEST_F(TimelineDetailsTest, ACollapsedGroupHidesItsTracksAndAClickBringsThemBack) {
    openDemo();
    TimelinePlot* p = plot();
    const cs::engine::TimelineData& d = data();
    ASSERT_EQ(p->groupCount(), 3) << "julia, warp and nvrtc sessions";
    const int rows = p->rowCount();
    int warp = -1;
    for (int g = 0; g < p->groupCount(); ++g)
        if (p->groupLabel(g).startsWith(QStringLiteral("warp pid 200"))) warp = g;
    ASSERT_GE(warp, 0);
    std::vector<int> warpLanes;
    for (std::size_t l = 0; l < d.lanes.size(); ++l)
        if (d.lanes[l].process.rfind("warp pid 200", 0) == 0) warpLanes.push_back(static_cast<int>(l));
    ASSERT_FALSE(warpLanes.empty());
    for (int l : warpLanes) EXPECT_TRUE(p->laneShown(0, l));
    p->replot();
    const std::size_t drawnExpanded = p->lastPaintItems();
    // A click on the group's header collapses it.
    QWidget* w = p->plotWidget();
    QTest::mouseClick(w, Qt::LeftButton, Qt::NoModifier, w->mapFrom(p, p->groupHeaderPixel(warp)));
    QApplication::processEvents();
    EXPECT_TRUE(p->groupCollapsed(warp));
    for (int l : warpLanes) EXPECT_FALSE(p->laneShown(0, l)) << "lane " << l << " still shown";
    EXPECT_EQ(p->rowCount(), rows - static_cast<int>(warpLanes.size()));
    p->replot();
    EXPECT_LT(p->lastPaintItems(), drawnExpanded);
    // The other groups keep their lanes.
    for (std::size_t l = 0; l < d.lanes.size(); ++l) {
        if (std::find(warpLanes.begin(), warpLanes.end(), static_cast<int>(l)) == warpLanes.end()) {
            EXPECT_TRUE(p->laneShown(0, static_cast<int>(l)));
        }
    }
    // A live refresh (the same trace again) keeps it collapsed; another click expands it.
    std::vector<TimelineSource> again = p->sources();
    p->setSources(std::move(again), true);
    EXPECT_TRUE(p->groupCollapsed(warp));
    QTest::mouseClick(w, Qt::LeftButton, Qt::NoModifier, w->mapFrom(p, p->groupHeaderPixel(warp)));
    QApplication::processEvents();
    EXPECT_FALSE(p->groupCollapsed(warp));
    EXPECT_EQ(p->rowCount(), rows);
}

// A Warp log has durations but no timestamps: laid end to end, its work must not be drawn under the
// recorded lanes as if it ran at the same time.
TEST_F(TimelineDetailsTest, ASequenceOnlySessionDoesNotOverlapClockedLanes) {
    demo::writeDemoTrace(dir.file("recorded.cstrace"));
    const std::string merged = dir.file("merged.cstrace");
    cs::ingest::importFiles({.inputs = {dir.file("recorded.cstrace"),
                                        std::string(COMPILESCOPE_SOURCE_DIR) + "/resources/demo/warp-verbose.log"},
                             .output = merged, .forcedFormat = "", .overwrite = false});
    open(merged);
    const cs::engine::TimelineData& d = data();
    ASSERT_TRUE(d.sequenceFromNs.has_value());
    std::int64_t clockedEnd = d.minNs, sequenceStart = d.maxNs;
    int sequenceLanes = 0;
    for (const cs::engine::TimelineLane& l : d.lanes) {
        if (l.spans.spanCount() == 0) continue;
        if (l.process.find("(durations only") != std::string::npos) {
            ++sequenceLanes;
            sequenceStart = std::min(sequenceStart, l.spans.minNs());
        } else {
            clockedEnd = std::max(clockedEnd, l.spans.maxNs());
        }
    }
    ASSERT_GT(sequenceLanes, 0);
    EXPECT_GT(sequenceStart, clockedEnd) << "sequence-only work drawn under the clocked lanes";
    EXPECT_EQ(sequenceStart, *d.sequenceFromNs);
    // Fit all shows both.
    plot()->fitAll();
    auto [a, b] = plot()->visibleRangeNs();
    EXPECT_LE(a, d.minNs);
    EXPECT_GE(b, d.maxNs);
}

// The legend names what the colours on screen mean, and only what is on screen.
TEST_F(TimelineDetailsTest, TheLegendNamesTheColoursDrawn) {
    openDemo();
    plot()->fitAll();
    QApplication::processEvents();
    const QStringList all = window->timeline()->legendEntries();
    EXPECT_TRUE(all.contains(QStringLiteral("compile"))) << all.join(QLatin1Char(',')).toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("cache miss"))) << all.join(QLatin1Char(',')).toStdString();
    // Collapse every group but NVRTC's: the legend shrinks to what is still drawn.
    for (int g = 0; g < plot()->groupCount(); ++g)
        plot()->setGroupCollapsed(g, !plot()->groupLabel(g).startsWith(QStringLiteral("nvrtc pid 300")));
    QApplication::processEvents();
    const QStringList some = window->timeline()->legendEntries();
    EXPECT_FALSE(some.contains(QStringLiteral("cache miss"))) << some.join(QLatin1Char(',')).toStdString();
    EXPECT_LT(some.size(), all.size());
    EXPECT_FALSE(some.isEmpty());
}

// A miss mark leads to its row in the Cache view, and the Cache row back to the mark.
TEST_F(TimelineDetailsTest, AMissMarkOpensItsCacheRowAndTheRowLeadsBack) {
    openDemo();
    const cs::engine::TimelineData& d = data();
    // The first missed lookup on the timeline.
    TimelineSelection miss;
    for (std::size_t m = 0; m < d.marks.size() && !miss.valid(); ++m) {
        std::vector<cs::engine::MarkItem> marks;
        d.marks[m].lookups.query(d.minNs, d.maxNs + 1, 1, marks);
        for (const cs::engine::MarkItem& it : marks)
            if (it.flagged && it.count == 1) {
                miss.source = 0;
                miss.marks = static_cast<int>(m);
                miss.mark = it;
                break;
            }
    }
    ASSERT_TRUE(miss.valid()) << "the demo has a missed lookup";
    plot()->select(miss, false);
    EXPECT_TRUE(window->timeline()->openInCacheButton()->isVisible());
    // Enter on the timeline opens it in Cache.
    QTest::keyClick(plot()->plotWidget(), Qt::Key_Return);
    QApplication::processEvents();
    ASSERT_EQ(window->tabs()->currentWidget(), window->cache());
    EXPECT_EQ(window->cache()->selectedLookup(), miss.mark.rowId);
    EXPECT_TRUE(window->cache()->details().contains(QStringLiteral("moved")) ||
                window->cache()->details().contains(QStringLiteral("first")))
        << window->cache()->details().toStdString();
    // Back: another lookup's "Show in timeline" selects its mark, centred.
    plot()->select({}, false);
    window->cache()->showInTimelineButton()->click();
    QApplication::processEvents();
    ASSERT_EQ(window->tabs()->currentWidget(), window->timeline());
    const TimelineSelection& back = plot()->selection();
    ASSERT_TRUE(back.valid());
    EXPECT_EQ(back.lane, -1);
    EXPECT_EQ(back.mark.rowId, miss.mark.rowId);
    auto [a, b] = plot()->visibleRangeNs();
    EXPECT_NEAR(static_cast<double>(a + b) / 2, static_cast<double>(miss.mark.tsNs), static_cast<double>(b - a) * 0.01);
    // A span has no Cache row: the button hides.
    std::vector<cs::engine::TimelineItem> items;
    d.lanes[0].spans.query(d.minNs, d.maxNs + 1, 1, items);
    ASSERT_FALSE(items.empty());
    TimelineSelection span;
    span.source = 0;
    span.lane = 0;
    span.item = items.front();
    plot()->select(span, false);
    EXPECT_FALSE(window->timeline()->openInCacheButton()->isVisible());
}

// "?" on the timeline shows the keyboard help, and the keys it lists for moving the view move it.
TEST_F(TimelineDetailsTest, QuestionMarkShowsTheShortcutsThePlotAnswers) {
    openDemo();
    QWidget* w = plot()->plotWidget();
    EXPECT_EQ(window->shortcutsHelp(), nullptr);
    QTest::keyClick(w, Qt::Key_Question);
    QApplication::processEvents();
    ASSERT_NE(window->shortcutsHelp(), nullptr);
    EXPECT_TRUE(window->shortcutsHelp()->isVisible());
    const QString help = window->shortcutsHelp()->text();
    for (const char* keys : {"W / S, mouse wheel: ", "A / D, drag: ", "F: ", "0, Home: ", "Page Up / Page Down: ", "Enter: ",
                             "Shift + drag: ", "?: "})
        EXPECT_TRUE(help.contains(QLatin1String(keys))) << keys << " missing from\n" << help.toStdString();
    for (Qt::Key key : {Qt::Key_W, Qt::Key_S, Qt::Key_A, Qt::Key_D}) {
        const auto before = plot()->visibleRangeNs();
        QTest::keyClick(w, key);
        EXPECT_NE(plot()->visibleRangeNs(), before) << "key " << key << " did not move the view";
    }
    QTest::keyClick(w, Qt::Key_W);
    const auto moved = plot()->visibleRangeNs();
    QTest::keyClick(w, Qt::Key_0);
    EXPECT_NE(plot()->visibleRangeNs(), moved) << "0 did not fit everything";
}

// On the timeline, a search outlines its hits; Enter steps to the next, Shift+Enter to the previous.
TEST_F(TimelineDetailsTest, SearchHitsAreOutlinedAndEnterStepsThroughThem) {
    openDemo();
    QLineEdit* box = window->searchBox();
    box->setText(QStringLiteral("gradient"));
    QTest::keyClick(box, Qt::Key_Return);
    QApplication::processEvents();
    ASSERT_EQ(window->tabs()->currentWidget(), window->timeline()) << "the search stays on the timeline";
    TimelineView* t = window->timeline();
    const int n = t->hitCount();
    ASSERT_GE(n, 3) << "the demo has several 'gradient' spans";
    EXPECT_EQ(plot()->highlightCount(), static_cast<std::size_t>(n));
    EXPECT_EQ(t->currentHit(), 0);
    auto selectedName = [&] { return std::string(data().str(plot()->selection().item.name)); };
    EXPECT_NE(selectedName().find("gradient"), std::string::npos) << selectedName();
    const std::int64_t first = plot()->selection().item.rowId;
    QTest::keyClick(box, Qt::Key_Return);
    EXPECT_EQ(t->currentHit(), 1);
    EXPECT_NE(plot()->selection().item.rowId, first);
    EXPECT_NE(selectedName().find("gradient"), std::string::npos) << selectedName();
    QTest::keyClick(box, Qt::Key_Return, Qt::ShiftModifier);
    EXPECT_EQ(t->currentHit(), 0);
    EXPECT_EQ(plot()->selection().item.rowId, first);
    QTest::keyClick(box, Qt::Key_Return, Qt::ShiftModifier);
    EXPECT_EQ(t->currentHit(), n - 1) << "Shift+Enter wraps to the last hit";
    EXPECT_TRUE(t->hitText().startsWith(QStringLiteral("match %1 of %2 for \"gradient\"").arg(n).arg(n))) << t->hitText().toStdString();
    // Elsewhere, the search shows its table as before.
    window->tabs()->setCurrentWidget(window->cache());
    box->setText(QStringLiteral("compile"));
    QTest::keyClick(box, Qt::Key_Return);
    EXPECT_EQ(window->tabs()->currentWidget(), static_cast<QWidget*>(window->search()));
}

// O moves the axis' zero to the selected span's start: a tick reads "0" there, the others count from
// it; Shift+O puts it back at the trace's first event.
TEST_F(TimelineDetailsTest, OMovesTheOriginToTheSelectionAndShiftOPutsItBack) {
    openDemo();
    TimelinePlot* p = plot();
    QWidget* w = p->plotWidget();
    const QStringList before = p->axisLabels();
    ASSERT_TRUE(before.contains(QStringLiteral("0 s"))) << before.join(QLatin1Char(',')).toStdString();
    // The "compile gradient" span from 1 s to 4 s.
    p->selectAt(p->pixelOf(0, 0, 0, 2500 * demo::kMs));
    ASSERT_TRUE(p->selection().valid());
    const std::int64_t start = p->selection().item.startNs;
    QTest::keyClick(w, Qt::Key_O);
    QApplication::processEvents();
    EXPECT_TRUE(p->originMoved());
    const QStringList moved = p->axisLabels();
    EXPECT_NE(moved, before);
    EXPECT_TRUE(moved.contains(QStringLiteral("0 s"))) << moved.join(QLatin1Char(',')).toStdString();
    // Zoomed out, ticks before the origin read negative.
    p->showRange(0, start - 8 * demo::kS, start + 8 * demo::kS);
    const QStringList wide = p->axisLabels();
    EXPECT_TRUE(wide.indexOf(QRegularExpression(QStringLiteral("^0(\\.0+)? s$"))) >= 0) << wide.join(QLatin1Char(',')).toStdString();
    EXPECT_TRUE(std::any_of(wide.begin(), wide.end(), [](const QString& l) { return l.startsWith(QLatin1Char('-')); }))
        << wide.join(QLatin1Char(',')).toStdString();
    p->fitAll();
    // The "0" tick sits at the span's start.
    EXPECT_NEAR(static_cast<double>(p->nsAtPixel(0, p->pixelOf(0, 0, 0, start).x())), static_cast<double>(start), 2e7);
    QTest::keyClick(w, Qt::Key_O, Qt::ShiftModifier);
    QApplication::processEvents();
    EXPECT_FALSE(p->originMoved());
    EXPECT_EQ(p->axisLabels(), before);
}

// A Warp load's row in the Cache view (Lookup::id = minus its module_loads.id) leads to its span.
TEST_F(TimelineDetailsTest, AWarpLoadsCacheRowLeadsToItsSpan) {
    openDemo();
    const int lane = laneFrom(cs::engine::LaneSource::ModuleLoads);
    ASSERT_GE(lane, 0);
    std::vector<cs::engine::TimelineItem> items;
    data().lanes[static_cast<std::size_t>(lane)].spans.query(data().minNs, data().maxNs + 1, 1, items);
    ASSERT_GE(items.size(), 2u);
    const std::int64_t load = items[1].rowId;
    window->tabs()->setCurrentWidget(window->cache());
    ASSERT_TRUE(window->cache()->showLookup(-load)) << "no Cache row for module load " << load;
    window->cache()->showInTimelineButton()->click();
    QApplication::processEvents();
    ASSERT_EQ(window->tabs()->currentWidget(), window->timeline()) << window->statusText().toStdString();
    EXPECT_EQ(plot()->selection().lane, lane);
    EXPECT_EQ(plot()->selection().item.rowId, load);
}

// A pinned lane sits in a band at the top that stays while the other lanes scroll under it; a click
// there selects the pinned lane's span, not what scrolled beneath; a live refresh keeps the pin; P
// unpins it again.
TEST_F(TimelineDetailsTest, APinnedLaneStaysAtTheTopWhileTheLanesScroll) {
    demo::writeSyntheticTrace(dir.file("many.cstrace"), 4000, 40);  // 40 threads: more lanes than fit
    open(dir.file("many.cstrace"));
    TimelinePlot* p = plot();
    const cs::engine::TimelineData& d = data();
    ASSERT_GT(d.lanes.size(), 30u);
    const int last = static_cast<int>(d.lanes.size()) - 1, other = 1;
    std::vector<cs::engine::TimelineItem> items;
    d.lanes[static_cast<std::size_t>(last)].spans.query(d.minNs, d.maxNs + 1, 1, items);
    ASSERT_FALSE(items.empty());
    const cs::engine::TimelineItem span = items.front();
    const QRect area = p->plotArea();
    const QPoint areaTop = area.topLeft();
    EXPECT_GT(p->pixelOf(0, last, 0, span.startNs).y(), areaTop.y() + area.height()) << "the last lane starts below the view";
    // P on a selected span of the last lane pins it: drawn first, at the top.
    TimelineSelection s;
    s.source = 0;
    s.lane = last;
    s.item = span;
    p->select(s, false);
    QTest::keyClick(p->plotWidget(), Qt::Key_P);
    ASSERT_TRUE(p->lanePinned(0, last));
    EXPECT_EQ(p->pinnedCount(), 1);
    const int pinnedY = p->pixelOf(0, last, 0, span.startNs).y();
    EXPECT_LT(pinnedY, areaTop.y() + 40);
    EXPECT_GE(pinnedY, areaTop.y());
    // Scrolling moves every other lane, not the pinned one.
    const int otherY = p->pixelOf(0, other, 0, span.startNs).y();
    QTest::keyClick(p->plotWidget(), Qt::Key_PageDown);
    QApplication::processEvents();
    EXPECT_EQ(p->pixelOf(0, last, 0, span.startNs).y(), pinnedY);
    EXPECT_LT(p->pixelOf(0, other, 0, span.startNs).y(), otherY - 100);
    // Some lane has scrolled under the band; a click there selects the pinned lane's span.
    const QPoint at = p->pixelOf(0, last, 0, span.startNs + (span.endNs - span.startNs) / 2);
    const TimelineSelection hit = p->hitAt(p->plotWidget()->mapFrom(p, at));
    EXPECT_EQ(hit.lane, last);
    EXPECT_EQ(hit.item.rowId, span.rowId);
    // A live refresh keeps the pin; P on the selection unpins it, and the lane is back in its place.
    std::vector<TimelineSource> again = p->sources();
    p->setSources(std::move(again), true);
    EXPECT_TRUE(p->lanePinned(0, last));
    p->select(s, false);
    QTest::keyClick(p->plotWidget(), Qt::Key_P);
    EXPECT_FALSE(p->lanePinned(0, last));
    EXPECT_EQ(p->pinnedCount(), 0);
    EXPECT_TRUE(p->laneShown(0, last));
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
