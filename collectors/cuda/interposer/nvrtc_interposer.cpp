// SPDX-License-Identifier: MIT
//
// NVRTC interposer: records every nvrtcCompileProgram of a program that links NVRTC dynamically.
//
// Why: JIT runtimes (Warp's kernels through NVRTC in dynamically linked builds, CuPy, numba-cuda,
// hand-written code) compile CUDA C++ at run time; each compile costs tens of milliseconds to
// seconds and nothing reports it. LD_PRELOADed, this library sits in front of libnvrtc and writes one
// cuda_programs row per compile: program name, options in order, a digest of the source and headers
// (so one identical program compiled twice is visible as such), start, duration, result code, log
// size and output size (CUBIN, else LTO-IR, else PTX).
//
// Limits (documented in docs/cuda.md): a program that links NVRTC statically (libnvrtc_static.a;
// Warp's release builds do) or that finds the functions with dlsym on its own handle is not seen.
// The calls themselves are never changed: arguments go through untouched and the result is returned
// as is, recording or not.
#include "../common/fnv_digest.h"
#include "interposer_common.h"

#include <nvrtc.h>

#include <mutex>
#include <unordered_map>

namespace {
using namespace cs::cuda;

struct ProgramInfo {
    std::string name;
    std::string digest;
};

struct Registry {
    std::mutex mutex;
    std::unordered_map<nvrtcProgram, ProgramInfo> programs;
};

Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: calls may come during exit
    return *r;
}

// Output size of a compiled program: CUBIN when an sm_ target was asked, else LTO-IR, else PTX.
std::int64_t outputBytes(nvrtcProgram prog) {
    using SizeFn = nvrtcResult (*)(nvrtcProgram, size_t*);
    // Plain dlsym: an older NVRTC without LTO-IR is fine, no warning.
    static auto cubin = reinterpret_cast<SizeFn>(dlsym(RTLD_NEXT, "nvrtcGetCUBINSize"));
    static auto ltoir = reinterpret_cast<SizeFn>(dlsym(RTLD_NEXT, "nvrtcGetLTOIRSize"));
    static auto ptx = reinterpret_cast<SizeFn>(dlsym(RTLD_NEXT, "nvrtcGetPTXSize"));
    for (SizeFn fn : {cubin, ltoir, ptx}) {
        size_t size = 0;
        if (fn && fn(prog, &size) == NVRTC_SUCCESS && size > 1) return static_cast<std::int64_t>(size);
    }
    return CS_NONE;
}

std::int64_t logBytes(nvrtcProgram prog) {
    static auto fn = reinterpret_cast<nvrtcResult (*)(nvrtcProgram, size_t*)>(dlsym(RTLD_NEXT, "nvrtcGetProgramLogSize"));
    size_t size = 0;
    if (fn && fn(prog, &size) == NVRTC_SUCCESS) return static_cast<std::int64_t>(size);
    return CS_NONE;
}
}  // namespace

CS_INTERPOSE nvrtcResult nvrtcCreateProgram(nvrtcProgram* prog, const char* src, const char* name, int numHeaders,
                                            const char* const* headers, const char* const* includeNames) {
    static auto real = realSymbol<decltype(&nvrtcCreateProgram)>("nvrtcCreateProgram");
    if (!real) return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = real(prog, src, name, numHeaders, headers, includeNames);
    if (r != NVRTC_SUCCESS || !prog || !recording()) return r;
    // The digest covers the source and every header with its include name: what decides the output.
    FnvDigest h;
    h.addString(src);
    for (int i = 0; i < numHeaders; ++i) {
        h.addString(includeNames ? includeNames[i] : nullptr);
        h.addString(headers ? headers[i] : nullptr);
    }
    char hex[17];
    h.hex(hex);
    Registry& reg = registry();
    std::lock_guard lock(reg.mutex);
    reg.programs[*prog] = {name ? name : "default_program", hex};
    return r;
}

CS_INTERPOSE nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char* const* options) {
    static auto real = realSymbol<decltype(&nvrtcCompileProgram)>("nvrtcCompileProgram");
    if (!real) return NVRTC_ERROR_INTERNAL_ERROR;
    if (!recording()) return real(prog, numOptions, options);
    recordVersionOnce("nvrtc", [](int& major, int& minor) {
        auto fn = reinterpret_cast<nvrtcResult (*)(int*, int*)>(dlsym(RTLD_NEXT, "nvrtcVersion"));
        return fn && fn(&major, &minor) == NVRTC_SUCCESS;
    });
    std::vector<std::string> opts = copyOptions(numOptions, options);
    std::int64_t start = cs_now_ns();
    nvrtcResult r = real(prog, numOptions, options);
    std::int64_t end = cs_now_ns();

    ProgramInfo info;
    {
        Registry& reg = registry();
        std::lock_guard lock(reg.mutex);
        auto it = reg.programs.find(prog);
        if (it != reg.programs.end()) info = it->second;
    }
    std::vector<cs_str> ids = internAll(opts);
    cs_cuda_program rec{};
    rec.start_ns = start;
    rec.dur_ns = end - start;
    rec.api = CS_CUDA_NVRTC;
    rec.name = info.name.empty() ? 0 : cs_intern(info.name.c_str());
    rec.source_digest = info.digest.empty() ? 0 : cs_intern(info.digest.c_str());
    rec.track = CS_THREAD_TRACK;
    rec.result = r;
    rec.log_bytes = logBytes(prog);
    rec.output_bytes = r == NVRTC_SUCCESS ? outputBytes(prog) : CS_NONE;
    rec.options = ids.data();
    rec.option_count = static_cast<uint32_t>(ids.size());
    cs_cuda_program_record(&rec);
    return r;
}

CS_INTERPOSE nvrtcResult nvrtcDestroyProgram(nvrtcProgram* prog) {
    static auto real = realSymbol<decltype(&nvrtcDestroyProgram)>("nvrtcDestroyProgram");
    if (!real) return NVRTC_ERROR_INTERNAL_ERROR;
    if (prog && *prog) {
        Registry& reg = registry();
        std::lock_guard lock(reg.mutex);
        reg.programs.erase(*prog);
    }
    return real(prog);
}
