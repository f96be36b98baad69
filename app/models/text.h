// Conversions from the core's UTF-8 std::string world to QString, in one place.
#pragma once

#include "core/util/units.h"

#include <QString>

#include <cstdint>
#include <string_view>

namespace cs::gui {

inline QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
// "12.3 µs": the core's "us" (ASCII, for terminals and logs) as the GUI writes it.
QString durationText(std::int64_t ns);
// "+12.3 µs" from a start; a saturated offset without the "+" (util::formatOffset).
QString offsetText(std::int64_t ns);
inline QString groupedCount(std::int64_t n) { return qs(util::formatCount(n)); }
inline QString percentText(double fraction) { return QString::number(fraction * 100.0, 'f', 1) + QLatin1Char('%'); }
// A runtime as users say it: "import:warp-log" -> "Warp (imported log)", "numba" -> "Numba".
QString runtimeDisplayName(std::string_view runtime);
// "compile", "module load", ...: the readable name of a cs_category code.
QString categoryName(int category);

}  // namespace cs::gui
