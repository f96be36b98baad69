// The ranks of a job in the GUI. Many traces opened at once: outlines first, then the full reads in
// order, a trace the user asks for first (app/models/load_gate.h, TraceLoader::load with outlineFirst).
// The Ranks view: the ranks compared as `compilescope check` compares them, a slow rank and a
// divergent program one activation away from their evidence.
#include "gui_test_util.h"

#include "app/gui/main_window.h"
#include "app/widgets/cache_view.h"
#include "app/widgets/filtered_table.h"
#include "app/widgets/overview_view.h"
#include "app/widgets/ranks_view.h"
#include "app/widgets/timeline_view.h"
#include "app/plots/timeline_plot.h"
#include "cli_runner.h"

#include "app/models/load_gate.h"
#include "app/models/trace_loader.h"
#include "core/engine/timeline/timeline_data.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <QCoreApplication>
#include <QTabWidget>
#include <QTreeView>

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace {

TEST(LoadGate, FullReadsWaitForEveryOutlineThenGoInOrderTheAskedFirst) {
    cs::gui::LoadGate gate(1);
    std::atomic<bool> never{false};
    for (int i = 0; i < 4; ++i) gate.outlineQueued();
    std::mutex m;
    std::vector<int> order;
    std::vector<std::thread> jobs;
    for (int doc = 1; doc <= 4; ++doc)
        jobs.emplace_back([&, doc] {
            if (!gate.acquire(doc, never)) return;
            {
                std::lock_guard lock(m);
                order.push_back(doc);
            }
            gate.release();
        });
    // Every job waits while outlines are pending, with the slot free.
    QElapsedTimer clock;
    clock.start();
    while (gate.waiting() < 4 && clock.elapsed() < 10000) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(gate.waiting(), 4);
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    EXPECT_TRUE(order.empty());
    gate.prioritise(3);  // the user expanded rank 3's group
    for (int i = 0; i < 4; ++i) gate.outlineDone();
    for (std::thread& t : jobs) t.join();
    EXPECT_EQ(order, (std::vector<int>{3, 1, 2, 4}));
    EXPECT_EQ(gate.pendingOutlines(), 0);
}

TEST(LoadGate, ACancelledJobLeavesTheQueueWithoutASlot) {
    cs::gui::LoadGate gate(1);
    std::atomic<bool> cancel{false}, never{false};
    ASSERT_TRUE(gate.acquire(1, never));  // the only slot, held
    std::atomic<int> result{-1};
    std::thread waiter([&] { result = gate.acquire(2, cancel) ? 1 : 0; });
    while (gate.waiting() < 1) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    cancel = true;
    waiter.join();
    EXPECT_EQ(result.load(), 0);
    EXPECT_EQ(gate.waiting(), 0);
    gate.release();
    EXPECT_TRUE(gate.acquire(3, never));  // the slot was not lost
    gate.release();
}

// Six small rank traces, outline first: each trace's first timeline is its outline (lanes and counts,
// no span read), and every outline arrives before any full timeline; the full timelines follow with
// every span.
TEST(TraceLoaderOutline, EveryOutlineArrivesBeforeAnyFullTimeline) {
    cs::test::TempDir dir;
    QStringList paths;
    for (int r = 0; r < 6; ++r) {
        const std::string p = dir.file("rank" + std::to_string(r) + ".cstrace");
        cs::trace::TraceWriter w(p, {});
        auto s = w.addSession({.runtime = w.intern("bench"), .startNs = 0});
        auto t = w.addTrack({.sessionId = s, .name = w.intern("worker")});
        for (int i = 0; i < 100 + r; ++i)
            w.addSpan({.trackId = t, .startNs = i * 1000, .durNs = 500, .category = CS_CAT_COMPILE, .name = w.intern("compile")});
        w.finalize();
        paths << QString::fromStdString(p);
    }
    cs::gui::TraceLoader loader;
    struct Arrival {
        int doc;
        bool outline;
        std::size_t events;
    };
    std::vector<Arrival> arrivals;
    QObject::connect(&loader, &cs::gui::TraceLoader::timelineReady, &loader, [&](int id, cs::gui::TimelinePtr t) {
        arrivals.push_back({id, t->outline, t->events});
    });
    std::map<int, int> rankOf;
    for (int r = 0; r < paths.size(); ++r) rankOf[loader.load(paths[r], true)] = r;
    QElapsedTimer clock;
    clock.start();
    auto running = [&] {
        for (const auto& [id, r] : rankOf)
            if (loader.isRunning(id)) return true;
        return false;
    };
    while (running() && clock.elapsed() < 60000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    ASSERT_FALSE(running());
    ASSERT_EQ(arrivals.size(), 12u);
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_TRUE(arrivals[i].outline) << "arrival " << i;
        EXPECT_EQ(arrivals[i].events, static_cast<std::size_t>(100 + rankOf[arrivals[i].doc]));
    }
    for (std::size_t i = 6; i < 12; ++i) {
        EXPECT_FALSE(arrivals[i].outline) << "arrival " << i;
        EXPECT_EQ(arrivals[i].events, static_cast<std::size_t>(100 + rankOf[arrivals[i].doc]));
    }
}

// The outline of a rank goes out before the check of every page's checksum (a cold first paint of 256
// ranks would read all their bytes first); the check still runs before the full read, so a rank with
// a damaged page shows its outline, then fails naming the damage, and no timeline of its data comes.
TEST(TraceLoaderOutline, ADamagedRankShowsItsOutlineThenFailsBeforeItsFullRead) {
    cs::test::TempDir dir;
    const std::string p = dir.file("damaged.cstrace");
    {
        cs::trace::TraceWriter w(p, {});
        auto s = w.addSession({.runtime = w.intern("bench"), .startNs = 0});
        auto t = w.addTrack({.sessionId = s, .name = w.intern("worker")});
        for (int i = 0; i < 40000; ++i)
            w.addSpan({.trackId = t, .startNs = i * 1000, .durNs = 500, .category = CS_CAT_COMPILE, .name = w.intern("compile")});
        w.finalize();
    }
    // One byte in a page halfway through the file: span rows, which an outline does not read.
    const auto pages = static_cast<std::int64_t>(std::filesystem::file_size(p) / 16384);
    ASSERT_GT(pages, 20);
    {
        std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
        const std::int64_t at = pages / 2 * 16384 + 8000;
        f.seekg(at);
        char c = 0;
        f.get(c);
        f.seekp(at);
        f.put(static_cast<char>(c ^ 0x5a));
    }
    cs::gui::TraceLoader loader;
    std::vector<bool> outlines;
    QString failure;
    QObject::connect(&loader, &cs::gui::TraceLoader::timelineReady, &loader,
                     [&](int, cs::gui::TimelinePtr t) { outlines.push_back(t->outline); });
    QObject::connect(&loader, &cs::gui::TraceLoader::failed, &loader, [&](int, const QString& m) { failure = m; });
    const int id = loader.load(QString::fromStdString(p), true);
    QElapsedTimer clock;
    clock.start();
    while (loader.isRunning(id) && clock.elapsed() < 60000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QCoreApplication::processEvents();
    ASSERT_FALSE(loader.isRunning(id));
    EXPECT_EQ(outlines, std::vector<bool>{true}) << "the outline, then nothing read from the damaged file";
    EXPECT_TRUE(failure.contains(QStringLiteral("damaged"))) << failure.toStdString();
    EXPECT_TRUE(failure.contains(QString::fromStdString(p))) << failure.toStdString();
}

// Four ranks: each compiles for 1 s and looks `gradient` up at steps 1..3 (a miss at step 1, 1 s);
// rank 2 compiles for 4 s (slow: 4x the median), and rank 1 compiles a ragged shape at step 3 in 10 ms
// (a program the others did not compile, a miss at a step the others hit).
// `runtime`: the program the rank ran (ranks of one job share it; unrelated traces do not).
QString writeRank(const cs::test::TempDir& dir, int r, const std::string& runtime = "bench") {
    const std::string folder = dir.file("rank" + std::to_string(r));
    std::filesystem::create_directories(folder);
    const std::string p = folder + "/trace.cstrace";
    using namespace cs::trace;
    TraceWriter w(p, {});
    auto s = w.addSession({.runtime = w.intern(runtime), .startNs = 0});
    auto t = w.addTrack({.sessionId = s, .name = w.intern("worker")});
    const std::int64_t compileNs = r == 2 ? 4'000'000'000 : 1'000'000'000;
    w.addSpan({.trackId = t, .startNs = 0, .durNs = compileNs, .category = CS_CAT_COMPILE, .name = w.intern("compile gradient")});
    const StringId program = w.intern("gradient"), shape = w.intern("shape of arg 2"), full = w.intern("128x64"), ragged = w.intern("100x64");
    for (std::int64_t step = 1; step <= 3; ++step) {
        w.addStep({.sessionId = s, .tsNs = compileNs + step * 1000, .step = step});
        const bool raggedStep = r == 1 && step == 3, miss = step == 1 || raggedStep;
        auto id = w.addCacheLookup({.sessionId = s, .tsNs = compileNs + step * 1000 + 10, .program = program,
                                    .verdict = miss ? CS_VERDICT_MISS : CS_VERDICT_HIT,
                                    .compileNs = miss ? std::optional<std::int64_t>(raggedStep ? 10'000'000 : compileNs) : std::nullopt,
                                    .step = step});
        const StringId v = raggedStep ? ragged : full;
        w.addKeyComponent({.lookupId = id, .ordinal = 0, .name = shape, .role = CS_ROLE_SHAPE, .digest = v, .value = v});
    }
    w.endSession(s, compileNs + 10000, 0);
    w.finalize();
    return QString::fromStdString(p);
}

TEST(RanksView, ComparesTheRanksAsCheckDoesAndLeadsToTheEvidence) {
    cs::test::TempDir dir;
    QStringList paths;
    std::vector<std::string> args{"check"};
    for (int r = 0; r < 4; ++r) {
        paths << writeRank(dir, r);
        args.push_back(paths.back().toStdString());
    }
    cs::gui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    QTabWidget* tabs = window.tabs();
    cs::gui::RanksView* view = window.ranks();
    EXPECT_FALSE(tabs->isTabVisible(tabs->indexOf(view)));  // no trace open: no ranks
    window.openTraces(paths);
    ASSERT_TRUE(cs::test::waitFor([&] { return !window.isLoading(); }));
    EXPECT_TRUE(tabs->isTabVisible(tabs->indexOf(view)));
    ASSERT_TRUE(view->ranks());
    const cs::gui::RanksSnapshot& ranks = *view->ranks();
    ASSERT_EQ(ranks.rows.size(), 4u);
    EXPECT_EQ(ranks.waiting, 0);
    EXPECT_TRUE(view->headline().contains(QStringLiteral("DIVERGE"))) << view->headline().toStdString();

    // Every rank's row: rank 2 slow at 4x the median, rank 1 apart on one program and one step.
    for (const cs::gui::RankRow& row : ranks.rows) {
        SCOPED_TRACE(row.label.toStdString());
        EXPECT_TRUE(row.analysed);
        const bool slow = row.label.startsWith(QStringLiteral("rank2/")), odd = row.label.startsWith(QStringLiteral("rank1/"));
        EXPECT_EQ(row.slow, slow);
        // The compile span and the first miss's compile, as the rank's Overview counts it: one analysis.
        EXPECT_EQ(row.compileNs, window.documents()[static_cast<std::size_t>(row.doc)].summary->compileNs);
        if (!odd) {
            EXPECT_EQ(row.compileNs, slow ? 8'000'000'000 : 2'000'000'000);
        }
        ASSERT_TRUE(row.timesMedian.has_value());
        EXPECT_NEAR(*row.timesMedian, slow ? 4.0 : 1.0, 0.01);
        EXPECT_EQ(row.programsApart, odd ? 1 : 0);
        EXPECT_EQ(row.stepsApart, odd ? 1 : 0);
        EXPECT_EQ(row.misses.value_or(-1), odd ? 2 : 1);
    }
    const QModelIndex verdict = view->model()->index(2, 4);
    EXPECT_TRUE(view->model()->data(verdict, Qt::DisplayRole).toString().contains(QStringLiteral("slow")));

    // The same comparison as `compilescope check` over the same files: each finding's subject is a
    // line of check's output, and check fails on the divergence.
    auto cli = cs::test::runCli(args);
    EXPECT_EQ(cli.status, 1) << cli.err;
    ASSERT_TRUE(ranks.findings);
    int slowFindings = 0, programFindings = 0;
    for (const cs::engine::Finding& f : *ranks.findings) {
        if (f.kind == "cache.rank_slow") {
            ++slowFindings;
            EXPECT_NE(cli.out.find("WARN " + f.title), std::string::npos) << f.title << "\n" << cli.out;
        }
        if (f.kind == "cache.rank_divergence") ++programFindings;
    }
    EXPECT_EQ(slowFindings, 1);
    EXPECT_EQ(programFindings, 1);
    for (const auto& p : ranks.divergence.programs)
        EXPECT_NE(cli.out.find("FAIL program " + p.key), std::string::npos) << cli.out;

    // The timeline says which rank is slow and which diverges, on their (collapsed or not) headers.
    cs::gui::TimelinePlot* plot = window.timeline()->plot();
    ASSERT_EQ(plot->groupCount(), 4);
    for (int g = 0; g < plot->groupCount(); ++g) {
        const QString header = plot->groupHeaderText(g);
        const QString rank = plot->groupLabel(g).section(QLatin1Char('/'), 0, 0);
        if (rank == QStringLiteral("rank2")) EXPECT_TRUE(header.endsWith(QStringLiteral(" — slow rank: 4.00x the median"))) << header.toStdString();
        else if (rank == QStringLiteral("rank1")) EXPECT_TRUE(header.contains(QStringLiteral(" — diverges on 1 program, missed apart at 1 step"))) << header.toStdString();
        else EXPECT_FALSE(header.contains(QStringLiteral(" — "))) << header.toStdString();
    }

    // One activation from the slow rank's finding to its longest compile in that rank's Cache view.
    cs::gui::FindingsModel* fm = view->findingsModel();
    QModelIndex slowFinding;
    for (int i = 0; i < fm->rowCount(); ++i) {
        const cs::gui::FindingItem* it = fm->itemAt(fm->index(i, 0));
        if (it && it->finding->kind == "cache.rank_slow") slowFinding = fm->index(i, 0);
    }
    ASSERT_TRUE(slowFinding.isValid());
    emit view->findingsTable()->activated(slowFinding);
    EXPECT_TRUE(window.documents()[static_cast<std::size_t>(window.currentDocument())].label.startsWith(QStringLiteral("rank2/")));
    EXPECT_EQ(tabs->currentWidget(), static_cast<QWidget*>(window.cache()));
    // A rank's row opens that rank's Overview.
    emit view->table()->activated(view->model()->index(3, 0));
    EXPECT_EQ(window.currentDocument(), 3);
    EXPECT_EQ(tabs->currentWidget(), static_cast<QWidget*>(window.overview()));
}

// Ranks only for ranks (issue 35): the same divergent and slow traces, but each of another program,
// open side by side: no DIVERGE, no slow rank, no rank note on the timeline, no rank finding;
// compilescope-gui --ranks (setCompareAsRanks) compares them as the ranks of one job again.
TEST(RanksView, UnrelatedTracesAreNotComparedUnlessOpenedAsRanks) {
    cs::test::TempDir dir;
    QStringList paths;
    for (int r = 0; r < 4; ++r) paths << writeRank(dir, r, "program" + std::to_string(r));
    for (const bool asRanks : {false, true}) {
        SCOPED_TRACE(asRanks ? "--ranks" : "side by side");
        cs::gui::MainWindow window;
        window.setCompareAsRanks(asRanks);
        window.openTraces(paths);
        ASSERT_TRUE(cs::test::waitFor([&] { return !window.isLoading(); }));
        cs::gui::RanksView* view = window.ranks();
        ASSERT_TRUE(view->ranks());
        const cs::gui::RanksSnapshot& ranks = *view->ranks();
        EXPECT_EQ(ranks.compared, asRanks);
        EXPECT_EQ(view->headline().contains(QStringLiteral("DIVERGE")), asRanks) << view->headline().toStdString();
        EXPECT_EQ(view->headline().contains(QStringLiteral("not compared")), !asRanks) << view->headline().toStdString();
        int slow = 0;
        for (const cs::gui::RankRow& row : ranks.rows) slow += row.slow ? 1 : 0;
        EXPECT_EQ(slow, asRanks ? 1 : 0);
        ASSERT_TRUE(ranks.findings);
        EXPECT_EQ(ranks.findings->empty(), !asRanks);
        const QString verdict = view->model()->data(view->model()->index(2, 4), Qt::DisplayRole).toString();
        EXPECT_EQ(verdict.contains(QStringLiteral("slow")), asRanks) << verdict.toStdString();
        cs::gui::TimelinePlot* plot = window.timeline()->plot();
        int notes = 0;
        for (int g = 0; g < plot->groupCount(); ++g) notes += plot->groupHeaderText(g).contains(QStringLiteral(" — ")) ? 1 : 0;
        EXPECT_EQ(notes, asRanks ? 2 : 0);  // rank2 slow, rank1 apart
    }
}

// Ranks arrive one by one: a new snapshot of one trace keeps what is selected in another, and only
// a new snapshot of the selected trace (or new traces) clears it.
TEST(RanksTimeline, ASelectionStaysWhileOtherTracesArrive) {
    cs::test::TempDir dir;
    auto snapshot = [&](int r) {
        auto reader = cs::trace::TraceReader::open(writeRank(dir, r).toStdString());
        return std::make_shared<const cs::engine::TimelineData>(cs::engine::loadTimeline(*reader));
    };
    auto a = snapshot(0), b = snapshot(1), b2 = snapshot(2), a2 = snapshot(3);
    cs::gui::TimelinePlot plot;
    plot.resize(1000, 600);
    plot.show();
    plot.setSources({{QStringLiteral("rank0"), a}, {QStringLiteral("rank1"), b}});
    ASSERT_FALSE(a->lanes.empty());
    std::vector<cs::engine::TimelineItem> items;
    a->lanes[0].spans.query(a->minNs, a->maxNs + 1, 1, items);
    ASSERT_FALSE(items.empty());
    plot.select({0, 0, -1, items.front(), {}}, false);
    ASSERT_TRUE(plot.selection().valid());
    plot.setSources({{QStringLiteral("rank0"), a}, {QStringLiteral("rank1"), b2}}, true);  // rank 1 read whole
    EXPECT_TRUE(plot.selection().valid());
    EXPECT_EQ(plot.selection().item.rowId, items.front().rowId);
    plot.setSources({{QStringLiteral("rank0"), a2}, {QStringLiteral("rank1"), b2}}, true);  // the selected trace changed
    EXPECT_FALSE(plot.selection().valid());
}

// An outline whose full read will not come (the user cancelled, or the read failed) says so, and
// does not promise it is loading.
TEST(RanksTimeline, AnOutlineWhoseLoadStoppedSaysItsEventsWereNotRead) {
    cs::test::TempDir dir;
    auto reader = cs::trace::TraceReader::open(writeRank(dir, 0).toStdString());
    auto outline = std::make_shared<const cs::engine::TimelineData>(cs::engine::loadTimelineOutline(*reader));
    cs::gui::TimelinePlot plot;
    plot.resize(1000, 600);
    plot.setSources({{QStringLiteral("rank0"), outline}});
    ASSERT_EQ(plot.groupCount(), 1);
    EXPECT_TRUE(plot.groupLoading(0));
    EXPECT_TRUE(plot.groupHeaderText(0).contains(QStringLiteral("loading…"))) << plot.groupHeaderText(0).toStdString();
    plot.setSources({{QStringLiteral("rank0"), outline, {}, true}}, true);
    EXPECT_TRUE(plot.groupHeaderText(0).contains(QStringLiteral("not read (loading stopped)"))) << plot.groupHeaderText(0).toStdString();
    EXPECT_FALSE(plot.groupHeaderText(0).contains(QStringLiteral("loading…")));
}

}  // namespace
