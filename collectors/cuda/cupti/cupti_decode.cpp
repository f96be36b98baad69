// SPDX-License-Identifier: MIT
#include "cupti_decode.h"

#include "../common/fnv_digest.h"

#include <cinttypes>
#include <cstdio>

namespace cs::cupti {

namespace {
std::int64_t stamp(std::uint64_t t, std::int64_t offsetNs) { return static_cast<std::int64_t>(t) - offsetNs; }

// CUPTI reports "not collected" as start = end = 0, and a broken pair as end < start.
void interval(std::uint64_t start, std::uint64_t end, std::int64_t offsetNs, std::int64_t& startNs, std::int64_t& durNs) {
    if (start == 0 && end == 0) return;
    startNs = stamp(start, offsetNs);
    if (end >= start) durNs = static_cast<std::int64_t>(end - start);
}

JitEvent decodeJit(const CUpti_ActivityJit2& r, std::int64_t offsetNs) {
    JitEvent e;
    interval(r.start, r.end, offsetNs, e.startNs, e.durNs);
    // cs_jit_entry / cs_jit_operation mirror CUPTI's numbering; unknown future codes become "invalid".
    e.entryType = r.jitEntryType <= CUPTI_ACTIVITY_JIT_ENTRY_NVVM_IR_TO_PTX ? static_cast<int>(r.jitEntryType) : 0;
    e.operation = r.jitOperationType <= CUPTI_ACTIVITY_JIT_OPERATION_COMPILE ? static_cast<int>(r.jitOperationType) : 0;
    e.device = r.deviceId;
    e.correlationId = r.correlationId;
    e.jitCorrelationId = static_cast<std::int64_t>(r.jitOperationCorrelationId);
    e.cacheBytes = static_cast<std::int64_t>(r.cacheSize);
    if (r.cachePath) e.cachePath = r.cachePath;
    return e;
}

LaunchEvent decodeKernel(const CUpti_ActivityKernel10& r, std::int64_t offsetNs) {
    LaunchEvent e;
    std::int64_t start = kNone;
    interval(r.start, r.end, offsetNs, start, e.durNs);
    e.startNs = start == kNone ? 0 : start;
    if (r.name) e.name = r.name;
    e.grid[0] = r.gridX, e.grid[1] = r.gridY, e.grid[2] = r.gridZ;
    e.block[0] = r.blockX, e.block[1] = r.blockY, e.block[2] = r.blockZ;
    e.sharedBytes = static_cast<std::int64_t>(r.staticSharedMemory) + r.dynamicSharedMemory;
    e.stream = r.streamId;
    e.correlationId = r.correlationId;
    e.device = r.deviceId;
    return e;
}

OverheadEvent decodeOverhead(const CUpti_ActivityOverhead3& r, std::int64_t offsetNs) {
    OverheadEvent e;
    std::int64_t start = kNone, dur = kNone;
    interval(r.start, r.end, offsetNs, start, dur);
    e.startNs = start == kNone ? 0 : start;
    e.durNs = dur == kNone ? 0 : dur;
    e.kind = overheadKindName(r.overheadKind);
    e.compiler = r.overheadKind == CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER;
    e.correlationId = r.correlationId;
    return e;
}

const char* jitEntryName(int e) {
    switch (e) {
    case 1: return "ptx-to-cubin";
    case 2: return "nvvm-ir-to-ptx";
    default: return "invalid";
    }
}

const char* jitOpName(int o) {
    switch (o) {
    case 1: return "cache-load";
    case 2: return "cache-store";
    case 3: return "compile";
    default: return "invalid";
    }
}

std::string num(std::int64_t v) { return v == kNone ? std::string("-") : std::to_string(v); }
}  // namespace

const char* overheadKindName(CUpti_ActivityOverheadKind kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "cupti buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "cupti instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "cupti resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING: return "runtime-triggered module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT: return "uvm activity init";
    default: return "unknown";
    }
}

Decoded decodeActivity(const CUpti_Activity* record, std::int64_t offsetNs) {
    Decoded d;
    if (!record) return d;
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_JIT:
        d.type = RecordType::Jit;
        d.jit = decodeJit(*reinterpret_cast<const CUpti_ActivityJit2*>(record), offsetNs);
        break;
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        d.type = RecordType::Launch;
        d.launch = decodeKernel(*reinterpret_cast<const CUpti_ActivityKernel10*>(record), offsetNs);
        break;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
        d.type = RecordType::Overhead;
        d.overhead = decodeOverhead(*reinterpret_cast<const CUpti_ActivityOverhead3*>(record), offsetNs);
        break;
    default: break;
    }
    return d;
}

bool decodeModule(CUpti_CallbackId cbid, const CUpti_ResourceData* data, ModuleEvent& out) {
    if (cbid != CUPTI_CBID_RESOURCE_MODULE_LOADED && cbid != CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) return false;
    if (!data || !data->resourceDescriptor) return false;
    const auto* m = static_cast<const CUpti_ModuleResourceData*>(data->resourceDescriptor);
    out = {};
    out.op = cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED ? 0 : 1;
    out.moduleId = m->moduleId;
    out.cubinBytes = static_cast<std::int64_t>(m->cubinSize);
    // pCubin is only valid during the callback: digest it now.
    if (m->pCubin && m->cubinSize) {
        cs::cuda::FnvDigest h;
        h.add(m->pCubin, m->cubinSize);
        char hex[17];
        h.hex(hex);
        out.digest = hex;
    }
    return true;
}

std::string describe(const Decoded& d) {
    char buf[256];
    switch (d.type) {
    case RecordType::Jit:
        std::snprintf(buf, sizeof buf, "jit entry=%s op=%s start=%s dur=%s corr=%s unit=%s cache_bytes=%s cache=",
                      jitEntryName(d.jit.entryType), jitOpName(d.jit.operation), num(d.jit.startNs).c_str(),
                      num(d.jit.durNs).c_str(), num(d.jit.correlationId).c_str(), num(d.jit.jitCorrelationId).c_str(),
                      num(d.jit.cacheBytes).c_str());
        return buf + d.jit.cachePath;
    case RecordType::Launch:
        std::snprintf(buf, sizeof buf,
                      "launch grid=%s,%s,%s block=%s,%s,%s shared=%s stream=%s corr=%s start=%" PRId64 " dur=%s name=",
                      num(d.launch.grid[0]).c_str(), num(d.launch.grid[1]).c_str(), num(d.launch.grid[2]).c_str(),
                      num(d.launch.block[0]).c_str(), num(d.launch.block[1]).c_str(), num(d.launch.block[2]).c_str(),
                      num(d.launch.sharedBytes).c_str(), num(d.launch.stream).c_str(),
                      num(d.launch.correlationId).c_str(), d.launch.startNs, num(d.launch.durNs).c_str());
        return buf + d.launch.name;
    case RecordType::Overhead:
        std::snprintf(buf, sizeof buf, "overhead start=%" PRId64 " dur=%" PRId64 " kind=", d.overhead.startNs,
                      d.overhead.durNs);
        return buf + d.overhead.kind;
    case RecordType::Ignored: break;
    }
    return "ignored";
}

std::string describe(const ModuleEvent& m) {
    return std::string(m.op == 0 ? "module-load" : "module-unload") + " id=" + num(m.moduleId) +
           " cubin_bytes=" + num(m.cubinBytes) + " digest=" + (m.digest.empty() ? "-" : m.digest);
}

}  // namespace cs::cupti
