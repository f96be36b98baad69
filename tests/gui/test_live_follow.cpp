// Incremental follow (issue 20): a writer process commits spans for 10 s while the GUI's loader follows
// it offscreen. Every commit is visible within 1 s, each refresh reads exactly the rows committed since
// the one before (the follower's counter against the row counts the views see), and the final counts
// are exact.
#include "gui_test_util.h"

#include "app/gui/main_window.h"
#include "app/models/trace_loader.h"
#include "core/trace/reader.h"
#include "test_util.h"

#include <QProcess>
#include <QProgressBar>
#include <QToolButton>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <vector>

using namespace cs::gui;

namespace {
std::int64_t monotonicNs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

std::int64_t rowsOf(const cs::engine::CompileSummary& s, const std::string& table) {
    for (const auto& [name, n] : s.rowCounts)
        if (name == table) return n;
    return 0;
}

struct Commit {
    std::int64_t spans = 0, atNs = 0;
};
}  // namespace

TEST(LiveFollow, ReadsOnlyNewRowsAndShowsEachCommitWithinASecond) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("live.cstrace"), log = dir.file("commits.log");
    QProcess writer;
    writer.start(QStringLiteral(LIVE_WRITER), {QString::fromStdString(trace), QStringLiteral("10000"), QStringLiteral("10000"),
                                              QString::fromStdString(log)});
    ASSERT_TRUE(writer.waitForStarted());
    ASSERT_TRUE(cs::test::waitFor([&] { return TraceLoader::isLiveRecording(trace); }, 10000)) << "the writer did not register";

    TraceLoader loader;
    // The default refresh interval: what a user gets.
    struct Seen {
        std::int64_t atNs, spans;
    };
    std::vector<Seen> seen;
    struct Refresh {
        LiveRefresh r;
        std::size_t snapshot;  // index in `seen` of the snapshot this refresh published
    };
    std::vector<Refresh> refreshes;
    int findingsWhileLive = 0;
    bool live = false;
    QObject::connect(&loader, &TraceLoader::summaryReady,
                     [&](int, SummaryPtr s) { seen.push_back({monotonicNs(), rowsOf(*s, "spans")}); });
    QObject::connect(&loader, &TraceLoader::liveRefreshed, [&](int, LiveRefresh r) { refreshes.push_back({r, seen.size() - 1}); });
    QObject::connect(&loader, &TraceLoader::liveChanged, [&](int, bool l) { live = l; });
    QObject::connect(&loader, &TraceLoader::findingsReady, [&](int, FindingsPtr) { findingsWhileLive += live ? 1 : 0; });
    bool done = false;
    QObject::connect(&loader, &TraceLoader::finished, [&](int, bool) { done = true; });
    loader.load(QString::fromStdString(trace));
    ASSERT_TRUE(cs::test::waitFor([&] { return done; }, 60000)) << "still following after 60 s";
    ASSERT_TRUE(writer.state() == QProcess::NotRunning || writer.waitForFinished(10000));
    ASSERT_EQ(writer.exitCode(), 0) << writer.readAllStandardError().toStdString();

    std::vector<Commit> commits;
    std::int64_t finalSpans = -1;
    {
        std::ifstream in(log);
        std::string word;
        while (in >> word) {
            if (word == "commit") {
                Commit c;
                in >> c.spans >> c.atNs;
                commits.push_back(c);
            } else if (word == "final") {
                in >> finalSpans;
            }
        }
    }
    ASSERT_GE(commits.size(), 150u) << "about 20 commits a second for 10 s";
    ASSERT_GT(finalSpans, 50000);

    // Final counts exact: the last snapshot is the finished trace, with every span the writer wrote.
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back().spans, finalSpans);
    EXPECT_EQ(cs::trace::TraceReader::open(trace)->rowCount("spans"), finalSpans);

    // Every commit visible within 1 s: the first snapshot holding its rows came less than 1 s after it.
    std::int64_t worstNs = 0;
    for (const Commit& c : commits) {
        auto it = std::find_if(seen.begin(), seen.end(), [&](const Seen& s) { return s.spans >= c.spans; });
        ASSERT_NE(it, seen.end()) << "commit of " << c.spans << " spans never shown";
        worstNs = std::max(worstNs, it->atNs - c.atNs);
    }
    EXPECT_LT(worstNs, 1000000000) << "a commit took " << worstNs / 1000000 << " ms to show";
    std::printf("[ measure ] %zu commits, %zu snapshots, worst commit-to-view %lld ms\n", commits.size(), seen.size(),
                static_cast<long long>(worstNs / 1000000));

    // Rows read per refresh equal the new rows: the follower's counter against the spans the views saw.
    ASSERT_GE(refreshes.size(), 10u) << "a refresh every 250 ms for 10 s";
    std::int64_t readAfterFirst = 0;
    for (std::size_t i = 1; i < refreshes.size(); ++i) {
        const Refresh& r = refreshes[i];
        ASSERT_GE(r.snapshot, 1u);
        EXPECT_EQ(r.r.rowsRead, seen[r.snapshot].spans - seen[r.snapshot - 1].spans) << "refresh " << r.r.generation;
        EXPECT_LE(r.r.smallTableRowsRead, 10) << "sessions, tracks, stats and meta: a few rows";
        readAfterFirst += r.r.rowsRead;
    }
    EXPECT_EQ(refreshes.back().r.totalRowsRead, refreshes.front().r.rowsRead + readAfterFirst);
    // In all, the rows read from the recording are its rows once (plus its strings and enums), not once per refresh.
    EXPECT_LE(refreshes.back().r.totalRowsRead, finalSpans + 200);
    // Findings were published while the job ran, not only at its end.
    // (The analysis runs at most every second while following; the rows show at every refresh.)
    EXPECT_GE(findingsWhileLive, 3);
}

// While following, the status bar says what arrives ("Following NAME: N events, last commit T ago")
// instead of a progress bar stuck at 80 %, and Cancel becomes Detach, which stops following and keeps
// what was shown.
TEST(LiveFollow, StatusSaysWhatArrivesAndDetachKeepsTheView) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("live.cstrace");
    QProcess writer;
    writer.start(QStringLiteral(LIVE_WRITER), {QString::fromStdString(trace), QStringLiteral("6000"), QStringLiteral("2000"),
                                              QString::fromStdString(dir.file("commits.log"))});
    ASSERT_TRUE(writer.waitForStarted());
    ASSERT_TRUE(cs::test::waitFor([&] { return TraceLoader::isLiveRecording(trace); }, 10000));
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    window.openTraces({QString::fromStdString(trace)});
    ASSERT_TRUE(cs::test::waitFor([&] { return window.statusText().contains(QStringLiteral(", last commit ")); }, 10000))
        << window.statusText().toStdString();
    const QString status = window.statusText();
    EXPECT_TRUE(status.startsWith(QStringLiteral("Following live.cstrace: "))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral(" events, last commit "))) << status.toStdString();
    EXPECT_TRUE(status.endsWith(QStringLiteral(" ago"))) << status.toStdString();
    QToolButton* detach = nullptr;
    for (QToolButton* b : window.findChildren<QToolButton*>())
        if (b->text() == QStringLiteral("Detach") && b->isVisible()) detach = b;
    ASSERT_NE(detach, nullptr) << "no visible Detach button while following";
    for (QProgressBar* p : window.findChildren<QProgressBar*>()) EXPECT_FALSE(p->isVisible()) << "a progress bar while following";
    detach->click();
    ASSERT_TRUE(cs::test::waitFor([&] { return !window.isLoading(); }, 10000));
    EXPECT_TRUE(window.statusText().startsWith(QStringLiteral("Detached from live.cstrace"))) << window.statusText().toStdString();
    ASSERT_EQ(window.documents().size(), 1u);
    EXPECT_TRUE(window.documents()[0].timeline != nullptr) << "what was shown stays";
    EXPECT_EQ(writer.state(), QProcess::Running) << "detaching left the recording alone";
    ASSERT_TRUE(writer.waitForFinished(15000));
    EXPECT_EQ(writer.exitCode(), 0);
}
