// Live attach: the loader opens a trace that a running `compilescope record` is still writing,
// publishes fresh snapshots while the recording runs, and the finished trace once it ends.
#include "gui_test_util.h"

#include "app/models/trace_loader.h"
#include "core/trace/reader.h"
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
    EXPECT_EQ(findings.count(), 1);
}
