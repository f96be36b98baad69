// Canvas: the few drawing primitives the plots use, with two back ends: the QPainter QCustomPlot
// hands us, and an SVG writer.
//
// Why not QSvgGenerator: Qt SVG is not a dependency of this project. The plots draw through this
// interface, so "export as SVG" writes the same rectangles, lines and labels the screen shows.
#pragma once

#include <QColor>
#include <QPainter>
#include <QRectF>
#include <QString>

namespace cs::gui {

class Canvas {
public:
    virtual ~Canvas() = default;
    virtual void rect(const QRectF& r, const QColor& fill, const QColor& border) = 0;
    virtual void line(QPointF a, QPointF b, const QColor& color, bool dashed) = 0;
    // Text inside r, left-aligned and vertically centred, elided to fit.
    virtual void text(const QRectF& r, const QString& s, const QColor& color) = 0;
};

class PainterCanvas : public Canvas {
public:
    explicit PainterCanvas(QPainter& p) : m_p(p) {}
    void rect(const QRectF& r, const QColor& fill, const QColor& border) override;
    void line(QPointF a, QPointF b, const QColor& color, bool dashed) override;
    void text(const QRectF& r, const QString& s, const QColor& color) override;

private:
    QPainter& m_p;
};

class SvgCanvas : public Canvas {
public:
    SvgCanvas(int width, int height);
    void rect(const QRectF& r, const QColor& fill, const QColor& border) override;
    void line(QPointF a, QPointF b, const QColor& color, bool dashed) override;
    void text(const QRectF& r, const QString& s, const QColor& color) override;
    QString finish();  // the complete SVG document

private:
    QString m_svg;
};

}  // namespace cs::gui
