// Human-readable durations and sizes, shared by the CLI, the report and the GUI.
#pragma once

#include <cstdint>
#include <string>

namespace cs::util {

// 1234567 -> "1.23 ms"; picks ns, us, ms, s with three significant digits.
std::string formatDuration(std::int64_t ns);
// 1536 -> "1.5 KiB"
std::string formatBytes(std::int64_t bytes);
// 1547576 -> "1,547,576"
std::string formatCount(std::int64_t n);

}  // namespace cs::util
