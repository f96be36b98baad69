// SPDX-License-Identifier: MIT
//
// The CUPTI injection library: the CUDA driver loads it when CUDA_INJECTION64_PATH names it and calls
// InitializeInjection() during CUDA initialisation (docs/formats.md 5.2).
//
// Why injection: the driver's JIT (PTX -> CUBIN, compute-cache loads and stores), module loads and
// kernel launches happen inside the driver, invisible to the program and to the NVRTC interposer.
// CUPTI reports them, and injection gets CUPTI into any CUDA program without changing it.
//
// What it records, through the collector C ABI (compilescope.h):
//   - module load / unload (CUPTI resource callbacks): module id, cubin size and digest;
//   - driver JIT activity (CUpti_ActivityJit2): entry type, cache load / store / compile, cache path
//     and size, times;
//   - kernel launches (CUpti_ActivityKernel10): name, grid, block, shared memory, stream, correlation;
//   - CUPTI's own overhead records, as spans on a "CUPTI overhead" lane;
//   - a handshake: counter cupti/handshake = CUPTI version, written as soon as injection worked, so
//     `compilescope record --cuda` can tell "no GPU events happened" from "injection silently failed".
// Another CUPTI subscriber in the process (Nsight Systems, kineto) makes cuptiSubscribe fail; then the
// library prints "GPU events unavailable", counts cupti/gpu_events_unavailable and returns success:
// profiling must never fail the user's job. Record decoding lives in cupti_decode.* (unit-tested).
//
// COMPILESCOPE_CUPTI_LOG=<file> also appends one line per event to <file> (tests/device/cupti_check.sh).
#include "cupti_decode.h"

#include <compilescope/compilescope.h>

#include <cupti.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace {
using namespace cs::cupti;

constexpr size_t kBufferBytes = 4u << 20;

struct State {
    std::mutex mutex;  // guards log, streams, the lazily created tracks
    FILE* log = nullptr;
    bool recording = false;
    std::int64_t offsetNs = 0;  // CUPTI clock minus ours, when CUPTI would not take our clock
    std::map<std::int64_t, cs_track> streams;
    cs_track overheadTrack = 0;
    CUpti_SubscriberHandle subscriber = nullptr;
};

State& state() {
    static State* s = new State;  // never destroyed: CUPTI may call back during exit
    return *s;
}

void logLine(const std::string& line) {
    State& s = state();
    std::lock_guard lock(s.mutex);
    if (!s.log) return;
    std::fprintf(s.log, "%s\n", line.c_str());
    std::fflush(s.log);
}

std::int64_t opt(std::int64_t v) { return v == kNone ? CS_NONE : v; }

void warn(const char* what, CUptiResult r) {
    const char* text = "?";
    cuptiGetResultString(r, &text);
    std::fprintf(stderr, "compilescope: GPU events unavailable: %s (%s)\n", what, text);
    logLine(std::string("unavailable ") + what + " " + text);
    if (state().recording) cs_counter(cs_intern("cupti"), cs_intern("gpu_events_unavailable"), 1);
}

std::uint64_t CUPTIAPI ourClock() { return static_cast<std::uint64_t>(cs_now_ns()); }

cs_track streamTrack(std::int64_t stream) {
    State& s = state();
    std::lock_guard lock(s.mutex);
    auto it = s.streams.find(stream);
    if (it != s.streams.end()) return it->second;
    std::string name = "CUDA stream " + std::to_string(stream);
    cs_track t = cs_track_create(cs_intern(name.c_str()), CS_TRACK_STREAM, stream);
    s.streams.emplace(stream, t);
    return t;
}

void emit(const Decoded& d) {
    if (!state().recording) return;
    switch (d.type) {
    case RecordType::Jit: {
        const JitEvent& j = d.jit;
        cs_cuda_jit rec{};
        rec.start_ns = opt(j.startNs);
        rec.dur_ns = opt(j.durNs);
        rec.entry_type = j.entryType;
        rec.operation = j.operation;
        rec.device = opt(j.device);
        rec.correlation_id = opt(j.correlationId);
        rec.jit_correlation_id = opt(j.jitCorrelationId);
        rec.cache_bytes = opt(j.cacheBytes);
        rec.cache_path = j.cachePath.empty() ? 0 : cs_intern(j.cachePath.c_str());
        cs_cuda_jit_record(&rec);
        break;
    }
    case RecordType::Launch: {
        const LaunchEvent& l = d.launch;
        cs_kernel_launch rec{};
        rec.start_ns = l.startNs;
        rec.dur_ns = opt(l.durNs);
        rec.name = l.name.empty() ? 0 : cs_intern(l.name.c_str());
        rec.track = l.stream == kNone ? CS_THREAD_TRACK : streamTrack(l.stream);
        for (int i = 0; i < 3; ++i) {
            rec.grid[i] = opt(l.grid[i]);
            rec.block[i] = opt(l.block[i]);
        }
        rec.shared_bytes = opt(l.sharedBytes);
        rec.stream = opt(l.stream);
        rec.correlation_id = opt(l.correlationId);
        cs_kernel_launch_record(&rec);
        break;
    }
    case RecordType::Overhead: {
        State& s = state();
        cs_track track;
        {
            std::lock_guard lock(s.mutex);
            if (!s.overheadTrack) s.overheadTrack = cs_track_create(cs_intern("CUPTI overhead"), CS_TRACK_RUNTIME, CS_NONE);
            track = s.overheadTrack;
        }
        const OverheadEvent& o = d.overhead;
        std::string name = "CUPTI overhead: " + o.kind;
        cs_span_complete(track, o.compiler ? CS_CAT_COMPILE : CS_CAT_OTHER, cs_intern(name.c_str()), o.startNs, o.durNs);
        if (o.correlationId != kNone) cs_span_arg_int(cs_intern("correlation_id"), o.correlationId);
        break;
    }
    case RecordType::Ignored: break;
    }
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t, size_t validSize) {
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        Decoded d = decodeActivity(record, state().offsetNs);
        if (d.type == RecordType::Ignored) continue;
        logLine(describe(d));
        emit(d);
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, streamId, &dropped) == CUPTI_SUCCESS && dropped) {
        logLine("dropped " + std::to_string(dropped));
        if (state().recording)
            cs_counter(cs_intern("cupti"), cs_intern("dropped_records"), static_cast<std::int64_t>(dropped));
    }
    std::free(buffer);
}

void CUPTIAPI onCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    if (domain != CUPTI_CB_DOMAIN_RESOURCE) return;
    ModuleEvent m;
    if (!decodeModule(cbid, static_cast<const CUpti_ResourceData*>(data), m)) return;
    logLine(describe(m));
    if (!state().recording) return;
    cs_cuda_module(CS_NOW, m.op == 0 ? CS_CUDA_MODULE_LOAD : CS_CUDA_MODULE_UNLOAD, opt(m.moduleId), opt(m.cubinBytes),
                   m.digest.empty() ? 0 : cs_intern(m.digest.c_str()));
}

void flushAtExit() {
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    logLine("exit");
    if (state().recording) cs_flush();
}

bool enableActivities() {
    for (CUpti_ActivityKind kind :
         {CUPTI_ACTIVITY_KIND_JIT, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_OVERHEAD}) {
        CUptiResult r = cuptiActivityEnable(kind);
        if (r != CUPTI_SUCCESS) {
            warn("cuptiActivityEnable failed", r);
            return false;
        }
    }
    return true;
}
}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    static std::atomic<bool> once{false};
    if (once.exchange(true)) return 1;
    State& s = state();
    if (const char* path = std::getenv("COMPILESCOPE_CUPTI_LOG"); path && *path) s.log = std::fopen(path, "a");
    s.recording = cs_start("cuda", nullptr) == 1;
    if (!s.recording && !s.log) return 1;  // nowhere to put events: stay out of the way

    // CUPTI reports in our clock (CLOCK_MONOTONIC ns) when it accepts the callback; otherwise we
    // measure the offset once.
    if (cuptiActivityRegisterTimestampCallback(ourClock) != CUPTI_SUCCESS) {
        std::uint64_t cuptiNow = 0;
        cuptiGetTimestamp(&cuptiNow);
        s.offsetNs = static_cast<std::int64_t>(cuptiNow) - cs_now_ns();
    }
    CUptiResult r = cuptiSubscribe(&s.subscriber, onCallback, nullptr);
    if (r != CUPTI_SUCCESS) {
        warn(r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? "another CUPTI subscriber (Nsight, kineto) is active"
                                                                 : "cuptiSubscribe failed",
             r);
        return 1;
    }
    cuptiEnableCallback(1, s.subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
    cuptiEnableCallback(1, s.subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING);
    r = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    if (r != CUPTI_SUCCESS) {
        warn("cuptiActivityRegisterCallbacks failed", r);
        return 1;
    }
    if (!enableActivities()) return 1;
    std::atexit(flushAtExit);

    std::uint32_t version = 0;
    cuptiGetVersion(&version);
    logLine("handshake cupti=" + std::to_string(version));
    if (s.recording) cs_counter(cs_intern("cupti"), cs_intern("handshake"), version);
    return 1;
}
