#include "app/widgets/loss_banner.h"

#include "app/models/text.h"

namespace cs::gui {

QLabel* makeLossBanner(QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setObjectName(QStringLiteral("lossBanner"));
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
    l->setStyleSheet(QStringLiteral("QLabel#lossBanner { background: #fdecea; color: #611a15; border: 1px solid #c62828; "
                                    "border-radius: 4px; padding: 6px; }"));
    l->hide();
    return l;
}

QString lossBannerText(const std::vector<const TraceDocument*>& docs) {
    QStringList lines;
    for (const TraceDocument* d : docs) {
        if (!d || !d->analyses || !d->analyses->trace || !d->analyses->trace->losses.anyToShow()) continue;
        QString line = qs(d->analyses->trace->losses.bannerText()).toHtmlEscaped();
        lines << (docs.size() > 1 ? QStringLiteral("<b>%1</b>: %2").arg(d->label.toHtmlEscaped(), line) : line);
    }
    if (lines.isEmpty()) return {};
    return QStringLiteral("<b>Data lost.</b> ") + lines.join(QStringLiteral("<br>")) +
           QStringLiteral(". The Findings view names each loss and its remedy.");
}

void showLossBanner(QLabel* banner, const QString& text) {
    banner->setText(text);
    banner->setVisible(!text.isEmpty());
}

}  // namespace cs::gui
