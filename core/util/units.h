// Human-readable durations and sizes, shared by the CLI, the report and the GUI.
#pragma once

#include <cstdint>
#include <cstddef>
#include <string>
#include <vector>

namespace cs::util {

// 1234567 -> "1.23 ms"; picks ns, us, ms, s with three significant digits.
std::string formatDuration(std::int64_t ns);
// An offset from a start: "+1.23 ms", "-4 ns"; a saturated one as formatDuration says it, without a
// sign that would make it read as a value ("+> 292 years", "+-1 ns": issue 40).
std::string formatOffset(std::int64_t ns);
// 1536 -> "1.5 KiB"
std::string formatBytes(std::int64_t bytes);
// 1547576 -> "1,547,576"
std::string formatCount(std::int64_t n);
// part / whole as a whole percentage: (87, 100) -> "87 %"; "-" when whole <= 0.
std::string formatShare(std::int64_t part, std::int64_t whole);
// 2.345 -> "2.35" (decimals 2): averages such as a build's parallelism.
std::string formatFixed(double v, int decimals);
// {"r0", "r1", "r2"} -> "r0, r1, r2"; past `most` items "r0, r1, ... (3 in all)": lists of ranks.
std::string formatList(const std::vector<std::string>& items, std::size_t most = SIZE_MAX);

}  // namespace cs::util
