// Timeline view: the lanes of every open trace, zoom / pan / fit tools, and the selection details.
#pragma once

#include "app/plots/timeline_plot.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;

namespace cs::gui {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    TimelinePlot* plot() const { return m_plot; }
    QString details() const;
    QString statusText() const;  // the toolbar's "N items drawn · window 2.13 s"
    // What the open traces are missing (loss_banner.h): shown above the plot, hidden when "".
    void setLossText(const QString& text);
    QString lossBanner() const;
    bool followSelection() const;

private:
    void updateStatus();
    TimelinePlot* m_plot;
    QPlainTextEdit* m_details;
    QCheckBox* m_follow;
    QLabel* m_status;
    QLabel* m_loss = nullptr;
};

}  // namespace cs::gui
