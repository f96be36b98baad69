// The keyboard help ("?" on the timeline, Help > Keyboard shortcuts): every key the views answer, in
// one table, as Perfetto's and Nsight's help overlays give it. One list, so the help and the keys
// cannot drift apart: the timeline's key handler and this table are checked against each other by a
// test (TimelineDetailsTest.QuestionMarkShowsTheShortcutsThePlotAnswers).
#pragma once

#include <QDialog>
#include <QString>

#include <vector>

namespace cs::gui {

struct Shortcut {
    QString keys, action;
};
// The timeline's keys (TimelinePlot::eventFilter), then the window's.
const std::vector<Shortcut>& timelineShortcuts();
const std::vector<Shortcut>& windowShortcuts();

class ShortcutsHelp : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsHelp(QWidget* parent = nullptr);
    QString text() const;  // the table as plain text (tests)

private:
    QString m_text;
};

}  // namespace cs::gui
