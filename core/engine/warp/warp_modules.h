// Warp module identities: per session and module name, the identities it was loaded under and what
// differs between them.
//
// Why: Warp compiles modules, not kernels, and a module's identity is (live kernel set) x (module
// options) x (CUDA block_dim) x (generic instances) (the Warp guide (docs/warp.md)). Every distinct identity costs a full
// build of the module, so the first question about a slow cold start is "which module names were
// built under more than one identity, and what moved between them". Here an identity is one
// (hash, device, block_dim) of a name; its options and kernel set come from module_options /
// module_kernels when a collector recorded them (a log has only the hash). Consecutive identities of
// the same device and block_dim are diffed: kernel added / removed / changed, option changed, generic
// instance added; identities that differ only in block_dim are block_dim variants. The result is an
// immutable snapshot that the CLI table, the findings, the GUI and the HTML report all render.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine::warp {

struct ModuleKernel {
    std::string name, digest, generic;  // generic: instance signature, "" when not generic
    bool operator==(const ModuleKernel&) const = default;
};

// One load attempt (a module_loads row).
struct ModuleLoad {
    std::int64_t id = 0;
    std::int64_t sessionId = 0;
    std::string name, hash, device;
    std::optional<std::int64_t> blockDim, startNs, durNs, compileNs, sourceBytes, ltoArtifacts;
    int result = 0;  // CS_MODULE_*
    std::string origin;
    std::map<std::string, std::string> options;
    std::vector<ModuleKernel> kernels;  // sorted by name, digest
};

struct Identity {
    std::string hash, device;
    std::optional<std::int64_t> blockDim;
    std::map<std::string, std::string> options{};  // of its first load that recorded any
    std::vector<ModuleKernel> kernels{};         // likewise
    std::vector<std::int64_t> loadIds{};         // in trace order
    int compiled = 0, cached = 0, errors = 0, unknown = 0;
    std::int64_t totalNs = 0, compiledNs = 0;
};

// What changed from one identity to the next of the same name, device and block_dim.
struct IdentityChange {
    enum class Kind { KernelAdded, KernelRemoved, KernelChanged, OptionChanged, GenericAdded, GenericRemoved };
    Kind kind;
    std::string subject;  // kernel or option name
    std::string before, after;
};
const char* changeKindName(IdentityChange::Kind k);

struct IdentityDiff {
    size_t from = 0, to = 0;  // indexes into ModuleSummary::identities
    std::vector<IdentityChange> changes;  // empty when the trace holds no kernel / option facts
};

struct ModuleSummary {
    std::int64_t sessionId = 0;
    std::string name;
    std::vector<Identity> identities{};  // in order of first load
    std::vector<IdentityDiff> diffs{};
    std::vector<ModuleLoad> loads{};  // in trace order
    int compiled = 0, cached = 0, errors = 0, unknown = 0;
    std::int64_t totalNs = 0, compiledNs = 0;
    std::vector<std::string> hashes{}, devices{};  // distinct, in order of appearance
    std::vector<std::int64_t> blockDims{};     // distinct, sorted
};

// A launch that found no kernel in a module that loaded ("Failed to find forward kernel ...").
struct LookupFailure {
    std::int64_t spanId = 0, sessionId = 0;
    std::string mode{}, module{}, kernel{}, device{}, origin{};
};

struct ModuleReport {
    std::vector<ModuleSummary> modules;  // by session, then first appearance
    std::vector<std::int64_t> sessions;  // sessions that loaded modules, ascending
    // Counters of the Warp importers, per session: scope "warp.probe" / "warp.log" -> name -> value.
    std::map<std::int64_t, std::map<std::string, std::int64_t>> counters;
    std::vector<LookupFailure> lookupFailures{};
    // The last Warp init banner of each session: its arguments (version, cuda_toolkit, driver,
    // git_commit, peer_access, kernel_cache, device <alias>, ...), as the log importer stored them.
    std::map<std::int64_t, std::map<std::string, std::string>> banners{};
    std::int64_t loadCount = 0;
    std::int64_t compiled = 0, cached = 0, errors = 0;  // loads by result, over every module
};

// A module hash as Warp prints it: the first 7 hex digits (collectors record the full sha256).
std::string shortHash(const std::string& hash);

// Reads module_loads, module_options, module_kernels and the warp.* counters of a trace.
ModuleReport buildModuleReport(const trace::TraceReader& reader);

// Groups loads (already in trace order) into a report; separated from the SQL for tests.
ModuleReport groupLoads(std::vector<ModuleLoad> loads);

}  // namespace cs::engine::warp
