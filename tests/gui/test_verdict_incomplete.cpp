// The Overview's acceptance verdict for a trace from which cache lookups were left out as trace
// problems (issue 40): `check` says INCOMPLETE (exit 3), and so must the GUI, never PASS.
#include "open_window.h"

#include "app/widgets/overview_view.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>

namespace {

// One session whose program misses once and then hits (a pass), and `dangling` lookups of a session
// the trace does not hold: written by our own writer, sealed, as a damaged recorder could leave it.
std::string lookupsTrace(const cs::test::TempDir& dir, const std::string& name, int dangling) {
    const std::string path = dir.file(name);
    cs::trace::TraceWriter w(path);
    const auto session = w.addSession({.runtime = w.intern("reactant"), .startNs = 0});
    const auto cache = w.intern("nitro"), program = w.intern("train_step");
    for (int i = 0; i < 2; ++i)
        w.addCacheLookup({.sessionId = session, .tsNs = 1000 * (i + 1), .cache = cache, .program = program,
                          .verdict = i == 0 ? CS_VERDICT_MISS : CS_VERDICT_HIT, .step = i + 1});
    for (int i = 0; i < dangling; ++i)
        w.addCacheLookup({.sessionId = session + 100, .tsNs = 5000 + i, .cache = cache, .program = program,
                          .verdict = CS_VERDICT_MISS, .step = 3});
    w.endSession(session, 10000, 0);
    w.finalize();
    return path;
}

TEST(VerdictIncomplete, TheOverviewSaysIncompleteWhenLookupsWereLeftOut) {
    cs::test::TempDir dir;
    auto whole = cs::test::openWindow(lookupsTrace(dir, "whole.cstrace", 0));
    ASSERT_TRUE(cs::test::waitFor([&] { return whole->overview()->verdict().contains(QStringLiteral("PASS")); }))
        << whole->overview()->verdict().toStdString();
    EXPECT_FALSE(whole->overview()->verdict().contains(QStringLiteral("INCOMPLETE")));

    auto partial = cs::test::openWindow(lookupsTrace(dir, "partial.cstrace", 3));
    ASSERT_TRUE(cs::test::waitFor([&] { return partial->overview()->verdict().contains(QStringLiteral("INCOMPLETE")); }))
        << partial->overview()->verdict().toStdString();
    const QString verdict = partial->overview()->verdict();
    EXPECT_TRUE(verdict.contains(QStringLiteral("3 cache lookup rows were left out as trace problems"))) << verdict.toStdString();
    // What was judged is shown as the rest of the run's, never as the trace's acceptance.
    EXPECT_FALSE(verdict.contains(QStringLiteral("Acceptance: <span style='color:#2e7d32'>PASS"))) << verdict.toStdString();
    EXPECT_TRUE(verdict.contains(QStringLiteral("The rest of the run: "))) << verdict.toStdString();
}

}  // namespace
