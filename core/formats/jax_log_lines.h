// The lines JAX logs about its caches and compile times.
//
// Why: JAX has no API that counts tracing-cache misses or persistent-cache traffic; its logs are the
// record ("string-match is authoritative"). Shapes (jax/_src/pjit.py, jax/_src/compiler.py,
// jax/_src/interpreters/pxla.py; public samples in tests/data/jax/README.md):
//   TRACING CACHE MISS at <callsite> [costing <ms> ms ]because:       (jax_explain_cache_misses)
//     never seen function:                                            then indented reason lines
//       f id=140 defined at /x.py:94
//     for f defined at /x.py:4662
//     * key with different input types:
//         * at x, now f32[8] and before f32[4]
//     * key with different tracing context, e.g. due to config or context manager.
//         [6]: now raise and before warn
//   Persistent compilation cache hit for 'jit_f'[ with key 'jit_f-<hash>']
//   PERSISTENT COMPILATION CACHE MISS for 'jit_f' with key 'jit_f-<hash>'
//   Writing jit_f to persistent compilation cache with key 'jit_f-<hash>'
//   Finished tracing + transforming f for pjit in 0.001 sec            (jax_log_compiles)
//   Finished jaxpr to MLIR module conversion jit(f) in 0.002 sec
//   Finished XLA compilation of jit(f) in 0.05 sec
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cs::ingest::jax {

enum class JaxLineKind {
    Other,
    TracingMiss,       // callsite, costMs (when printed)
    PersistentHit,     // function, key ("" when the release did not print it)
    PersistentMiss,    // function, key
    PersistentWrite,   // function, key
    TraceDone,         // function, seconds
    LoweringDone,      // function, seconds
    CompileDone,       // function, seconds
};

struct JaxLine {
    JaxLineKind kind = JaxLineKind::Other;
    std::string callsite, function, key;
    double costMs = -1, seconds = -1;
};

JaxLine parseJaxLine(std::string_view message);

// One indented line of a TRACING CACHE MISS block.
struct MissReasonLine {
    enum class Kind { Other, NeverSeen, SeenSameLine, For, FunctionId, Heading, Change } kind = Kind::Other;
    std::string function, definedAt, heading;  // heading: "different input types", ...
    std::string subject, now, before;          // Change: "x" / "[6]", now, before
};
MissReasonLine parseMissReasonLine(std::string_view line);

}  // namespace cs::ingest::jax
