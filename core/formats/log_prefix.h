// The prefixes Python runtimes put before a log message, stripped to the message and its time.
//
// Why one grammar for all of them: PyTorch and JAX users paste logs from glog-style handlers, from
// Python's default `logging` formats and from launchers that add their own tags, and the same file
// often mixes them (a torchrun job prefixes every line with `[rank0]:`). Shapes accepted, all seen in
// public logs (tests/data/torch/README.md, tests/data/jax/README.md):
//   glog (torch._logging):  `V0806 09:24:09.785000 1234 torch/_dynamo/guards.py:123] message`
//                           (path may be Windows `Lib\site-packages\torch\...`, the year is absent)
//   glog with the level, time and thread elided: `.../torch/_dynamo/guards.py:2772] message`
//   launcher tags in front:  `[rank0]:`, `[2025-08-12 03:18:23.088] `
//   Python logging (2023 torch): `[2023-04-13 21:42:57,808] torch._dynamo.convert_frame.__recompiles: [DEBUG] message`
//   Python logging (JAX):    `WARNING:2025-04-13 17:56:45,045:jax._src.pjit:1365: message`,
//                            `DEBUG:2024-07-04 16:05:47,415:jax._src.compiler:333: message`,
//                            `2024-07-22 11:56:03,008 - DEBUG - message`, `WARNING:absl:message`
// A line with none of these is returned whole as the message, without a time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cs::ingest {

struct LogPrefix {
    std::string_view message;        // what follows the prefix (a view into the line)
    std::optional<std::int64_t> tsNs{};  // ns since 1970-01-01 (glog: the year is assumed to be 1970)
    char level = 0;                  // glog letter V/I/W/E/C, or the first letter of a logging level
    std::string_view source{};       // "torch/_dynamo/guards.py:123" or "jax._src.pjit:1365" when present
    std::int64_t thread = 0;         // glog thread id, 0 when absent
    bool glog = false;               // a glog prefix (full or elided) was found
};

LogPrefix splitLogPrefix(std::string_view line);

// `[0/1]`, `[0/1_1]` (frame / compile _ attempt) at the start of `s`; advances `s` past it and the
// following blanks. Returns false (and leaves `s`) when `s` does not start with one.
struct CompileId {
    std::int64_t frame = 0, compile = 0, attempt = 0;
    std::string text() const;  // "0/1", or "0/1_2" when attempt > 0
};
bool takeCompileId(std::string_view& s, CompileId& id);
// Parses "0/1" or "0/1_1" (whole string).
bool parseCompileId(std::string_view s, CompileId& id);

}  // namespace cs::ingest
