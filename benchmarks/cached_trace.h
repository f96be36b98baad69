// A benchmark's input trace written once per size and reused by later runs.
#pragma once

#include "core/trace/reader.h"

#include <cstdint>
#include <exception>
#include <string>

namespace cs::bench {

// Spans in a finished trace, or -1 when it cannot be read (absent, half written, older format): a
// cached trace is reused only when this is the count it was written with.
inline std::int64_t spansInTrace(const std::string& path) {
    try {
        return cs::trace::TraceReader::open(path)->rowCount("spans");
    } catch (const std::exception&) {
        return -1;
    }
}

}  // namespace cs::bench
