// MainWindow's start page (issue 39): until a trace opens, the window shows the StartScreen
// (app/widgets/start_screen.h) in place of the tabs; its buttons are the File menu's Open, Open recent
// and Attach, plus the bundled demo.
#include "main_window.h"

#include "app/widgets/start_screen.h"

#include <QSettings>
#include <QStackedWidget>
#include <QTabWidget>

namespace cs::gui {

void MainWindow::setUpStartScreen() {
    m_start = new StartScreen;
    m_pages = new QStackedWidget;
    m_pages->addWidget(m_start);
    m_pages->addWidget(takeCentralWidget());  // the tabs
    setCentralWidget(m_pages);
    m_start->setRecent(QSettings().value(QStringLiteral("recentFiles")).toStringList());
    connect(m_start, &StartScreen::openRequested, this, &MainWindow::openDialog);
    connect(m_start, &StartScreen::attachRequested, this, &MainWindow::attachDialog);
    connect(m_start, &StartScreen::pathsRequested, this, &MainWindow::openTraces);
}

bool MainWindow::showsStartScreen() const { return m_pages && m_pages->currentWidget() == m_start; }

void MainWindow::showTabs() {
    if (m_pages) m_pages->setCurrentWidget(m_tabs);
}

}  // namespace cs::gui
