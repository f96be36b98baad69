// The lines JAX logs about its caches and compile times.
//
// Why: JAX has no API that counts tracing-cache misses or persistent-cache traffic; its logs are the
// record ("string-match is authoritative"). Shapes (jax/_src/pjit.py, jax/_src/compiler.py,
// jax/_src/interpreters/pxla.py, jax/_src/interpreters/partial_eval.py; public samples and a log of
// JAX 0.10.2 in tests/data/jax/README.md):
//   TRACING CACHE MISS at <callsite> [costing <ms> ms ]because:       (jax_explain_cache_misses,
//     never seen function:                                             2024-2025 releases)
//       f id=140 defined at /x.py:94                                  then indented reason lines
//     for f defined at /x.py:4662
//     * key with different input types:
//         * at x, now f32[8] and before f32[4]
//     * key with different tracing context, e.g. due to config or context manager.
//         [6]: now raise and before warn
//   TRACING CACHE MISS at <callsite>:                                 (JAX 0.10: one closest key, the
//     for f defined at /x.py:9                                         heading without "* key with")
//     all previously seen cache keys differ. For the closest previous key:
//     different input types:
//     * at x, now i32[8] and before f32[4]
//     different input pytree:                                         (a static argument moved)
//     * at input path [1]['power'], now <class '...Static'> with pytree metadata Static(val=3) and
//       before <class '...Static'> with pytree metadata Static(val=2), so the pytree node metadata does not match
//     Tracing context doesn't match, e.g. due to config or context manager.
//     * jax_enable_x64 differs: now True and before False
//   Persistent compilation cache hit for 'jit_f'[ with key 'jit_f-<hash>']
//   PERSISTENT COMPILATION CACHE MISS for 'jit_f' with key 'jit_f-<hash>'
//   Writing jit_f to persistent compilation cache with key 'jit_f-<hash>'
//   Finished tracing + transforming f for pjit in 0.001 sec            (jax_log_compiles; JAX 0.10:
//   Finished tracing f for jit in 0.001 sec                             the second form)
//   Finished jaxpr to MLIR module conversion jit(f) in 0.002 sec
//   Finished XLA compilation of jit(f) in 0.05 sec
//   Compiling jit(f) with global shapes and types (ShapedArray(float32[2]),). Argument mapping: (...).
//                                                                      (DEBUG, jax/_src/interpreters/pxla.py)
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
    Compiling,         // function ("jit(f)"), key = the global shapes and types ("(ShapedArray(float32[2]),)")
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
    std::string subject, now, before;          // Change: "x" / "[6]" / "jax_enable_x64" / "input path [1]['k']"
};
MissReasonLine parseMissReasonLine(std::string_view line);

// The key component a Change line names under its block's heading, and the reason it reads as:
//   different input types      "type of x" (shape role) = f32[8]
//   different tracing context  "tracing context [6]" / "tracing context jax_enable_x64" (option role)
//   different input pytree     "static argument power" (keyword role) = 3 when both sides are
//                              Static(val=...) (static_argnames / static_argnums), else "pytree at P"
struct MissComponent {
    std::string name, value, reason;
    int role = 0;  // CS_ROLE_*
};
MissComponent missComponent(const std::string& heading, const MissReasonLine& change);

}  // namespace cs::ingest::jax
