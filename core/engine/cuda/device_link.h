// Slow device links: nvJitLink links that take long enough to matter, and what makes them slow.
//
// Why a finding of its own: a device link is where link-time optimisation (-lto, LTO IR inputs)
// compiles every kernel of every input again, and where a program that links a large library pays for
// all of it; nvJitLink caches nothing, so a process pays it on every link. The repeated-compile
// findings (cuda_programs.h) catch a link repeated with one identity; this one catches a link that is
// slow once. Its evidence says what the link had to do: its inputs, largest first (an LTO IR input is
// compiled at link time), whether LTO was on, and, when the trace holds -fdevice-time-trace spans
// (cicc / ptxas OptFunction and the like, whose detail names the kernel), the kernels whose device
// compile cost most.
//
// Rule: a successful link of at least 1 s, or of at least 100 ms that took at least half of its
// process's NVRTC + nvJitLink time -> cuda.slow_device_link; cost = the link's duration (a cached
// linked CUBIN would have cost none of it); fix: cache the linked CUBIN keyed by the link's identity,
// and with LTO, link only what needs cross-module optimisation.
#pragma once

#include "core/engine/cuda/cuda_programs.h"

namespace cs::engine::cuda {

inline constexpr std::int64_t kSlowLinkNs = 1'000'000'000;
inline constexpr std::int64_t kSlowLinkShareFloorNs = 100'000'000;

// Indexes into report.programs of the slow links, in the order they ran.
std::vector<size_t> slowLinks(const CudaProgramReport& report);

// The kernels whose device compile cost most in -fdevice-time-trace spans (a span with a detail,
// named as cicc / ptxas name per-function work), most first, at most `top`. Reads every span of those
// names: called only when there is a slow link to explain.
std::vector<KernelCompileCost> loadDeviceKernelCosts(const trace::TraceReader& reader, size_t top = 5);

std::vector<Finding> slowLinkFindings(const CudaProgramReport& report);

}  // namespace cs::engine::cuda
