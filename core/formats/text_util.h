// Small text helpers shared by the line-oriented importers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cs::ingest {

std::string_view trim(std::string_view s);
// Splits on `sep` and trims each field; empty fields are kept.
std::vector<std::string_view> splitTrimmed(std::string_view s, char sep);
// Whole-string parse; false on trailing garbage, empty input or overflow.
bool parseDouble(std::string_view s, double& out);
bool parseInt(std::string_view s, long long& out);
bool startsWith(std::string_view s, std::string_view prefix);
// Removes ANSI escape sequences (colour codes) from a log line.
std::string stripAnsi(std::string_view s);

}  // namespace cs::ingest
