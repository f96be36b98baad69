// NVRTC compiles and nvJitLink links of a trace, grouped by program identity, and what they tell the
// user to change.
//
// Why an identity and not the source digest: the collector's digest covers the source and its
// headers, but the same source built with `-G` and with `--use_fast_math` gives different code, and
// a newer NVRTC may too. What decides whether a compiled result can be reused is the whole input of
// the compile: the API, the compiler's version (the `nvrtc` / `nvjitlink` `version` counter the
// interposer writes once per process), the source digest (source + every header with its include
// name, or a link's options and input bytes) and the options in order. That is the identity
// (docs/cuda.md); two compiles with one identity produced the same output, so the second could have
// come from a cache keyed by it.
//
// Rules:
//   one identity compiled N > 1 times in one session (process) -> cuda.repeated_compile; cost = the
//       N - 1 later compiles; fix: cache the PTX / CUBIN keyed by the identity
//   one identity compiled in several sessions (every run of a job) -> cuda.recompiled_every_run;
//       cost = the first compile of each later session (its repeats are cuda.repeated_compile's);
//       fix: a disk cache keyed by it
//   an option holding a date, a time or a temporary path (what __DATE__ / __TIME__ / mkdtemp put
//       there) -> cuda.options_defeat_caching: the identity changes every run, so no cache keyed by
//       it can ever hit; cost = those compiles; fix: take the value out of the options
//   the driver JIT-compiling PTX at module load (cuda_jit compile records) -> cuda.jit_at_load: the
//       fatbin has no SASS for the device's architecture; cost = the JIT compiles; fix: add the
//       architecture to -gencode
//   a JIT compile whose compute-cache entry (cache path) an earlier session already stored or
//       compiled, or a cache path under a temporary directory -> cuda.jit_cache_not_kept; cost = the
//       compiles a kept cache would have loaded; fix: CUDA_CACHE_PATH on kept storage, a larger
//       CUDA_CACHE_MAXSIZE
// Only successful compiles with a recorded source digest count as repeats (a failed compile has no
// output to reuse; without the digest, an imported or hand-written row, nothing says two are alike).
#pragma once

#include "core/engine/common/finding.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine::cuda {

struct CudaProgram {
    std::int64_t id = 0;
    std::int64_t sessionId = 0;
    int api = 0;  // enum cuda_api (trace_constants.h)
    std::string name;
    std::string sourceDigest;  // the collector's digest of the source and headers ("" if not recorded)
    std::vector<std::string> options;
    std::int64_t startNs = 0;
    std::optional<std::int64_t> durNs;
    std::optional<std::int64_t> result;  // 0 = success
    std::optional<std::int64_t> toolVersion;  // NVRTC / nvJitLink version of its session, if recorded
    std::string identity;  // 16 hex digits, see above
    // A link's inputs (cuda_program_inputs), in order: "ptx", "ltoir", "cubin", ...; name; size.
    struct Input {
        std::string kind, name;
        std::optional<std::int64_t> bytes;
    };
    std::vector<Input> inputs;

    bool succeeded() const { return !result || *result == 0; }
};

// All compiles of one identity in one session, in the order they ran.
struct IdentityGroup {
    std::string identity;
    std::int64_t sessionId = 0;
    std::vector<size_t> compiles;  // indexes into CudaProgramReport::programs
};

// One driver JIT record (CUPTI, table cuda_jit).
struct JitRecord {
    std::int64_t id = 0;
    std::int64_t sessionId = 0;
    std::optional<std::int64_t> startNs, durNs;
    int entryType = 0;  // enum jit_entry
    int operation = 0;  // enum jit_operation
    std::optional<std::int64_t> device;
    std::string cachePath;
    std::optional<std::int64_t> cacheBytes;
};

// One kernel's device-compile time in -fdevice-time-trace spans (cicc / ptxas events whose detail
// names the kernel: OptFunction, ...), summed over the trace.
struct KernelCompileCost {
    std::string kernel;  // as the trace names it (mangled)
    std::int64_t ns = 0;
    std::int64_t spans = 0;
};

struct CudaProgramReport {
    std::vector<CudaProgram> programs;  // in the order they ran
    std::vector<IdentityGroup> groups;  // per (session, identity), ordered by first compile
    std::vector<JitRecord> jit;         // driver JIT records, in the order they ran
    // Read only when some device link is slow (device_link.h): the kernels that cost most, most first.
    std::vector<KernelCompileCost> deviceKernels;
};

// The identity of a compile: FNV-1a over api, tool version, source digest and options in order.
std::string programIdentity(int api, std::optional<std::int64_t> toolVersion, const std::string& sourceDigest,
                            const std::vector<std::string>& options);

// Options in order, space-separated: "(no options)" when there are none.
std::string joinedOptions(const std::vector<std::string>& options);

// What in an option changes from run to run ("a date", "a time", "a temporary path"), or nullopt.
std::optional<std::string> volatileValue(const std::string& option);

// The cuda_programs and cuda_jit facts of a trace (tables an older trace lacks read as empty).
CudaProgramReport loadCudaPrograms(const trace::TraceReader& reader);

std::vector<Finding> cudaProgramFindings(const CudaProgramReport& report);
std::vector<Finding> jitFindings(const CudaProgramReport& report);

}  // namespace cs::engine::cuda
