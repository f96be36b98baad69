// The acceptance verdict line of the Overview (seed 000: misses == entries, no misses after the
// first step, expected program count).
#pragma once

#include "app/models/trace_document.h"

#include <QString>

namespace cs::gui {

QString acceptanceVerdictHtml(const TraceDocument& doc);

}  // namespace cs::gui
