#include "timeline_view.h"

#include "app/widgets/loss_banner.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace cs::gui {

namespace {
QToolButton* button(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    return b;
}
}  // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), m_plot(new TimelinePlot(this)), m_details(new QPlainTextEdit(this)),
      m_follow(new QCheckBox(QStringLiteral("Follow selection"), this)), m_status(new QLabel(this)) {
    auto* tools = new QHBoxLayout;
    auto* fit = button(QStringLiteral("Fit all"), QStringLiteral("Show every lane and the whole time range (0)"), this);
    auto* in = button(QStringLiteral("Zoom in"), QStringLiteral("Zoom in (W, or the mouse wheel)"), this);
    auto* out = button(QStringLiteral("Zoom out"), QStringLiteral("Zoom out (S)"), this);
    auto* fitSel = button(QStringLiteral("Fit selection"), QStringLiteral("Zoom to the selected span (F)"), this);
    m_follow->setChecked(true);
    m_follow->setToolTip(QStringLiteral("Zoom to whatever a finding or a search result selects"));
    for (QWidget* w : {static_cast<QWidget*>(fit), static_cast<QWidget*>(in), static_cast<QWidget*>(out),
                       static_cast<QWidget*>(fitSel), static_cast<QWidget*>(m_follow)})
        tools->addWidget(w);
    tools->addStretch(1);
    tools->addWidget(m_status);
    connect(fit, &QToolButton::clicked, m_plot, &TimelinePlot::fitAll);
    connect(in, &QToolButton::clicked, m_plot, [this] { m_plot->zoomBy(2); });
    connect(out, &QToolButton::clicked, m_plot, [this] { m_plot->zoomBy(0.5); });
    connect(fitSel, &QToolButton::clicked, m_plot, [this] {
        const TimelineSelection& s = m_plot->selection();
        if (s.valid() && s.lane >= 0) m_plot->showRange(s.source, s.item.startNs, s.item.endNs);
    });
    m_details->setReadOnly(true);
    m_details->setMaximumHeight(90);
    m_details->setPlainText(m_plot->selectionText());
    connect(m_plot, &TimelinePlot::selectionChanged, this, [this] { m_details->setPlainText(m_plot->selectionText()); });
    connect(m_plot, &TimelinePlot::replotted, this, &TimelineView::updateStatus);
    auto* layout = new QVBoxLayout(this);
    m_loss = makeLossBanner(this);
    layout->addWidget(m_loss);
    layout->addLayout(tools);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_details);
}

void TimelineView::updateStatus() {
    m_status->setText(QStringLiteral("%1 items drawn · window %2").arg(m_plot->lastPaintItems()).arg(m_plot->windowText()));
}

QString TimelineView::details() const { return m_details->toPlainText(); }
QString TimelineView::statusText() const { return m_status->text(); }

void TimelineView::setLossText(const QString& text) { showLossBanner(m_loss, text); }
QString TimelineView::lossBanner() const { return m_loss->isVisibleTo(this) ? m_loss->text() : QString(); }
bool TimelineView::followSelection() const { return m_follow->isChecked(); }

}  // namespace cs::gui
