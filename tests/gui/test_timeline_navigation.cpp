// The timeline's axis, hover tooltips, zoom about the cursor and the Perfetto export, offscreen.
#include "timeline_window_test.h"

#include "app/gui/main_window.h"
#include "app/models/text.h"
#include "app/plots/time_axis.h"
#include "app/plots/timeline_plot.h"
#include "app/widgets/timeline_view.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/trace/reader.h"
#include "core/util/json_reader.h"
#include "demo_trace_builder.h"
#include "test_util.h"

#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QWheelEvent>

#include <fstream>

using namespace cs::gui;
namespace demo = cs::test::demo;

namespace {
class TimelineNavigationTest : public cs::test::TimelineWindowTest {
protected:
    // Shows [from, from + width) of trace time, counted from the trace's first event.
    void show(std::int64_t from, std::int64_t width) {
        const std::int64_t t0 = plot()->sources()[0].data->minNs;
        plot()->showRange(0, t0 + from, t0 + from + width);
        QApplication::processEvents();
    }
};

bool allEndWith(const QStringList& labels, const QString& unit) {
    if (labels.size() < 2) return false;
    for (const QString& l : labels)
        if (!l.endsWith(QLatin1Char(' ') + unit)) return false;
    return true;
}
}  // namespace

TEST(TimeAxis, LabelsFollowTheStepAndGoRelativeFarFromTheOrigin) {
    EXPECT_EQ(timeTickLabels({0, 2e-7, 4e-7}, 2e-7), (QVector<QString>{QStringLiteral("0 ns"), QStringLiteral("200 ns"), QStringLiteral("400 ns")}));
    EXPECT_EQ(timeTickLabels({0, 2.5e-4, 5e-4}, 2.5e-4),
              (QVector<QString>{QStringLiteral("0 µs"), QStringLiteral("250 µs"), QStringLiteral("500 µs")}));
    EXPECT_EQ(timeTickLabels({0.1, 0.15}, 0.05), (QVector<QString>{QStringLiteral("100 ms"), QStringLiteral("150 ms")}));
    EXPECT_EQ(timeTickLabels({2, 4}, 2), (QVector<QString>{QStringLiteral("2 s"), QStringLiteral("4 s")}));
    EXPECT_EQ(timeTickLabels({1e-3, 1.25e-3}, 2.5e-4), (QVector<QString>{QStringLiteral("1000 µs"), QStringLiteral("1250 µs")}));
    // A 2 µs step at 156 ms: the first tick absolute, the rest offsets from it.
    EXPECT_EQ(timeTickLabels({0.156272, 0.156274, 0.156276}, 2e-6),
              (QVector<QString>{QStringLiteral("156.272 ms"), QStringLiteral("+2 µs"), QStringLiteral("+4 µs")}));
    EXPECT_EQ(secondsText(2.128891440), QStringLiteral("2.13 s"));
    EXPECT_EQ(secondsText(14.2e-6), QStringLiteral("14.2 µs"));
    EXPECT_EQ(secondsText(10'000'000 * 1e-9), QStringLiteral("10.0 ms"));  // 0.009999999... s
    EXPECT_EQ(secondsText(0.99996e-3), QStringLiteral("1.00 ms"));
    EXPECT_EQ(secondsText(999e-9), QStringLiteral("999 ns"));
}

TEST_F(TimelineNavigationTest, AxisLabelsInNsUsMsAndSAtFourZoomLevels) {
    openDemo();
    show(0, 400);
    EXPECT_TRUE(allEndWith(plot()->axisLabels(), QStringLiteral("ns"))) << plot()->axisLabels().join(QLatin1Char('|')).toStdString();
    show(0, 400'000);
    EXPECT_TRUE(allEndWith(plot()->axisLabels(), QStringLiteral("µs"))) << plot()->axisLabels().join(QLatin1Char('|')).toStdString();
    show(0, 400 * demo::kMs);
    EXPECT_TRUE(allEndWith(plot()->axisLabels(), QStringLiteral("ms"))) << plot()->axisLabels().join(QLatin1Char('|')).toStdString();
    show(0, 8 * demo::kS);
    EXPECT_TRUE(allEndWith(plot()->axisLabels(), QStringLiteral("s"))) << plot()->axisLabels().join(QLatin1Char('|')).toStdString();
    // The toolbar names the window's width in a unit, not a count of microseconds.
    EXPECT_TRUE(window->timeline()->statusText().endsWith(QStringLiteral("window 8.80 s")))
        << window->timeline()->statusText().toStdString();
    // 14 µs at 2.5 s: offsets from the first tick.
    show(2500 * demo::kMs, 14'000);
    const QStringList labels = plot()->axisLabels();
    ASSERT_GE(labels.size(), 3);
    EXPECT_TRUE(labels[0].endsWith(QStringLiteral(" s")) || labels[0].endsWith(QStringLiteral(" ms"))) << labels[0].toStdString();
    EXPECT_TRUE(labels[1].startsWith(QLatin1Char('+')) && labels[1].endsWith(QStringLiteral(" µs"))) << labels[1].toStdString();
    EXPECT_TRUE(window->timeline()->statusText().endsWith(QStringLiteral("window 15.4 µs")))
        << window->timeline()->statusText().toStdString();
}

TEST_F(TimelineNavigationTest, TooltipOfASpan) {
    openDemo();
    TimelinePlot* p = plot();
    // The first "compile gradient" (1 s .. 4 s) at depth 0 of the main lane.
    const QString tip = p->tooltipAt(p->pixelOf(0, 0, 0, 2500 * demo::kMs));
    const std::int64_t t0 = p->sources()[0].data->minNs;
    // Which lookup caused the compile: the first miss of gradient, at step 1.
    EXPECT_EQ(tip, QStringLiteral("compile gradient\ncompile, 3.00 s at +%1\noutcome: compiled\n"
                                  "caused by the miss of gradient at step 1 (lookup #1)\n"
                                  "why it missed: first compile of gradient in this process\n%2")
                       .arg(secondsText(static_cast<double>(1 * demo::kS - t0) * 1e-9), p->laneLabel(0, 0)))
        << tip.toStdString();
    EXPECT_EQ(p->tooltipAt(QPoint(2, 2)), QString());  // over the axis labels: nothing
}

TEST_F(TimelineNavigationTest, TooltipOfACacheLookupNamesItsOutcome) {
    openDemo();
    TimelinePlot* p = plot();
    const cs::engine::TimelineData& d = *p->sources()[0].data;
    ASSERT_FALSE(d.marks.empty());
    // The julia session's first lookup: the gradient program missed at 1 s.
    int marks = -1;
    for (std::size_t m = 0; m < d.marks.size(); ++m)
        if (d.marks[m].lookups.size() > 0) marks = static_cast<int>(m);
    ASSERT_GE(marks, 0);
    const std::int64_t t0 = d.minNs;
    const QString first = p->tooltipAt(p->markPixelOf(0, marks, 1 * demo::kS));
    EXPECT_TRUE(first.startsWith(QStringLiteral("cache lookup of gradient, at +%1\nmiss: first compile of gradient in this process; "
                                                 "compile 3.00 s\n")
                                     .arg(secondsText(static_cast<double>(1 * demo::kS - t0) * 1e-9))))
        << first.toStdString();
    // Issue 39: the miss at step 4 says what moved, before and after, the compile's cost, what it
    // was compared with, and the finding it is evidence of (as the engine lists it).
    const QString tip = p->tooltipAt(p->markPixelOf(0, marks, 6200 * demo::kMs));
    EXPECT_TRUE(tip.contains(QStringLiteral("\nmiss: shape of arg 2 moved 128x64 → 100x64; compile 1.00 s\n"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("\ncompared with lookup #1 at step 1\n"))) << tip.toStdString();
    QString finding;
    const auto analysis = cs::engine::analyseTrace(*cs::trace::TraceReader::open(dir.file("demo.cstrace")));
    for (const cs::engine::Finding& f : analysis->findings)
        for (const cs::engine::Evidence& e : f.evidence)
            if (finding.isEmpty() && e.table == "cache_lookups" && e.rowId == 6) finding = QString::fromStdString(f.title);
    ASSERT_FALSE(finding.isEmpty()) << "no finding names lookup 6";
    EXPECT_TRUE(tip.contains(QStringLiteral("\nfinding: ") + finding)) << tip.toStdString();
    const QString hit = p->tooltipAt(p->markPixelOf(0, marks, 5 * demo::kS));
    EXPECT_TRUE(hit.contains(QStringLiteral("\nhit: gradient served from ")) && hit.contains(QStringLiteral(", no compile\n")))
        << hit.toStdString();
}

TEST_F(TimelineNavigationTest, TooltipOfAFoldCountsItsSpans) {
    // 4 threads of 1 µs spans, 2 µs apart: fitted, they fold into "N items".
    demo::writeSyntheticTrace(dir.file("many.cstrace"), 40'000);
    open(dir.file("many.cstrace"));
    TimelinePlot* p = plot();
    const cs::engine::TimelineData& d = *p->sources()[0].data;
    TimelineSelection fold;
    for (int x = 200; x < 1000 && !fold.valid(); x += 7) {
        TimelineSelection s = p->hitAt(QPoint(x, p->pixelOf(0, 0, 0, d.minNs).y()));
        if (s.valid() && s.lane == 0 && s.item.count > 1) fold = s;
    }
    ASSERT_TRUE(fold.valid()) << "no fold found";
    const QString tip = p->tooltipText(fold);
    // Brute force over the lane's depth-0 spans inside the fold: count and busy time.
    std::int64_t count = 0, busy = 0;
    std::vector<cs::engine::TimelineItem> all;
    d.lanes[0].spans.query(fold.item.startNs, fold.item.endNs, 1, all);
    for (const auto& it : all)
        if (it.depth == 0 && it.startNs >= fold.item.startNs && it.endNs <= fold.item.endNs) ++count, busy += it.endNs - it.startNs;
    EXPECT_EQ(count, static_cast<std::int64_t>(fold.item.count));
    EXPECT_TRUE(tip.startsWith(QStringLiteral("%1 items folded, %2 busy over ")
                                   .arg(groupedCount(count), secondsText(static_cast<double>(busy) * 1e-9))))
        << tip.toStdString();
    EXPECT_EQ(tip.count(QStringLiteral("\n  kernel_")), 3) << tip.toStdString();  // the three longest names
    EXPECT_TRUE(tip.contains(QStringLiteral("\nlongest:\n"))) << tip.toStdString();
}

TEST_F(TimelineNavigationTest, ZoomingKeepsThePointUnderTheCursorFixed) {
    openDemo();
    TimelinePlot* p = plot();
    QWidget* w = p->plotWidget();
    const QPoint at(300, p->pixelOf(0, 0, 0, 0).y());
    QMouseEvent move(QEvent::MouseMove, at, w->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(w, &move);
    const std::int64_t before = p->nsAtPixel(0, at.x());
    auto nsPerPixel = [&] {
        auto [a, b] = p->visibleRangeNs();
        return static_cast<double>(b - a) / w->width();
    };
    const double px0 = nsPerPixel();
    QTest::keyClick(w, Qt::Key_W);
    EXPECT_LT(nsPerPixel(), px0);
    EXPECT_NEAR(static_cast<double>(p->nsAtPixel(0, at.x())), static_cast<double>(before), px0);
    QTest::keyClick(w, Qt::Key_W);
    QTest::keyClick(w, Qt::Key_S);
    EXPECT_NEAR(static_cast<double>(p->nsAtPixel(0, at.x())), static_cast<double>(before), px0);
    // The wheel, at another place.
    const QPoint wheelAt(800, at.y());
    const std::int64_t under = p->nsAtPixel(0, wheelAt.x());
    const double px1 = nsPerPixel();
    QWheelEvent wheel(wheelAt, w->mapToGlobal(wheelAt), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &wheel);
    EXPECT_LT(nsPerPixel(), px1);
    EXPECT_NEAR(static_cast<double>(p->nsAtPixel(0, wheelAt.x())), static_cast<double>(under), px1);
}

TEST_F(TimelineNavigationTest, FileExportWritesTraceEventFormatForPerfetto) {
    openDemo();
    ASSERT_TRUE(window->tefAction()->isEnabled());
    QSignalSpy written(window.get(), &MainWindow::reportWritten);
    const QString out = QString::fromStdString(dir.file("trace.json"));
    window->exportTefTo(out);
    ASSERT_TRUE(cs::test::waitFor([&] { return written.count() == 1; }, 60000));
    EXPECT_EQ(written.at(0).at(1).toString(), QString()) << written.at(0).at(1).toString().toStdString();
    std::ifstream in(out.toStdString(), std::ios::binary);
    const cs::util::JsonValue doc = cs::util::parseJson(in);
    const cs::util::JsonValue* events = doc.get("traceEvents");
    ASSERT_NE(events, nullptr);
    int compiles = 0;
    for (const auto& ev : events->items)
        if (ev.get("ph")->str == "X" && ev.get("name")->str == "compile gradient") ++compiles;
    EXPECT_EQ(compiles, 2);
}
