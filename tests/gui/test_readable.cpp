// Issue 39, "every view readable at first sight": the start screen, columns that fit at 1280 x 800,
// the empty-state sentences. Each test drives the real main window offscreen.
#include "gui_test_util.h"

#include "app/gui/main_window.h"
#include "app/widgets/how_to_record.h"
#include "app/widgets/start_screen.h"
#include "test_util.h"

#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTest>

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
