// Issue 23's Build view, in the real window offscreen and model by model: a build imported from its
// clang time traces and .ninja_log opens a "Build" tab whose figures are the core report's (the one
// the CLI's `build-report --json` prints); a trace without a build has no such tab; each row leads
// to its span on the timeline; every cell's full text is in its tooltip.
#include "gui_test_util.h"
#include "open_window.h"

#include "app/gui/main_window.h"
#include "app/models/build_models.h"
#include "app/models/text.h"
#include "app/plots/timeline_plot.h"
#include "app/widgets/build_view.h"
#include "app/widgets/filtered_table.h"
#include "app/widgets/timeline_view.h"
#include "cli_runner.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/ingest/import_files.h"
#include "core/util/json_reader.h"
#include "demo_trace_builder.h"
#include "test_util.h"

#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTreeView>

#include <array>
#include <filesystem>
#include <map>

using namespace cs::gui;
using cs::test::openWindow;

namespace {
constexpr long long kBuildStartUs = 1796165801000000;  // the build's start, µs since the epoch

// One clang -ftime-trace file as clang 14-18 write it: complete events relative to beginningOfTime
// (written last), the source's headers and instantiations with args.detail, Frontend then Backend
// inside ExecuteCompiler, and one "Total" event per name on threads of their own.
std::string clangTrace(long long beginUs, long long frontendUs, long long backendUs, const std::string& header) {
    auto ev = [](const char* name, long long ts, long long dur, const std::string& detail = {}) {
        std::string e = "{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"ts\":" + std::to_string(ts) + ",\"dur\":" + std::to_string(dur) +
                        ",\"name\":\"" + name + "\"";
        if (!detail.empty()) e += ",\"args\":{\"detail\":\"" + detail + "\"}";
        return e + "},\n";
    };
    std::string s = "{\"traceEvents\":[\n";
    s += ev("Source", 20, frontendUs / 2, header);
    s += ev("Source", 30, frontendUs / 4, "/usr/include/c++/12/vector");
    s += ev("InstantiateClass", 40 + frontendUs / 2, frontendUs / 4, "Table<double>");
    s += ev("Frontend", 10, frontendUs);
    s += ev("OptFunction", 20 + frontendUs, backendUs / 2, "_Z4mainv");
    s += ev("Backend", 10 + frontendUs, backendUs);
    s += ev("ExecuteCompiler", 0, 20 + frontendUs + backendUs);
    s += "{\"pid\":1,\"tid\":2,\"ph\":\"X\",\"ts\":0,\"dur\":" + std::to_string(frontendUs) +
         ",\"name\":\"Total Frontend\",\"args\":{\"count\":1,\"avg ms\":" + std::to_string(frontendUs / 1000) + "}},\n";
    s += "{\"cat\":\"\",\"pid\":1,\"tid\":0,\"ts\":0,\"ph\":\"M\",\"name\":\"process_name\",\"args\":{\"name\":\"clang-14\"}}\n";
    s += "],\"beginningOfTime\":" + std::to_string(beginUs) + "}\n";
    return s;
}

// Three files and a link at -j2, as ninja writes its log (in the order the commands ended; mtimes in
// ns since the epoch, each output written just before its command ended).
struct BuildFixture {
    cs::test::TempDir dir;
    std::string trace;
    BuildFixture() {
        std::filesystem::create_directories(dir.path() / "obj");
        struct Cmd {
            const char* name;
            long long startMs, endMs, frontendUs, backendUs;
        };
        const Cmd cmds[] = {{"alpha", 0, 300, 200000, 80000}, {"beta", 2, 700, 500000, 150000}, {"gamma", 300, 650, 250000, 60000}};
        std::string log = "# ninja log v5\n";
        std::vector<std::string> inputs;
        for (const Cmd& c : cmds) {
            cs::test::writeFile(dir.file(std::string("obj/") + c.name + ".json"),
                                clangTrace(kBuildStartUs + c.startMs * 1000 + 3000, c.frontendUs, c.backendUs, "src/shared.h"));
            inputs.push_back(dir.file(std::string("obj/") + c.name + ".json"));
        }
        auto line = [&](const Cmd& c, const char* out, const char* hash) {
            log += std::to_string(c.startMs) + "\t" + std::to_string(c.endMs) + "\t" +
                   std::to_string((kBuildStartUs + c.endMs * 1000) * 1000 - 1000) + "\t" + out + "\t" + hash + "\n";
        };
        line(cmds[0], "obj/alpha.o", "1f2e3d4c5b6a7988");
        line(cmds[2], "obj/gamma.o", "3d4c5b6a79881f2e");
        line(cmds[1], "obj/beta.o", "2e3d4c5b6a79881f");
        line({"app", 700, 760, 0, 0}, "app", "4c5b6a79881f2e3d");
        cs::test::writeFile(dir.file(".ninja_log"), log);
        inputs.push_back(dir.file(".ninja_log"));
        cs::ingest::ImportRequest req;
        req.inputs = inputs;
        req.output = trace = dir.file("build.cstrace");
        cs::ingest::importFiles(req);
    }
};


bool buildTabVisible(const MainWindow& w) { return w.tabs()->isTabVisible(w.tabs()->indexOf(w.build())); }

// The elided-cell rule: every non-empty cell's tooltip holds its full text.
void expectFullTextInTooltips(const QAbstractItemModel* m) {
    for (int r = 0; r < m->rowCount(); ++r)
        for (int c = 0; c < m->columnCount(); ++c) {
            const QString text = m->index(r, c).data().toString();
            if (text.isEmpty()) continue;
            EXPECT_TRUE(m->index(r, c).data(Qt::ToolTipRole).toString().contains(text))
                << "row " << r << " column " << c << ": " << text.toStdString();
        }
}
}  // namespace

TEST(GuiModels, BuildModelsOverARealReport) {
    BuildFixture b;
    auto analysis = cs::engine::analyseTraceFile(b.trace);
    ASSERT_TRUE(analysis->build);
    const BuildReportPtr report = analysis->build;
    std::unique_ptr<BuildFilesModel> files(makeBuildFilesModel(nullptr));
    cs::test::checkThroughProxy(files.get(), [&] { files->setRows(buildFileRows(report)); });
    ASSERT_EQ(files->rowCount(), 3);
    EXPECT_EQ(files->index(0, 4).data(SortRole).toLongLong(), report->files[0].totalNs);
    expectFullTextInTooltips(files.get());
    std::unique_ptr<BuildCostModel> headers(makeBuildCostModel(QStringLiteral("Header"), nullptr));
    cs::test::checkThroughProxy(headers.get(), [&] { headers->setRows(buildCostRows(report, report->headers)); });
    ASSERT_EQ(headers->rowCount(), static_cast<int>(report->headers.size()));
    EXPECT_EQ(headers->index(0, 0).data().toString(), QStringLiteral("src/shared.h"));
    expectFullTextInTooltips(headers.get());
    std::unique_ptr<BuildPathModel> path(makeBuildPathModel(nullptr));
    cs::test::checkThroughProxy(path.get(), [&] { path->setRows(buildPathRows(*report)); });
    ASSERT_EQ(path->rowCount(), static_cast<int>(report->schedule.criticalPath.size()));
    expectFullTextInTooltips(path.get());
    // An empty snapshot is a model too.
    cs::test::checkThroughProxy(files.get(), [&] { files->setRows(buildFileRows(nullptr)); });
    EXPECT_EQ(files->rowCount(), 0);
}

TEST(BuildView, ABuildTraceHasABuildTabWithTheCoreReportsFigures) {
    BuildFixture b;
    auto window = openWindow(b.trace);
    ASSERT_EQ(window->documents().size(), 1u);
    ASSERT_TRUE(buildTabVisible(*window)) << "a build trace shows the Build tab";
    BuildView* view = window->build();
    ASSERT_TRUE(view->hasBuild());

    // The CLI's report of the same trace, from its own analysis: the GUI shows the same numbers.
    auto cli = cs::test::runCli({"build-report", b.trace, "--json", "--top", "100"});
    ASSERT_EQ(cli.status, 0) << cli.err;
    cs::util::JsonValue doc = cs::util::parseJson(cli.out);
    std::map<QString, std::array<std::int64_t, 3>> expected;  // label -> frontend, backend, total
    for (const auto& f : doc.get("files")->items)
        expected[qs(f.get("label")->str)] = {static_cast<std::int64_t>(f.get("frontend_ns")->num),
                                             static_cast<std::int64_t>(f.get("backend_ns")->num),
                                             static_cast<std::int64_t>(f.get("total_ns")->num)};
    ASSERT_EQ(expected.size(), 3u);
    BuildFilesModel* files = view->files();
    ASSERT_EQ(files->rowCount(), 3);
    for (int r = 0; r < files->rowCount(); ++r) {
        const QString label = files->index(r, 0).data().toString();
        ASSERT_TRUE(expected.count(label)) << label.toStdString();
        const auto& x = expected[label];
        EXPECT_EQ(files->index(r, 2).data(SortRole).toLongLong(), x[0]) << label.toStdString() << " frontend";
        EXPECT_EQ(files->index(r, 3).data(SortRole).toLongLong(), x[1]) << label.toStdString() << " backend";
        EXPECT_EQ(files->index(r, 4).data(SortRole).toLongLong(), x[2]) << label.toStdString() << " total";
        EXPECT_EQ(files->index(r, 4).data().toString(), durationText(x[2]));
    }
    // The headline: totals, parallelism and the critical path, as the CLI's JSON has them.
    const auto* sched = doc.get("schedule");
    const QString headline = view->headline();
    EXPECT_TRUE(headline.contains(durationText(static_cast<std::int64_t>(doc.get("total_ns")->num)))) << headline.toStdString();
    EXPECT_TRUE(headline.contains(durationText(static_cast<std::int64_t>(sched->get("critical_path_ns")->num)))) << headline.toStdString();
    EXPECT_TRUE(headline.contains(QStringLiteral("peak %1").arg(static_cast<int>(sched->get("peak_concurrency")->num))))
        << headline.toStdString();
    ASSERT_EQ(view->criticalPath()->rowCount(), static_cast<int>(sched->get("critical_path")->items.size()));
    EXPECT_EQ(view->criticalPath()->index(view->criticalPath()->rowCount() - 1, 1).data().toString(), QStringLiteral("app"));
    // Every cost tab (headers, templates, template sets, functions optimised and generated) lists the
    // CLI's rows, in its order, with its times.
    const std::array<const char*, BuildView::CostTableCount> keys{"headers", "templates", "template_sets", "optimised_functions",
                                                                  "generated_functions"};
    ASSERT_EQ(view->costTabs()->count(), static_cast<int>(BuildView::CostTableCount));
    for (int k = 0; k < BuildView::CostTableCount; ++k) {
        const auto which = static_cast<BuildView::CostTable>(k);
        const auto& rows = doc.get(keys[static_cast<size_t>(k)])->items;
        BuildCostModel* model = view->costs(which);
        ASSERT_EQ(model->rowCount(), static_cast<int>(rows.size())) << keys[static_cast<size_t>(k)];
        for (int r = 0; r < model->rowCount(); ++r) {
            EXPECT_EQ(model->index(r, 0).data().toString(), qs(rows[static_cast<size_t>(r)].get("name")->str)) << keys[static_cast<size_t>(k)];
            EXPECT_EQ(model->index(r, 1).data(SortRole).toLongLong(), static_cast<std::int64_t>(rows[static_cast<size_t>(r)].get("ns")->num));
        }
        expectFullTextInTooltips(model);
    }
    EXPECT_GT(view->headers()->rowCount(), 0);
    EXPECT_GT(view->templates()->rowCount(), 0);
    ASSERT_GT(view->costs(BuildView::TemplateSets)->rowCount(), 0);
    EXPECT_EQ(view->costs(BuildView::TemplateSets)->index(0, 0).data().toString(), QStringLiteral("Table<$>"));
    EXPECT_GT(view->costs(BuildView::OptimisedFunctions)->rowCount(), 0);
    expectFullTextInTooltips(view->files());
    expectFullTextInTooltips(view->criticalPath());

    // Sortable: by total, ascending, the shortest file comes first.
    QTreeView* tv = view->filesTable()->view();
    tv->sortByColumn(4, Qt::AscendingOrder);
    std::int64_t shortest = INT64_MAX;
    for (const auto& [label, x] : expected) shortest = std::min(shortest, x[2]);
    EXPECT_EQ(tv->model()->index(0, 4).data(SortRole).toLongLong(), shortest);

    // A critical-path row (the link) and a file row lead to their spans on the timeline.
    window->tabs()->setCurrentWidget(view);
    QTreeView* pv = view->pathTable()->view();
    const QModelIndex last = pv->model()->index(pv->model()->rowCount() - 1, 1);
    emit pv->activated(last);
    EXPECT_EQ(window->tabs()->currentWidget(), window->timeline());
    const TimelineSelection& sel = window->timeline()->plot()->selection();
    ASSERT_TRUE(sel.valid());
    EXPECT_EQ(sel.item.rowId, static_cast<std::int64_t>(sched->get("critical_path")->items.back().get("span_id")->num));
    // A template set leads to its most expensive instantiation.
    window->tabs()->setCurrentWidget(view);
    QTreeView* sv = view->costTable(BuildView::TemplateSets)->view();
    emit sv->activated(sv->model()->index(0, 0));
    EXPECT_EQ(window->tabs()->currentWidget(), window->timeline());
    EXPECT_EQ(window->timeline()->plot()->selection().item.rowId, view->costs(BuildView::TemplateSets)->rowAt(0)->worstSpanId);
    window->tabs()->setCurrentWidget(view);
    emit tv->activated(tv->model()->index(0, 0));
    EXPECT_EQ(window->tabs()->currentWidget(), window->timeline());
    EXPECT_EQ(window->timeline()->plot()->selection().item.rowId, view->files()->rowAt(view->filesTable()->proxy()->mapToSource(tv->model()->index(0, 0)).row())->spanId);
}

TEST(BuildView, ATraceWithoutABuildHasNoBuildTab) {
    cs::test::TempDir dir;
    cs::test::demo::writeDemoTrace(dir.file("demo.cstrace"));
    auto window = openWindow(dir.file("demo.cstrace"));
    ASSERT_EQ(window->documents().size(), 1u);
    EXPECT_FALSE(buildTabVisible(*window));
    EXPECT_FALSE(window->build()->hasBuild());
    // Opening a build beside it and choosing it shows the tab; choosing the demo again hides it.
    BuildFixture b;
    window->openTraces({QString::fromStdString(b.trace)});
    ASSERT_TRUE(cs::test::waitFor([&] { return !window->isLoading(); }));
    window->setCurrentDocument(1);
    EXPECT_TRUE(buildTabVisible(*window));
    window->setCurrentDocument(0);
    EXPECT_FALSE(buildTabVisible(*window));
}
