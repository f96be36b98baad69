// What the timeline answers to: collapsible process groups, where sequence-only work is drawn, the
// legend, a miss mark and its cache row, the shortcuts, search hits, the origin, pinned lanes;
// offscreen. The details pane is test_timeline_details.cpp.
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
