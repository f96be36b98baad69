// The acceptance verdict line of the Overview (the ReactantNitro guide (docs/cache-replay.md): misses == entries, no misses after the
// first step, expected program count).
#pragma once

#include "app/models/trace_document.h"

#include <QString>

namespace cs::gui {

QString acceptanceVerdictHtml(const TraceDocument& doc);

}  // namespace cs::gui
