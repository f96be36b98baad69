/* SPDX-License-Identifier: MIT
 *
 * Decoding of CUPTI records into CompileScope collector events, as pure functions.
 *
 * Why separate from the injection library: the injection only runs where a GPU is, and CI machines
 * have none. Everything that interprets CUPTI's bytes (which activity kinds we keep, how JIT entry
 * and operation codes map, what "start = end = 0" means, which timestamps become durations, how a
 * module's cubin is digested) lives here, takes the structs exactly as cupti_activity.h and
 * cupti_callbacks.h lay them out, and returns plain values. Unit tests build real CUpti_ActivityJit2,
 * CUpti_ActivityKernel10, CUpti_ActivityOverhead3 and CUpti_ModuleResourceData records and check the
 * result without a driver. The injection library only moves these values into the collector C ABI.
 *
 * Record versions: CUDA 13.0 / CUPTI 13 deliver JIT activity as CUpti_ActivityJit2, kernels as
 * CUpti_ActivityKernel10 and overhead as CUpti_ActivityOverhead3 (docs/formats.md 5.1).
 */
#pragma once

#include <cupti.h>

#include <cstdint>
#include <string>

namespace cs::cupti {

// "Not known", as CS_NONE in compilescope.h.
constexpr std::int64_t kNone = INT64_MIN;

struct JitEvent {
    std::int64_t startNs = kNone, durNs = kNone;  // kNone when CUPTI did not collect the times
    int entryType = 0;  // cs_jit_entry (same numbers as CUpti_ActivityJitEntryType)
    int operation = 0;  // cs_jit_operation
    std::int64_t device = kNone, correlationId = kNone, jitCorrelationId = kNone, cacheBytes = kNone;
    std::string cachePath;
};

struct LaunchEvent {
    std::int64_t startNs = 0, durNs = kNone;
    std::string name;
    std::int64_t grid[3] = {kNone, kNone, kNone}, block[3] = {kNone, kNone, kNone};
    std::int64_t sharedBytes = kNone, stream = kNone, correlationId = kNone, device = kNone;
};

struct OverheadEvent {
    std::int64_t startNs = 0, durNs = 0;
    std::string kind;  // e.g. "driver compiler", "cupti buffer flush"
    bool compiler = false;  // the driver's compiler: shown as compile time
    std::int64_t correlationId = kNone;
};

struct ModuleEvent {
    int op = 0;  // cs_cuda_module_op: 0 load, 1 unload
    std::int64_t moduleId = kNone, cubinBytes = kNone;
    std::string digest;  // 16 hex digits of the cubin; empty when CUPTI gave no cubin
};

enum class RecordType { Jit, Launch, Overhead, Ignored };

struct Decoded {
    RecordType type = RecordType::Ignored;
    JitEvent jit;
    LaunchEvent launch;
    OverheadEvent overhead;
};

// One activity record. `offsetNs` is subtracted from CUPTI's timestamps (0 when CUPTI was given our
// clock through cuptiActivityRegisterTimestampCallback).
Decoded decodeActivity(const CUpti_Activity* record, std::int64_t offsetNs);

// A CUPTI_CB_DOMAIN_RESOURCE callback; only MODULE_LOADED / MODULE_UNLOAD_STARTING give a module.
bool decodeModule(CUpti_CallbackId cbid, const CUpti_ResourceData* data, ModuleEvent& out);

// Readable name of an overhead kind.
const char* overheadKindName(CUpti_ActivityOverheadKind kind);

// One line describing a decoded event, for the injection's debug log (COMPILESCOPE_CUPTI_LOG) and
// for tests/device/cupti_check.sh, which greps it: "jit entry=ptx-to-cubin op=compile ...".
std::string describe(const Decoded& d);
std::string describe(const ModuleEvent& m);

}  // namespace cs::cupti
