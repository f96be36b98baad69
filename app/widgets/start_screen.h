// The window's first page, shown until a trace opens (issue 39, "Start screen").
//
// Why: started without a trace the window was an empty row of tabs; a new user did not know where a
// trace comes from. This page offers what there is to do first: open a trace, reopen a recent one,
// open the bundled demo, attach to a recording in progress, and how to record each runtime (the lines
// of how_to_record.h). It only asks; MainWindow opens (main_window_start.cpp).
#pragma once

#include <QWidget>

class QListWidget;
class QPushButton;

namespace cs::gui {

class StartScreen : public QWidget {
    Q_OBJECT
public:
    explicit StartScreen(QWidget* parent = nullptr);
    // The recent traces, newest first (QSettings "recentFiles", kept by MainWindow).
    void setRecent(const QStringList& paths);
    QPushButton* openButton() const { return m_open; }
    QPushButton* demoButton() const { return m_demo; }
    QPushButton* attachButton() const { return m_attach; }
    QListWidget* recentList() const { return m_recent; }
    // The "how to record" lines as shown, one per runtime.
    QStringList recordText() const;

    // The bundled demo trace: $COMPILESCOPE_DEMO, else demo/demo.cstrace under share/compilescope beside
    // the executable (an install: PREFIX/bin/../share; a build tree: a link made by app/CMakeLists.txt).
    // "" when none exists.
    static QString demoPath();

signals:
    void openRequested();                      // the file dialog
    void pathsRequested(const QStringList& paths);  // a recent trace or the demo
    void attachRequested();                    // the live-recording chooser

private:
    QPushButton* m_open;
    QPushButton* m_demo;
    QPushButton* m_attach;
    QListWidget* m_recent;
    QWidget* m_recordBox;
};

}  // namespace cs::gui
