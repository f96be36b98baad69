// The invalidation forest as an icicle (app/models/invalidation_icicle.h), drawn with QPainter:
// the inserted methods on top, their callers below, each block as wide as its recompile cost.
// Clicking a block selects its row in the tree beside it.
#pragma once

#include "app/models/invalidation_icicle.h"

#include <QWidget>

namespace cs::gui {

class IcicleView : public QWidget {
    Q_OBJECT
public:
    explicit IcicleView(QWidget* parent = nullptr);
    void setTree(std::shared_ptr<const InvalidationTreeSnapshot> tree);
    const IcicleLayout& layout() const { return m_layout; }
    // Where a block is drawn, in widget coordinates (tests click there).
    QRectF blockRect(const IcicleBlock& b) const;
    QSize sizeHint() const override;

signals:
    void nodeClicked(int node);

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    bool event(QEvent* e) override;

private:
    void relayout();
    int blockAt(const QPointF& p) const;
    std::shared_ptr<const InvalidationTreeSnapshot> m_tree;
    IcicleLayout m_layout;
};

}  // namespace cs::gui
