// Live attach: the loader opens a trace that a running `compilescope record` is still writing,
// publishes fresh snapshots (and findings) while the recording runs, and the finished trace once it ends; the
// timeline keeps the user's zoom across those refreshes.
#include "gui_test_util.h"

#include "app/models/trace_loader.h"
#include "app/plots/timeline_plot.h"
#include "core/engine/timeline/timeline_data.h"
#include "core/trace/reader.h"
#include "demo_trace_builder.h"
#include "test_util.h"

#include <QProcess>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <vector>

using namespace cs::gui;

namespace {
std::int64_t countersIn(const cs::engine::CompileSummary& s) {
    for (const auto& [table, n] : s.rowCounts)
        if (table == "counters") return n;
    return 0;
}
}  // namespace

TEST(LiveAttach, FollowsARecordingInProgressAndSeesItsRowsGrow) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("live.cstrace");
    // collector_job steady: counters in bursts of 20 per ms for 3 s, under the real launcher and recorder.
    QProcess recording;
    recording.start(QStringLiteral(COMPILESCOPE_CLI),
                    {QStringLiteral("record"), QStringLiteral("-o"), QString::fromStdString(trace), QStringLiteral("--"),
                     QStringLiteral(COLLECTOR_JOB), QStringLiteral("steady"), QString::fromStdString(dir.file("seq")),
                     QStringLiteral("20"), QStringLiteral("3000")});
    ASSERT_TRUE(recording.waitForStarted());
    // Attach once the recorder has registered the trace and committed its first rows.
    ASSERT_TRUE(cs::test::waitFor(
        [&] {
            if (!TraceLoader::isLiveRecording(trace)) return false;
            try {
                return cs::trace::TraceReader::open(trace)->rowCount("counters") > 0;
            } catch (const std::exception&) {
                return false;
            }
        },
        10000))
        << "the recording did not start";

    TraceLoader loader;
    loader.setLiveRefreshMs(200);
    std::vector<std::int64_t> counters;
    std::vector<bool> liveStates;
    QObject::connect(&loader, &TraceLoader::summaryReady, [&](int, SummaryPtr s) { counters.push_back(countersIn(*s)); });
    QObject::connect(&loader, &TraceLoader::liveChanged, [&](int, bool live) { liveStates.push_back(live); });
    QSignalSpy timelines(&loader, &TraceLoader::timelineReady);
    QSignalSpy findings(&loader, &TraceLoader::findingsReady);
    QSignalSpy finished(&loader, &TraceLoader::finished);
    loader.load(QString::fromStdString(trace));
    ASSERT_TRUE(cs::test::waitFor([&] { return finished.count() == 1; }, 30000)) << "still following after 30 s";
    ASSERT_TRUE(recording.state() == QProcess::NotRunning || recording.waitForFinished(10000));
    EXPECT_EQ(recording.exitCode(), 0);

    EXPECT_EQ(liveStates, (std::vector<bool>{true, false}));
    ASSERT_GE(counters.size(), 3u) << "a first snapshot, at least one refresh, the finished trace";
    EXPECT_EQ(timelines.count(), static_cast<int>(counters.size()));
    for (std::size_t i = 1; i < counters.size(); ++i) EXPECT_GE(counters[i], counters[i - 1]) << "snapshot " << i;
    EXPECT_GT(counters.back(), counters.front()) << "the rows committed while attached were seen";
    // The last snapshot is the finished trace, and the findings ran on it.
    EXPECT_EQ(counters.back(), cs::trace::TraceReader::open(trace)->rowCount("counters"));
    EXPECT_FALSE(TraceLoader::isLiveRecording(trace));
    // Findings came while recording (from the mirror, at most once a second) and on the finished trace.
    EXPECT_GE(findings.count(), 2);
    EXPECT_LE(findings.count(), static_cast<int>(counters.size()));
}

TEST(LiveAttach, ARefreshKeepsAZoomedViewAndFollowsAFittedOne) {
    cs::test::TempDir dir;
    // Two snapshots of one growing trace: the second has twice the spans, so it lasts twice as long.
    cs::test::demo::writeSyntheticTrace(dir.file("a.cstrace"), 2000, 2);
    cs::test::demo::writeSyntheticTrace(dir.file("b.cstrace"), 4000, 2);
    auto first = std::make_shared<const cs::engine::TimelineData>(cs::engine::loadTimeline(*cs::trace::TraceReader::open(dir.file("a.cstrace"))));
    auto grown = std::make_shared<const cs::engine::TimelineData>(cs::engine::loadTimeline(*cs::trace::TraceReader::open(dir.file("b.cstrace"))));
    ASSERT_GT(grown->maxNs, first->maxNs);
    TimelinePlot plot;
    plot.resize(1200, 600);
    plot.show();
    plot.setSources({{QStringLiteral("live"), first}});
    // Fitted: the refresh fits the grown extent.
    plot.setSources({{QStringLiteral("live"), grown}}, true);
    EXPECT_GE(plot.visibleRangeNs().second, grown->maxNs);
    // Zoomed in: the refresh leaves the view alone.
    plot.showRange(0, first->minNs + 1000, first->minNs + 5000);
    auto zoomed = plot.visibleRangeNs();
    plot.setSources({{QStringLiteral("live"), first}}, true);
    EXPECT_EQ(plot.visibleRangeNs(), zoomed);
    // A different trace is not a refresh: fitted.
    plot.setSources({{QStringLiteral("other"), grown}}, true);
    EXPECT_GE(plot.visibleRangeNs().second, grown->maxNs);
}
