// The grammar of ninja's `.ninja_log`: one line per command that ran, in the order they finished.
//
// Why a grammar of its own: the build log is how ninja says when each target of a build started and
// ended, and the only record of a build's parallelism that needs no tracing. The format (ninja
// src/build_log.cc, versions 4 to 6) is a header "# ninja log vN", then lines of five tab-separated
// fields: start ms, end ms (both from the start of the build that ran the command), the output's
// mtime (nanoseconds since the epoch since ninja 1.10; seconds before; 0 when not stat'ed), the
// output path, and a hash of the command (hex). A command with several outputs writes one line per
// output with the same times and hash. The log is appended to by every build and compacted now and
// then, so it holds lines of earlier builds too: a line that ends before the previous line starts a
// new build (the rule ninjatracing uses).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cs::ingest {

struct NinjaLogEntry {
    std::int64_t startMs = 0, endMs = 0;
    std::int64_t mtime = 0;  // as written: ns, s or 0
    std::string_view output, commandHash;
};

// The version of a "# ninja log vN" header line, or nullopt when the line is no such header.
std::optional<int> ninjaLogVersion(std::string_view line);

// Parses one line; returns "" or what is wrong with it ("expected 5 tab-separated fields, found 3").
// `out`'s views point into `line`.
std::string parseNinjaLogLine(std::string_view line, NinjaLogEntry& out);

}  // namespace cs::ingest
