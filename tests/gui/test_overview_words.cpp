// The Overview's headline and sessions for a log that printed no compile time (PyTorch's
// TORCH_LOGS=recompiles, as the user pasted it): an unknown time is never followed by a
// share of it ("0.0% of ..."), nothing is said of cache loads the log cannot have, and the runtime
// is named in the user's words, not by the importer's id.
#include "open_window.h"

#include "app/models/summary_models.h"
#include "app/widgets/overview_view.h"
#include "app/widgets/timeline_view.h"
#include "app/plots/timeline_plot.h"
#include "test_util.h"

#include "core/ingest/import_files.h"

#include <gtest/gtest.h>

namespace {

using namespace cs;

TEST(OverviewWords, AnUntimedPyTorchLogReadsUnknownWithoutAShareAndNamesPyTorch) {
    test::TempDir dir;
    const std::string trace = dir.file("torch.cstrace");
    ingest::importFiles({.inputs = {test::sourceDir() + "/tests/data/torch/recompiles_ids_issue148179.log"},
                         .output = trace, .forcedFormat = "", .overwrite = false});
    auto window = test::openWindow(trace);
    const QString headline = window->overview()->headline();
    EXPECT_TRUE(headline.contains(QStringLiteral("unknown time compiling ("))) << headline.toStdString();
    EXPECT_TRUE(headline.contains(QStringLiteral("no time printed)"))) << headline.toStdString();
    EXPECT_FALSE(headline.contains(QStringLiteral("% of "))) << "a share of an unknown time: " << headline.toStdString();
    EXPECT_FALSE(headline.contains(QStringLiteral("cache loads"))) << headline.toStdString();
    const auto* sessions = window->overview()->sessionModel();
    ASSERT_GT(sessions->rowCount(), 0);
    const QString runtime = sessions->index(0, 1).data().toString();
    EXPECT_EQ(runtime, QStringLiteral("PyTorch (imported TORCH_LOGS recompiles)"));
}

}  // namespace

namespace {

// A trace with nothing timed (SnoopCompile's printed trees) gets a sentence where the plot would be,
// not a bare 0-1000 ns axis; a trace with spans keeps its plot (issue 39, empty states).
TEST(TimelineEmptyState, NothingTimedSaysSoInsteadOfABareAxis) {
    auto trees = cs::test::openWindow(cs::test::sourceDir() + "/tests/data/julia/printed_trees.txt");
    ASSERT_TRUE(cs::test::waitFor([&] { return !trees->timeline()->emptyText().isEmpty(); }))
        << "the plot shows a bare axis for a trace without times";
    EXPECT_TRUE(trees->timeline()->emptyText().contains(QStringLiteral("Nothing to draw on a timeline")));
    auto demo = cs::test::openWindow(cs::test::sourceDir() + "/resources/demo/demo.cstrace");
    demo->timeline()->plot()->replot();
    EXPECT_TRUE(demo->timeline()->emptyText().isEmpty()) << demo->timeline()->emptyText().toStdString();
}

}  // namespace
