// Issue 17, "views that lead to the fix", in the real window offscreen: a Warp log opened directly
// shows its misses and hits in the Cache view; a finding's evidence opens its view; invalidation rows
// name their own module and the icicle weighs what the rows say.
#include "gui_test_util.h"

#include "app/gui/main_window.h"
#include "app/models/text.h"
#include "app/widgets/cache_view.h"
#include "app/widgets/filtered_table.h"
#include "app/widgets/findings_view.h"
#include "app/widgets/invalidations_view.h"
#include "app/widgets/modules_view.h"
#include "app/widgets/search_view.h"
#include "cli_runner.h"
#include "core/ingest/import_files.h"
#include "test_util.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

#include <algorithm>
#include <map>
#include <regex>

using namespace cs::gui;

namespace {
std::string dataFile(const std::string& rel) { return std::string(COMPILESCOPE_SOURCE_DIR) + "/tests/data/" + rel; }

std::unique_ptr<MainWindow> openWindow(const std::string& path) {
    auto window = std::make_unique<MainWindow>();
    window->resize(1280, 800);
    window->show();
    window->openTraces({QString::fromStdString(path)});
    EXPECT_TRUE(cs::test::waitFor([&] { return !window->isLoading(); })) << "loading did not finish";
    return window;
}
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
