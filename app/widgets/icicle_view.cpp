#include "icicle_view.h"

#include "app/models/text.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace cs::gui {

namespace {
constexpr int kBand = 20;    // px per depth
constexpr int kCaption = 18;  // px of the caption line
}  // namespace

IcicleView::IcicleView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(kCaption + 3 * kBand);
}

QSize IcicleView::sizeHint() const { return {600, kCaption + 8 * kBand}; }

void IcicleView::setTree(std::shared_ptr<const InvalidationTreeSnapshot> tree) {
    m_tree = std::move(tree);
    relayout();
}

void IcicleView::relayout() {
    // Blocks under a pixel are left out (docs/practices.md 8): the layout never holds more than the width shows.
    m_layout = m_tree ? layoutIcicle(*m_tree, width() > 0 ? 1.0 / width() : 0.0) : IcicleLayout{};
    update();
}

void IcicleView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    relayout();
}

QRectF IcicleView::blockRect(const IcicleBlock& b) const {
    return {b.x0 * width(), static_cast<qreal>(kCaption + b.depth * kBand), (b.x1 - b.x0) * width(), static_cast<qreal>(kBand - 1)};
}

int IcicleView::blockAt(const QPointF& p) const {
    if (width() <= 0 || p.y() < kCaption) return -1;
    return icicleBlockAt(m_layout, p.x() / width(), static_cast<int>((p.y() - kCaption) / kBand));
}

void IcicleView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setPen(palette().text().color());
    const QString caption =
        !m_tree || !m_tree->forest ? QStringLiteral("No invalidation trees.")
        : m_layout.blocks.empty()  ? QStringLiteral("Nothing to draw: no tree invalidated a MethodInstance.")
        : m_layout.byCost ? QStringLiteral("Icicle: width = recompile time (%1 in all); click a block to select it in the tree")
                                .arg(durationText(m_layout.total))
                          : QStringLiteral("Icicle: width = MethodInstances invalidated (%1; no compile timings joined); "
                                           "click a block to select it")
                                .arg(groupedCount(m_layout.total));
    p.drawText(QRect(4, 0, width() - 8, kCaption), Qt::AlignVCenter | Qt::AlignLeft, caption);
    for (const IcicleBlock& b : m_layout.blocks) {
        const QRectF r = blockRect(b);
        // Warm hues, darker with depth, as flame graphs draw them.
        const int hue = (20 + 9 * (b.node % 5)) % 360;
        QColor fill = QColor::fromHsv(hue, 150 + 15 * std::min(b.depth, 6), 235 - 8 * std::min(b.depth, 8));
        p.fillRect(r, fill);
        if (r.width() < 30) continue;
        p.setPen(Qt::black);
        const QString& label = m_tree->nodes[static_cast<std::size_t>(b.node)].item.label;
        p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(label, Qt::ElideRight, static_cast<int>(r.width()) - 5));
    }
}

void IcicleView::mousePressEvent(QMouseEvent* e) {
    const int i = blockAt(e->position());
    if (i >= 0) emit nodeClicked(m_layout.blocks[static_cast<std::size_t>(i)].node);
    QWidget::mousePressEvent(e);
}

bool IcicleView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = blockAt(help->pos());
        if (i < 0) {
            QToolTip::hideText();
            return true;
        }
        const IcicleBlock& b = m_layout.blocks[static_cast<std::size_t>(i)];
        const InvalidationItem& item = m_tree->nodes[static_cast<std::size_t>(b.node)].item;
        QToolTip::showText(help->globalPos(),
                           QStringLiteral("%1\n%2").arg(item.label, m_layout.byCost ? durationText(b.weight) + QStringLiteral(" of recompilation")
                                                                                     : QStringLiteral("%1 MethodInstances").arg(b.weight)),
                           this);
        return true;
    }
    return QWidget::event(e);
}

}  // namespace cs::gui
