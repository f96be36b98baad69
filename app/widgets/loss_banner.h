// The banner that says what a trace is missing (core/engine/accounting/trace_losses.h), shown above the
// Overview and the Timeline so no figure is read without it.
#pragma once

#include "app/models/trace_document.h"

#include <QLabel>

#include <vector>

namespace cs::gui {

// A hidden, red-bordered label; set its text with lossBannerText().
QLabel* makeLossBanner(QWidget* parent);
// The banner text for these documents ("" when none lost anything); each trace named when several.
QString lossBannerText(const std::vector<const TraceDocument*>& docs);
// Shows the banner with `text`, or hides it when the text is empty.
void showLossBanner(QLabel* banner, const QString& text);

}  // namespace cs::gui
