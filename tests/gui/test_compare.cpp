// File > Compare with baseline…: the baseline opens dimmed beside the trace (never compared as a
// rank), and the Diff view lists exactly what `compilescope diff` computes for the two files, in its
// order, with the same headline.
#include "open_window.h"

#include "app/models/diff_model.h"
#include "app/plots/timeline_plot.h"
#include "app/widgets/diff_view.h"
#include "app/widgets/ranks_view.h"
#include "app/widgets/timeline_view.h"
#include "report/report_fixture.h"
#include "test_util.h"

#include "core/measure/trace_diff.h"

#include <QTabWidget>

#include <gtest/gtest.h>

namespace {

using namespace cs;

TEST(CompareWithBaseline, DiffViewListsWhatDiffComputesAndTheBaselineIsDimmed) {
    test::TempDir dir;
    // The same run twice, the second with every time doubled: every compile is slower.
    const std::string base = dir.file("base.cstrace"), head = dir.file("head.cstrace");
    test::writeReportFixture(base);
    test::writeReportFixture(head, nullptr, 2);
    auto window = test::openWindow(head);
    window->compareWithBaseline(QString::fromStdString(base));
    ASSERT_TRUE(test::waitFor([&] { return window->diffView()->diff() != nullptr; }, 60000)) << window->diffView()->headline().toStdString();

    // What the CLI's diff says of the same two files.
    const auto [b, h] = measure::analyseSides({base}, {head});
    const measure::TraceDiff expected = measure::diffRuns(b, h);
    ASSERT_FALSE(expected.changes.empty());
    const gui::DiffModel* model = window->diffView()->model();
    ASSERT_EQ(model->rowCount(), static_cast<int>(expected.changes.size()));
    int slower = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        EXPECT_EQ(model->index(r, 1).data().toString().toStdString(), expected.changes[static_cast<size_t>(r)].subject) << r;
        EXPECT_EQ(model->index(r, 4).data().toString().toStdString(), expected.changes[static_cast<size_t>(r)].detail) << r;
        slower += expected.changes[static_cast<size_t>(r)].kind == measure::ChangeKind::Slower;
    }
    EXPECT_GT(slower, 0) << "doubled times must read as slower";
    EXPECT_TRUE(window->diffView()->headline().contains(gui::diffHeadline(expected))) << window->diffView()->headline().toStdString();
    EXPECT_TRUE(window->diffView()->headline().contains(QStringLiteral("base.cstrace (baseline)")));

    // The Diff tab is shown and current; the tables keep showing the trace compared.
    QTabWidget* tabs = window->tabs();
    EXPECT_TRUE(tabs->isTabVisible(tabs->indexOf(window->diffView())));
    EXPECT_EQ(tabs->currentWidget(), window->diffView());
    ASSERT_EQ(window->documents().size(), 2u);
    EXPECT_FALSE(window->documents()[static_cast<size_t>(window->currentDocument())].baseline);

    // Both on the timeline, each aligned at its own start; only the baseline dimmed and labelled.
    ASSERT_TRUE(test::waitFor([&] { return window->timeline()->plot()->sources().size() == 2; }));
    for (const auto& s : window->timeline()->plot()->sources()) {
        const bool isBase = s.label == QStringLiteral("base.cstrace");
        EXPECT_EQ(s.dimmed, isBase) << s.label.toStdString();
        EXPECT_EQ(s.note == QStringLiteral("baseline (dimmed)"), isBase) << s.note.toStdString();
    }
    // A baseline is compared by the Diff view, not as a rank of one job.
    EXPECT_FALSE(tabs->isTabVisible(tabs->indexOf(window->ranks())));
}

TEST(CompareWithBaseline, AnUnreadableBaselineSaysWhy) {
    test::TempDir dir;
    const std::string head = dir.file("head.cstrace"), bad = dir.file("bad.cstrace");
    test::writeReportFixture(head);
    test::writeFile(bad, "not a trace");
    auto window = test::openWindow(head);
    window->compareWithBaseline(QString::fromStdString(bad));
    ASSERT_TRUE(test::waitFor([&] { return !window->isLoading(); }, 30000));
    // The baseline's load fails: the Diff view names it and says why, instead of waiting for it.
    EXPECT_TRUE(test::waitFor([&] {
        return window->diffView()->headline().startsWith(QStringLiteral("The comparison failed: bad.cstrace could not be read: "));
    })) << window->diffView()->headline().toStdString();
    EXPECT_EQ(window->diffView()->diff(), nullptr);
}

}  // namespace
