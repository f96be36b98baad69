// Text shared by the cache subcommands (check, explain, whatif): how a lookup and a miss are named.
#pragma once

#include "core/engine/cache/cache_analysis.h"

#include <string>

namespace cs::cli {

// "lookup #7  step 3  gradient  handle n1"
std::string lookupLabel(const engine::CacheFacts& facts, size_t i);
// The file name of a trace path: goldens and CI logs must not depend on where a trace lives.
std::string traceLabel(const std::string& path);
// Parses a non-negative integer option value; false when it is not one.
bool parseCount(const std::string& text, std::int64_t& value);

}  // namespace cs::cli
