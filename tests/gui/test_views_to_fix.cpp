// Issue 17, "views that lead to the fix", in the real window offscreen: a Warp log opened directly
// shows its misses and hits in the Cache view; a finding's evidence opens its view; invalidation rows
// name their own module and the icicle weighs what the rows say.
#include "gui_test_util.h"
#include "open_window.h"

#include "app/gui/main_window.h"
#include "app/models/text.h"
#include "app/widgets/cache_view.h"
#include "app/widgets/filtered_table.h"
#include "app/widgets/findings_view.h"
#include "app/widgets/icicle_view.h"
#include "app/widgets/invalidations_view.h"
#include "app/widgets/modules_view.h"
#include "app/widgets/search_view.h"
#include "cli_runner.h"
#include "core/ingest/import_files.h"
#include "test_util.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>

using namespace cs::gui;
using cs::test::openWindow;

namespace {
std::string dataFile(const std::string& rel) { return std::string(COMPILESCOPE_SOURCE_DIR) + "/tests/data/" + rel; }
}  // namespace

// newton #918: map_div and map_mul each compiled at two hashes, then map_mul's first hash again
// from the kernel cache (A -> B -> A). Opened as a log, not a trace: the Cache view lists every
// (compiled) load as a miss and every (cached) load as a hit, the second hash of a module as a
// recompile that names both hashes, and the numbers are those of the Modules report and `explain`.
TEST(ViewsToFix, AWarpLogOpenedDirectlyShowsItsMissesAndHitsInCache) {
    const std::string log = dataFile("warp/real/newton_918_mpm_anymal.log");
    auto window = openWindow(log);
    ASSERT_EQ(window->documents().size(), 1u);
    const TraceDocument& doc = window->documents().at(0);
    ASSERT_TRUE(doc.analyses && doc.analyses->trace && doc.analyses->modules);
    int compiled = 0, cached = 0;
    for (const auto& m : doc.analyses->modules->modules) compiled += m.compiled, cached += m.cached;
    ASSERT_GT(compiled, 0);
    ASSERT_GT(cached, 0);

    CacheLookupModel* m = window->cache()->lookups();
    ASSERT_EQ(m->rowCount(), compiled + cached);
    int misses = 0, hits = 0, recompiles = 0;
    bool movedHashNamed = false;
    for (int r = 0; r < m->rowCount(); ++r) {
        const QString outcome = m->index(r, 0).data().toString();
        const QString runtime = m->index(r, 5).data().toString();
        if (outcome == QStringLiteral("hit")) {
            ++hits;
            EXPECT_EQ(runtime, QStringLiteral("hit"));
        } else {
            ++misses;
            EXPECT_EQ(runtime, QStringLiteral("miss")) << outcome.toStdString();
        }
        if (outcome == QStringLiteral("recompile")) {
            ++recompiles;
            const QString why = m->index(r, 2).data().toString();
            movedHashNamed |= m->index(r, 1).data().toString() == QStringLiteral("map_div") &&
                              why.contains(QStringLiteral("aa66fcd")) && why.contains(QStringLiteral("d1e0001"));
        }
        EXPECT_TRUE(m->index(r, 6).data().toString().startsWith(QStringLiteral("module load #")));
    }
    EXPECT_EQ(misses, compiled);
    EXPECT_EQ(hits, cached);
    EXPECT_GE(recompiles, 2);  // map_div and map_mul
    EXPECT_TRUE(movedHashNamed);
    // The chart counts the misses per module (Warp has no steps); the box says what was replayed.
    EXPECT_TRUE(window->cache()->verdict().contains(QStringLiteral("%1 compiled = misses, %2 cached = hits").arg(compiled).arg(cached)))
        << window->cache()->verdict().toStdString();

    // `explain` on the same log, imported: the same misses and hits.
    cs::test::TempDir dir;
    cs::ingest::importFiles({.inputs = {log}, .output = dir.file("t.cstrace"), .forcedFormat = "", .overwrite = false});
    auto e = cs::test::runCli({"explain", dir.file("t.cstrace")});
    ASSERT_EQ(e.status, 0) << e.err;
    std::smatch sm;
    ASSERT_TRUE(std::regex_search(e.out, sm, std::regex("Warp module loads .*: lookups (\\d+), misses (\\d+), hits (\\d+)"))) << e.out;
    EXPECT_EQ(std::stoi(sm[2]), misses);
    EXPECT_EQ(std::stoi(sm[3]), hits);
}

// Enzyme.jl #776 from the Julia collector's output, opened directly: the invalidation finding has no
// time range, so activating it opens its tree in the Invalidations view; its evidence rows are links
// (the tree's row opens the same node) and show their full text as a tooltip.
TEST(ViewsToFix, AJuliaFindingActivatesItsTreeNode) {
    auto window = openWindow(dataFile("julia/enzyme_collector.txt"));
    ASSERT_EQ(window->documents().size(), 1u);
    const TraceDocument& doc = window->documents().at(0);
    ASSERT_TRUE(doc.findings && doc.analyses && doc.analyses->invalidations);
    int finding = -1;
    for (std::size_t i = 0; i < doc.findings->size(); ++i)
        if ((*doc.findings)[i].kind == "julia.invalidation_tree" && finding < 0) finding = static_cast<int>(i);
    ASSERT_GE(finding, 0);
    const cs::engine::Finding& f = (*doc.findings)[static_cast<std::size_t>(finding)];
    ASSERT_FALSE(f.startNs.has_value());
    int treeRow = -1;
    for (std::size_t e = 0; e < f.evidence.size(); ++e)
        if (f.evidence[e].table == "invalidation_trees") treeRow = static_cast<int>(e);
    ASSERT_GE(treeRow, 0);
    const auto& tree = doc.analyses->invalidations->trees.at(static_cast<std::size_t>(f.evidence[static_cast<std::size_t>(treeRow)].rowId - 1));

    auto expectTreeSelected = [&] {
        EXPECT_EQ(window->tabs()->currentWidget(), window->invalidations());
        const QModelIndex current = window->invalidations()->table()->view()->currentIndex();
        ASSERT_TRUE(current.isValid());
        EXPECT_FALSE(current.parent().isValid());  // a root: the inserted method
        EXPECT_TRUE(current.data().toString().contains(qs(tree.method.substr(0, 20)))) << current.data().toString().toStdString();
    };
    window->activateFinding(finding);
    expectTreeSelected();

    // From the Findings view: the evidence row of the tree is a link, with its full text as tooltip.
    window->tabs()->setCurrentWidget(window->findings());
    window->invalidations()->table()->view()->setCurrentIndex({});
    FindingsModel* m = window->findings()->model();
    QModelIndex row;
    for (int r = 0; r < m->rowCount() && !row.isValid(); ++r)
        if (m->itemAt(m->index(r, 0))->findingIndex == finding) row = m->index(r, 0);
    ASSERT_TRUE(row.isValid());
    ASSERT_EQ(m->rowCount(row), static_cast<int>(f.evidence.size()));
    for (int e = 0; e < m->rowCount(row); ++e) {
        const QModelIndex ev = m->index(e, 0, row);
        const QString text = ev.data().toString();
        EXPECT_TRUE(ev.data(Qt::ToolTipRole).toString().startsWith(text)) << text.toStdString();
        const bool link = f.evidence[static_cast<std::size_t>(e)].table == "invalidation_trees";
        EXPECT_EQ(ev.data(ToneRole).toInt() == static_cast<int>(Tone::Link), link) << text.toStdString();
    }
    // Enter on that row, as a user would.
    QTreeView* view = window->findings()->table()->view();
    view->setCurrentIndex(window->findings()->table()->proxy()->mapFromSource(m->index(treeRow, 0, row)));
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Return);
    expectTreeSelected();
}

// Enzyme.jl #776 again, in the Invalidations view: each row names its own method's module (the
// Base method superseded is Base's, Enzyme.__init__ is Enzyme's, not the inserting Tracker's); the
// root's Invalidated and Recompile are its finding's numbers; the icicle's blocks weigh what the
// rows say, and clicking one selects its row.
TEST(ViewsToFix, InvalidationRowsNameTheirOwnModuleAndTheIcicleWeighsTheirCost) {
    auto window = openWindow(dataFile("julia/enzyme_collector.txt"));
    const TraceDocument& doc = window->documents().at(0);
    ASSERT_TRUE(doc.findings);
    const cs::engine::Finding* finding = nullptr;
    for (const auto& f : *doc.findings)
        if (f.kind == "julia.invalidation_tree" && !finding) finding = &f;
    ASSERT_TRUE(finding && finding->costNs);
    std::smatch n;
    ASSERT_TRUE(std::regex_search(finding->title, n, std::regex("invalidated (\\d+) MethodInstances")));

    window->tabs()->setCurrentWidget(window->invalidations());
    QCoreApplication::processEvents();
    InvalidationsModel* m = window->invalidations()->model();
    ASSERT_EQ(m->rowCount(), 1);
    const QModelIndex root = m->index(0, 0);
    EXPECT_EQ(m->headerData(2, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Invalidated"));
    EXPECT_EQ(m->index(0, 2).data().toLongLong(), std::stoll(n[1]));
    EXPECT_EQ(m->index(0, 3).data(SortRole).toLongLong(), *finding->costNs);
    EXPECT_EQ(m->index(0, 4).data().toString(), QStringLiteral("Tracker"));
    std::map<QString, QString> moduleOf;
    int base = 0;
    std::vector<QModelIndex> walk{root};
    while (!walk.empty()) {
        QModelIndex i = walk.back();
        walk.pop_back();
        const QString label = i.data().toString(), module = i.siblingAtColumn(4).data().toString();
        moduleOf[label] = module;
        if (label.startsWith(QStringLiteral("backedge: superseding show(io::IO, x::Type) @ Base"))) base += module == QStringLiteral("Base");
        for (int r = 0; r < m->rowCount(i); ++r) walk.push_back(m->index(r, 0, i));
    }
    EXPECT_EQ(moduleOf[QStringLiteral("MethodInstance for Enzyme.__init__()")], QStringLiteral("Enzyme"));
    EXPECT_EQ(moduleOf[QStringLiteral("MethodInstance for show(::IOBuffer, ::Type)")], QString());  // printed unqualified
    EXPECT_EQ(base, 2);  // both backedges supersede Base's show

    // The icicle: every block's weight is its row's Recompile; widths share the parent's in proportion.
    IcicleView* icicle = window->invalidations()->icicle();
    const IcicleLayout& layout = icicle->layout();
    ASSERT_TRUE(layout.byCost);
    ASSERT_GE(layout.depths, 5);  // tree, backedge, show, typetree_string, register_llvm_rules, __init__
    std::map<int, const IcicleBlock*> blockOf;
    for (const IcicleBlock& b : layout.blocks) blockOf[b.node] = &b;
    for (const IcicleBlock& b : layout.blocks) {
        const QModelIndex row = m->indexOfNode(b.node);
        EXPECT_EQ(b.weight, row.siblingAtColumn(3).data(SortRole).toLongLong()) << row.data().toString().toStdString();
        if (b.depth == 0) {
            EXPECT_NEAR((b.x1 - b.x0) * static_cast<double>(layout.total), static_cast<double>(b.weight), 1.0);
            continue;
        }
        const QModelIndex parent = row.parent();
        ASSERT_TRUE(blockOf.count(static_cast<int>(parent.internalId())));
        const IcicleBlock& p = *blockOf[static_cast<int>(parent.internalId())];
        qlonglong siblings = 0;
        for (int r = 0; r < m->rowCount(parent); ++r) siblings += m->index(r, 3, parent).data(SortRole).toLongLong();
        const double share = static_cast<double>(b.weight) / static_cast<double>(std::max(siblings, p.weight));
        EXPECT_NEAR((b.x1 - b.x0) / (p.x1 - p.x0), share, 1e-9);
        EXPECT_GE(b.x0, p.x0 - 1e-12);
        EXPECT_LE(b.x1, p.x1 + 1e-12);
    }
    // Clicking the __init__ block selects its row.
    const IcicleBlock* init = nullptr;
    for (const IcicleBlock& b : layout.blocks)
        if (m->indexOfNode(b.node).data().toString() == QStringLiteral("MethodInstance for Enzyme.__init__()")) init = &b;
    ASSERT_TRUE(init);
    QTest::mouseClick(icicle, Qt::LeftButton, {}, icicle->blockRect(*init).center().toPoint());
    EXPECT_EQ(window->invalidations()->table()->view()->currentIndex().data().toString(),
              QStringLiteral("MethodInstance for Enzyme.__init__()"));
}

// mjx-warp #58: one module cycling through seven hashes, all from the kernel cache. The repeated
// module comes first, its load sequence marks the return to an earlier hash, block_dim (which the
// log does not print) says "not in log", and each identity says why what differs is unknown.
TEST(ViewsToFix, ModulesViewShowsRepeatsFirstWithTheirLoadSequenceAndCycles) {
    auto window = openWindow(dataFile("warp/real/mjx_warp_58_support_cycle.log"));
    ModulesModel* m = window->modules()->model();
    ASSERT_GE(m->rowCount(), 1);
    EXPECT_EQ(m->index(0, 0).data().toString(), QStringLiteral("mujoco.mjx._src.support"));
    EXPECT_EQ(m->headerData(7, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Device"));
    EXPECT_EQ(m->headerData(8, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Load sequence"));
    EXPECT_EQ(m->index(0, 3).data().toString(), QStringLiteral("not in log"));
    EXPECT_EQ(m->index(0, 7).data().toString(), QStringLiteral("cuda:0"));
    const QString sequence = m->index(0, 8).data().toString();
    EXPECT_TRUE(sequence.startsWith(QStringLiteral("5e90a30 → cf9d851 → 1192ca8"))) << sequence.toStdString();
    EXPECT_TRUE(sequence.contains(QStringLiteral("5e90a30 ↺"))) << sequence.toStdString();
    EXPECT_EQ(m->index(0, 8).data(ToneRole).toInt(), static_cast<int>(Tone::Bad));
    EXPECT_TRUE(m->index(0, 8).data(Qt::ToolTipRole).toString().contains(QStringLiteral("a cycle")));
    const QModelIndex second = m->index(1, 0, m->index(0, 0));  // the second identity
    ASSERT_EQ(m->rowCount(second), 1);
    EXPECT_TRUE(m->index(0, 0, second).data().toString().startsWith(QStringLiteral("what differs: not in log")));
    EXPECT_EQ(m->index(0, 3, m->index(0, 0)).data().toString(), QStringLiteral("not in log"));
    const QString headline = window->modules()->headline();
    EXPECT_TRUE(headline.contains(QStringLiteral("0 compiled, 13 cached, 0 errors"))) << headline.toStdString();
}

// A probe report opened directly: the probe's headline figures above the modules.
TEST(ViewsToFix, ModulesViewShowsTheProbesHeadlineFigures) {
    auto window = openWindow(dataFile("warp/diagnosis/cache_not_reused_probe/report.json"));
    const QString headline = window->modules()->headline();
    EXPECT_TRUE(headline.contains(QStringLiteral("Probe</b> (3 samples): cold module %1 median").arg(durationText(1'772'270'000))))
        << headline.toStdString();
    EXPECT_TRUE(headline.contains(QStringLiteral("warm module %1").arg(durationText(1'690'500'000)))) << headline.toStdString();
    EXPECT_TRUE(headline.contains(QStringLiteral("1 compiled, 0 cached events"))) << headline.toStdString();
}

// A Warp user pastes a module hash from a log: the search finds that load; a category name finds
// every load of the category; per name, the loads of each module with their total and longest.
TEST(ViewsToFix, AHashSearchFindsItsModuleInAWarpLog) {
    auto window = openWindow(dataFile("warp/real/newton_918_mpm_anymal.log"));
    window->searchBox()->setText(QStringLiteral("d1e0001"));
    QTest::keyClick(window->searchBox(), Qt::Key_Return);
    EXPECT_EQ(window->tabs()->currentWidget(), window->search());
    SearchModel* m = window->search()->model();
    ASSERT_EQ(m->rowCount(), 1);
    EXPECT_EQ(m->rowAt(0)->name, QStringLiteral("map_div d1e0001 (compiled)"));

    // A cached load is drawn as a cache load: the category's name finds every one.
    window->searchBox()->setText(QStringLiteral("cache load"));
    QTest::keyClick(window->searchBox(), Qt::Key_Return);
    const TraceDocument& doc = window->documents().at(0);
    ASSERT_TRUE(doc.analyses && doc.analyses->modules);
    EXPECT_EQ(m->rowCount(), static_cast<int>(doc.analyses->modules->cached));
    for (int r = 0; r < m->rowCount(); ++r) EXPECT_EQ(m->index(r, 1).data().toString(), QStringLiteral("cache load"));

    window->searchBox()->setText(QStringLiteral("map_"));
    QTest::keyClick(window->searchBox(), Qt::Key_Return);
    window->search()->perName()->setChecked(true);
    SearchTotalsModel* totals = window->search()->totalsModel();
    qlonglong loads = 0;
    for (int r = 0; r < totals->rowCount(); ++r) loads += totals->index(r, 1).data().toLongLong();
    EXPECT_EQ(loads, m->rowCount());
    EXPECT_GE(totals->rowCount(), 4);  // map_div and map_mul at two hashes each, plus their cached loads
}

// Issue 37, "Show the change": a finding with a mechanical fix (an invalidation tree: the method to make
// more specific, the tree as evidence) enables the Findings view's action, which opens a dialog with
// the change's text and copies it; a finding without one leaves the action disabled.
TEST(ViewsToFix, AFixableFindingShowsItsChange) {
    auto window = openWindow(dataFile("julia/printed_trees.txt"));
    ASSERT_EQ(window->documents().size(), 1u);
    const TraceDocument& doc = window->documents().at(0);
    ASSERT_TRUE(doc.findings && doc.analyses && doc.analyses->invalidations);
    int fixable = -1;
    for (std::size_t i = 0; i < doc.findings->size(); ++i)
        if ((*doc.findings)[i].kind == "julia.invalidation_tree" && fixable < 0) fixable = static_cast<int>(i);
    ASSERT_GE(fixable, 0);
    FindingsView* view = window->findings();
    QAction* action = view->showChangeAction();
    ASSERT_NE(action, nullptr);
    EXPECT_TRUE(view->table()->view()->actions().contains(action));  // also the rows' context menu
    {
        // @time_imports rows mostly recompilation: findings whose fix needs the trees, not a change.
        auto plain = openWindow(dataFile("julia/time_imports_plots_manual.txt"));
        const TraceDocument& other = plain->documents().at(0);
        ASSERT_TRUE(other.findings && !other.findings->empty());
        for (std::size_t i = 0; i < other.findings->size(); ++i) {
            plain->findings()->showFinding(static_cast<int>(i));
            EXPECT_FALSE(plain->findings()->showChangeAction()->isEnabled()) << (*other.findings)[i].kind;
        }
    }
    view->showFinding(fixable);
    ASSERT_TRUE(action->isEnabled());
    const cs::engine::Finding& f = (*doc.findings)[static_cast<std::size_t>(fixable)];
    const auto& tree = doc.analyses->invalidations->trees.at(static_cast<std::size_t>(f.evidence.back().rowId - 1));
    action->trigger();
    auto* text = view->findChild<QPlainTextEdit*>(QStringLiteral("fixChangeText"));
    ASSERT_NE(text, nullptr);
    const std::string shown = text->toPlainText().toStdString();
    const std::string method = tree.method.substr(0, tree.method.rfind(" @ "));
    EXPECT_NE(shown.find("make `" + method + "` more specific"), std::string::npos) << shown;
    EXPECT_NE(shown.find("#   inserting " + tree.method + " invalidated:"), std::string::npos) << shown;
    auto* copy = view->findChild<QPushButton*>(QStringLiteral("fixChangeCopy"));
    ASSERT_NE(copy, nullptr);
    copy->click();
    EXPECT_EQ(QGuiApplication::clipboard()->text(), text->toPlainText());
    if (const char* shots = std::getenv("COMPILESCOPE_SCREENSHOT_DIR")) {  // to look at, not asserted
        text->window()->grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/fix_change.png"));
        window->tabs()->setCurrentWidget(view);
        window->grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/fix_findings_view.png"));
    }
}
