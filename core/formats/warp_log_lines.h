// Recognises the lines NVIDIA Warp prints about module loads, one line at a time.
//
// Why a separate line parser: the log importer and `compilescope measure` (which reads the output of
// the command it runs) must agree exactly on what a module load is, so both call this one function.
// The shapes, checked against warp/context.py and warp/_src/context.py + utils.py ScopedTimer of
// every release (docs/formats.md 2.1):
//   v0.1-v0.4   Module <name> load took <ms> ms
//   v0.5-v1.1   Module <name> load on device '<dev>' took <ms> ms
//   v1.2        Module <name> <hash7> load on device '<dev>' took <ms> ms
//   v1.3-       ... took <ms> ms  (compiled|cached|error)          (two spaces: "ms " + " (compiled)")
//   v1.9-       ... '<dev>' (block_dim=<n>) took ...               (verbose / LOG_DEBUG only)
//   strip_hash  the hash is left out again.
// Native compiler timers, verbose only, printed when the inner timer exits, so BEFORE the Module line
// they belong to and indented 4 spaces deeper per nesting level:
//   Compile x86 took <ms> ms  /  Compile CUDA took <ms> ms  /  Compile CUDA (arch=86a, mode=release, block_dim=256) took <ms> ms
// At debug level every timer also logs "<indent><name> ..." when it starts; those entry markers show
// whether loads ran one at a time or overlapped. Debug level adds two hash-change lines:
//   [ModuleHasher] Kernel hash changed: <key> (<old8> -> <new8>)      ("Generic kernel hash changed" too)
//   [Module.load] Module hash changed, recompiling: <name> (<old8> -> <new8>)
// A kernel missing from a module that did load (the concurrent CPU first-load race, the Warp guide (docs/warp.md) CS-8)
// surfaces as the RuntimeError text of warp.launch:
//   Failed to find forward kernel '<key>' from module '<name>' for device '<dev>'   (also "backward")
// Lines may carry ANSI colour codes, CRLF endings, leading spaces, or arrive glued after other output
// on the same line (a progress bar without a newline); all of that is tolerated here.
#pragma once

#include <compilescope/trace_constants.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cs::ingest::warp {

enum class LineKind {
    Other,            // not Warp's, or not about modules: ignored
    Malformed,        // looked like a module record but did not parse; `error` says why
    ModuleLoad,       // a finished module load (timer exit)
    ModuleEntry,      // debug "Module ... ..." timer entry marker
    Compile,          // a finished Compile x86 / Compile CUDA timer
    KernelHashChanged,
    ModuleHashChanged,
    KernelLookupFailed,  // "Failed to find forward|backward kernel 'K' from module 'M' for device 'D'"
};

struct WarpLine {
    LineKind kind = LineKind::Other;
    std::string error;
    int indent = 0;  // leading spaces before the record (nesting depth x 4)
    // ModuleLoad / ModuleEntry / ModuleHashChanged
    std::string name, hash, device;  // hash: 7 hex (load) or 8 hex (hash-change lines: new hash)
    std::optional<std::int64_t> blockDim;
    int result = CS_MODULE_UNKNOWN;
    // ModuleLoad / Compile
    std::int64_t durNs = 0;
    // Compile
    std::string compiler;  // "x86" or "CUDA"
    std::string arch, mode;
    // KernelLookupFailed: `name` = module, `kernel` = kernel key, `device`, `mode` = forward|backward
    std::string kernel;
    // Kernel/ModuleHashChanged: the key and the old and new 8-hex hashes
    std::string oldHash;
    bool generic = false;
};

// `raw` is one line without its '\n'; a trailing '\r' and ANSI codes are removed here.
WarpLine parseWarpLine(std::string_view raw);

// True when `name` looks like the module Warp makes for `module="unique"`: "<kernel key>_<8 hex>",
// renamed from the module's hash. When `hash7` is known it must be the start of those 8 hex digits.
bool isUniqueModuleName(std::string_view name, std::string_view hash7);

}  // namespace cs::ingest::warp
