// Issue 39, "every view readable at first sight": the start screen, columns that fit at 1280 x 800,
// the empty-state sentences. Each test drives the real main window offscreen.
#include "gui_test_util.h"

#include "app/gui/main_window.h"
#include "app/widgets/how_to_record.h"
#include "app/widgets/column_fit.h"
#include "app/plots/bar_chart.h"
#include "app/widgets/cache_view.h"
#include "app/widgets/filtered_table.h"
#include "app/widgets/invalidations_view.h"
#include "app/widgets/modules_view.h"
#include "app/widgets/start_screen.h"
#include "test_util.h"

#include <QApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QStyle>
#include <QLabel>
#include <QTest>
#include <QTextBrowser>
#include <QToolTip>
#include <QHelpEvent>
#include <QTreeView>

#include <functional>

using namespace cs::gui;

namespace {
const QString kDemo = QStringLiteral(COMPILESCOPE_SOURCE_DIR "/resources/demo/demo.cstrace");

std::unique_ptr<MainWindow> bareWindow() {
    auto w = std::make_unique<MainWindow>();
    w->resize(1280, 800);
    w->show();
    return w;
}
}  // namespace

// Started without a trace, the window shows Open, Recent, Open the demo, Attach and how to record
// each runtime; "Open the demo" opens the bundled trace and the tabs take the start screen's place.
TEST(StartScreen, OffersEachFirstStepAndOpensTheDemo) {
    QSettings().setValue(QStringLiteral("recentFiles"), QStringList{QStringLiteral("/tmp/some/earlier.cstrace")});
    auto w = bareWindow();
    StartScreen* s = w->startScreen();
    ASSERT_NE(s, nullptr);
    EXPECT_TRUE(w->showsStartScreen());
    EXPECT_TRUE(s->isVisible());
    EXPECT_TRUE(s->openButton()->isVisible());
    EXPECT_TRUE(s->attachButton()->isVisible());
    EXPECT_EQ(s->openButton()->text(), QStringLiteral("Open a trace or log…"));
    EXPECT_EQ(s->attachButton()->text(), QStringLiteral("Attach to a live recording…"));
    ASSERT_EQ(s->recentList()->count(), 1);
    EXPECT_EQ(s->recentList()->item(0)->text(), QStringLiteral("/tmp/some/earlier.cstrace"));
    EXPECT_EQ(s->recordText(), recordLines());
    EXPECT_TRUE(s->recordText().join(QLatin1Char('\n')).contains(QStringLiteral("Warp: compilescope record --warp")));
    EXPECT_EQ(s->recordText().size(), 6);  // Warp, PyTorch, JAX, Numba, CUDA, Julia

    // The build tree holds the demo where an install does (share/compilescope/demo, app/CMakeLists.txt).
    ASSERT_TRUE(s->demoButton()->isEnabled()) << "no demo found beside " << QCoreApplication::applicationDirPath().toStdString();
    EXPECT_EQ(QFileInfo(StartScreen::demoPath()).canonicalFilePath(), QFileInfo(kDemo).canonicalFilePath());
    QTest::mouseClick(s->demoButton(), Qt::LeftButton);
    ASSERT_TRUE(cs::test::waitFor([&] { return !w->isLoading(); }));
    ASSERT_EQ(w->documents().size(), 1u);
    EXPECT_EQ(QFileInfo(w->documents()[0].path).canonicalFilePath(), QFileInfo(kDemo).canonicalFilePath());
    EXPECT_FALSE(w->showsStartScreen());
    EXPECT_TRUE(w->tabs()->isVisible());
    // The demo joined the recent traces, on the menu and on the start screen.
    EXPECT_EQ(QFileInfo(s->recentList()->item(0)->text()).canonicalFilePath(), QFileInfo(kDemo).canonicalFilePath());
}

// A recent trace opens from the start screen; the list says so when there is none.
TEST(StartScreen, RecentTraceOpensAndNoneSaysSo) {
    QSettings().remove(QStringLiteral("recentFiles"));
    auto w = bareWindow();
    StartScreen* s = w->startScreen();
    ASSERT_EQ(s->recentList()->count(), 1);
    EXPECT_FALSE(s->recentList()->item(0)->flags() & Qt::ItemIsEnabled);
    EXPECT_TRUE(s->recentList()->item(0)->text().contains(QStringLiteral("No trace opened yet")));
    s->setRecent({kDemo});
    emit s->recentList()->itemActivated(s->recentList()->item(0));
    ASSERT_TRUE(cs::test::waitFor([&] { return !w->isLoading(); }));
    ASSERT_EQ(w->documents().size(), 1u);
    EXPECT_FALSE(w->showsStartScreen());
}

namespace {
// A cell that holds a figure (a count, a duration, a share: column_fit.h), or a load sequence's ↺.
bool isFigure(const QString& text) { return isFigureText(text) || text.contains(QChar(0x21BA)); }

// Every header and figure cell of `table` that does not fit its column: "view/column 'header': text (needs N, has M)".
QStringList clippedCells(const QString& viewName, FilteredTable* table) {
    QStringList out;
    QTreeView* v = table->view();
    QHeaderView* h = v->header();
    QAbstractItemModel* m = v->model();
    const int margin = v->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, v) + 1;
    const int headerMargin = v->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
    for (int c = 0; c < m->columnCount(); ++c) {
        if (h->isSectionHidden(c)) continue;
        const QString title = m->headerData(c, Qt::Horizontal).toString();
        const int need = h->fontMetrics().horizontalAdvance(title) + 2 * headerMargin;
        if (need > h->sectionSize(c))
            out << QStringLiteral("%1/%2 header: needs %3, has %4").arg(viewName, title).arg(need).arg(h->sectionSize(c));
        // Where the column ends beyond the view, the user does not see it at all.
        if (h->sectionViewportPosition(c) + h->sectionSize(c) > v->viewport()->width() + 1 && c + 1 < m->columnCount())
            out << QStringLiteral("%1/%2: off-screen (ends at %3 of %4)").arg(viewName, title)
                       .arg(h->sectionViewportPosition(c) + h->sectionSize(c)).arg(v->viewport()->width());
        for (int r = 0; r < std::min(m->rowCount(), 300); ++r) {
            const QModelIndex i = m->index(r, c);
            const QString text = i.data().toString();
            if (!isFigure(text)) continue;
            const QVariant f = i.data(Qt::FontRole);
            const QFontMetrics fm(f.isValid() ? f.value<QFont>() : v->font());
            int needCell = fm.horizontalAdvance(text) + 2 * margin;
            if (c == 0) needCell += v->rootIsDecorated() ? v->indentation() : 0;
            if (needCell > h->sectionSize(c))
                out << QStringLiteral("%1/%2 row %3: \"%4\" needs %5, has %6").arg(viewName, title).arg(r).arg(text).arg(needCell).arg(h->sectionSize(c));
        }
    }
    return out;
}
}  // namespace

// On the demo at 1280 x 800 no header or figure of the Overview, Cache, Modules, Invalidations and
// Search tables is cut, and no column of theirs sits off-screen.
TEST(ReadableTables, NoHeaderOrFigureIsClippedAt1280x800) {
    auto w = bareWindow();
    w->openTraces({kDemo});
    ASSERT_TRUE(cs::test::waitFor([&] { return !w->isLoading(); }));
    w->searchBox()->setText(QStringLiteral("compile"));
    QTest::keyClick(w->searchBox(), Qt::Key_Return);
    QStringList clipped;
    for (const QString& name : {QStringLiteral("Overview"), QStringLiteral("Cache"), QStringLiteral("Modules"),
                               QStringLiteral("Invalidations"), QStringLiteral("Search")}) {
        QWidget* view = w->view(name);
        ASSERT_NE(view, nullptr) << name.toStdString();
        w->tabs()->setCurrentWidget(view);
        QApplication::processEvents();
        const QList<FilteredTable*> tables = view->findChildren<FilteredTable*>();
        EXPECT_FALSE(tables.isEmpty()) << name.toStdString();
        for (FilteredTable* t : tables)
            if (t->view()->isVisible()) clipped << clippedCells(name, t);  // an empty one shows its sentence
    }
    EXPECT_TRUE(clipped.isEmpty()) << clipped.join(QLatin1Char('\n')).toStdString();

    // A name that gives way is elided in the middle, and its tooltip is whole.
    FilteredTable* search = w->view(QStringLiteral("Search"))->findChildren<FilteredTable*>().front();
    w->tabs()->setCurrentWidget(w->view(QStringLiteral("Search")));
    QTreeView* v = search->view();
    EXPECT_EQ(v->textElideMode(), Qt::ElideMiddle);
    QModelIndex cut;
    for (int r = 0; r < v->model()->rowCount() && !cut.isValid(); ++r) {
        const QModelIndex i = v->model()->index(r, 0);
        if (v->fontMetrics().horizontalAdvance(i.data().toString()) > v->columnWidth(0)) cut = i;
    }
    ASSERT_TRUE(cut.isValid()) << "the demo's Warp banner is longer than the Name column";
    v->scrollTo(cut);
    const QPoint at = v->visualRect(cut).center();
    QHelpEvent help(QEvent::ToolTip, at, v->viewport()->mapToGlobal(at));
    QApplication::sendEvent(v->viewport(), &help);
    EXPECT_EQ(QToolTip::text(), cut.data().toString());
}

// What counts as a figure: these never give way to a name.
TEST(ReadableTables, FiguresAreToldFromNames) {
    for (const char* figure : {"2047 s", "96.9%", "313 ms", "1389", "0.000374", "n/a", "520 µs", "3 / 5"})
        EXPECT_TRUE(isFigureText(QString::fromUtf8(figure))) << figure;
    for (const char* name : {"2 `# recompile` statements: 18345.7 ms", "__main__.saxpy", "6eb476a → 17e6601", "lookup #2", "cuda:0"})
        EXPECT_FALSE(isFigureText(QString::fromUtf8(name))) << name;
}

// An empty table or chart says what the trace lacks and the record command of the runtime in
// question, instead of empty rows and bare axes (a SnoopCompile tree: no lookups, no Warp modules; a
// Warp log: no invalidations).
TEST(EmptyStates, SayWhatTheTraceLacksAndHowToRecordIt) {
    auto trees = bareWindow();
    trees->openTraces({QStringLiteral(COMPILESCOPE_SOURCE_DIR "/tests/data/julia/printed_trees.txt")});
    ASSERT_TRUE(cs::test::waitFor([&] { return !trees->isLoading(); }));
    auto tableOf = [](QWidget* view, int k = 0) { return view->findChildren<FilteredTable*>().at(k); };
    const QString noLookups = QStringLiteral("This trace records no cache lookup. To record them, run: compilescope record");
    EXPECT_TRUE(trees->cache()->chart()->shownEmptyText().startsWith(noLookups)) << trees->cache()->chart()->shownEmptyText().toStdString();
    bool lookupTableSays = false;
    for (FilteredTable* t : trees->cache()->findChildren<FilteredTable*>()) lookupTableSays |= t->shownEmptyText().startsWith(noLookups);
    EXPECT_TRUE(lookupTableSays);
    bool modulesSay = false;
    for (FilteredTable* t : trees->modules()->findChildren<FilteredTable*>())
        modulesSay |= t->shownEmptyText() == QStringLiteral("This trace records no Warp module load. To record them, run: ") +
                                                 recordCommand(QStringLiteral("Warp"));
    EXPECT_TRUE(modulesSay);
    EXPECT_FALSE(tableOf(trees->invalidations())->view()->isHidden());  // the trees are there: no sentence
    EXPECT_EQ(tableOf(trees->invalidations())->shownEmptyText(), QString());

    auto warp = bareWindow();
    warp->openTraces({QStringLiteral(COMPILESCOPE_SOURCE_DIR "/resources/demo/warp-verbose.log")});
    ASSERT_TRUE(cs::test::waitFor([&] { return !warp->isLoading(); }));
    FilteredTable* inv = tableOf(warp->invalidations());
    EXPECT_TRUE(inv->view()->isHidden());
    EXPECT_TRUE(inv->shownEmptyText().startsWith(QStringLiteral("This trace records no Julia invalidation. To record them, run: ") +
                                                 recordCommand(QStringLiteral("Julia"))))
        << inv->shownEmptyText().toStdString();
    EXPECT_EQ(warp->cache()->chart()->shownEmptyText(), QString()) << "the Warp loads' misses are charted";
}

namespace {
// Every text a user reads in the window: labels, rich-text panes and each table's cells and headers.
QString everyText(QWidget* root) {
    QStringList out;
    for (const QLabel* l : root->findChildren<QLabel*>()) out << l->text();
    for (const QTextBrowser* b : root->findChildren<QTextBrowser*>()) out << b->toPlainText();
    for (FilteredTable* t : root->findChildren<FilteredTable*>()) {
        const QAbstractItemModel* m = t->view()->model();
        for (int c = 0; c < m->columnCount(); ++c) out << m->headerData(c, Qt::Horizontal).toString();
        std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
            for (int r = 0; r < std::min(m->rowCount(parent), 500); ++r)
                for (int c = 0; c < m->columnCount(parent); ++c) {
                    const QModelIndex i = m->index(r, c, parent);
                    out << i.data().toString() << i.data(Qt::ToolTipRole).toString();
                    if (c == 0) walk(i);
                }
        };
        walk({});
    }
    return out.join(QLatin1Char('\n'));
}
}  // namespace

// Issue 39, "Words": no internal name reaches a user of another runtime: ReactantNitro's
// cache_stats() and "Nitro" (issue 35: each runtime's own words), a span id ("compile span 1400"),
// an unknown step ("at step ?").
TEST(Words, NoInternalNamesForWarpPyTorchOrJuliaTraces) {
    for (const char* input : {"/resources/demo/warp-verbose.log", "/tests/data/torch/recompiles_ids_issue148179.log",
                              "/tests/data/julia/printed_trees.txt", "/tests/data/torch/cache_hit_miss_excerpt.log",
                              "/tests/data/torch/recompiles_entry_less_issue128134.log",
                              "/tests/data/jax/explain_cache_misses_pr27980.log"}) {
        auto w = bareWindow();
        w->openTraces({QStringLiteral(COMPILESCOPE_SOURCE_DIR) + QString::fromLatin1(input)});
        ASSERT_TRUE(cs::test::waitFor([&] { return !w->isLoading(); })) << input;
        ASSERT_EQ(w->documents().size(), 1u);
        ASSERT_TRUE(w->documents()[0].analyses) << input;
        const QString text = everyText(w.get());
        for (const char* internal : {"cache_stats()", "Nitro", "compile span ", "at step ?"})
            EXPECT_FALSE(text.contains(QString::fromLatin1(internal))) << input << " shows " << internal;
        EXPECT_TRUE(text.contains(QStringLiteral("compile"))) << input << ": the walk read the views";
    }
}
