// The acceptance verdict line of the Overview (the ReactantNitro guide (docs/cache-replay.md): misses == entries, no misses after the
// first step, expected program count).
#pragma once

#include "app/models/trace_document.h"

#include <QString>

class QLabel;
class QWidget;

namespace cs::gui {

QString acceptanceVerdictHtml(const TraceDocument& doc);

// The verdict label inside a box of bounded height that scrolls: a verdict with 100 failed rules
// must not grow the window past the screen.
QWidget* boundedVerdictBox(QLabel* verdict, QWidget* parent);

}  // namespace cs::gui
