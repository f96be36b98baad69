#include "plot_canvas.h"

#include <QFontMetricsF>

namespace cs::gui {

void PainterCanvas::rect(const QRectF& r, const QColor& fill, const QColor& border) {
    if (!border.isValid()) {
        m_p.fillRect(r, fill);  // no pen or brush state to change: the timeline draws thousands
        return;
    }
    m_p.setPen(QPen(border));
    m_p.setBrush(fill);
    m_p.drawRect(r);
}

void PainterCanvas::line(QPointF a, QPointF b, const QColor& color, bool dashed) {
    m_p.setPen(QPen(color, 1, dashed ? Qt::DashLine : Qt::SolidLine));
    m_p.drawLine(a, b);
}

void PainterCanvas::text(const QRectF& r, const QString& s, const QColor& color) {
    QFontMetricsF fm(m_p.font());
    QString elided = fm.elidedText(s, Qt::ElideRight, r.width());
    if (elided.size() < 2) return;
    m_p.setPen(color);
    m_p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, elided);
}

namespace {
QString num(double v) { return QString::number(v, 'f', 1); }
QString color(const QColor& c) { return c.isValid() ? c.name() : QStringLiteral("none"); }
}  // namespace

SvgCanvas::SvgCanvas(int width, int height) {
    m_svg = QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" "
                           "font-family=\"sans-serif\" font-size=\"11\">\n"
                           "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
                .arg(width)
                .arg(height);
}

void SvgCanvas::rect(const QRectF& r, const QColor& fill, const QColor& border) {
    m_svg += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\" stroke=\"%6\"/>\n")
                 .arg(num(r.x()), num(r.y()), num(r.width()), num(r.height()), color(fill), color(border));
}

void SvgCanvas::line(QPointF a, QPointF b, const QColor& c, bool dashed) {
    m_svg += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\" stroke=\"%5\"%6/>\n")
                 .arg(num(a.x()), num(a.y()), num(b.x()), num(b.y()), color(c),
                      dashed ? QStringLiteral(" stroke-dasharray=\"4 3\"") : QString());
}

void SvgCanvas::text(const QRectF& r, const QString& s, const QColor& c) {
    // ~6.5 px per character at 11 px: crop long labels as the screen would elide them.
    auto fit = static_cast<qsizetype>(r.width() / 6.5);
    if (fit < 2) return;
    QString shown = s.size() > fit ? s.left(fit - 1) + QChar(0x2026) : s;
    m_svg += QStringLiteral("<text x=\"%1\" y=\"%2\" fill=\"%3\" dominant-baseline=\"middle\">%4</text>\n")
                 .arg(num(r.x() + 2), num(r.center().y()), color(c), shown.toHtmlEscaped());
}

QString SvgCanvas::finish() { return m_svg + QStringLiteral("</svg>\n"); }

}  // namespace cs::gui
