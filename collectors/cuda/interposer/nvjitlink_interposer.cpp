// SPDX-License-Identifier: MIT
//
// nvJitLink interposer: records every link (nvJitLinkComplete) with its options and inputs.
//
// Why: LTO and JIT linking (Warp's LTO kernels, libraries linked at run time) is a compile step of
// its own, often longer than the NVRTC compiles that fed it. One cuda_programs row per link (api
// nvJitLink) carries the options, the duration of nvJitLinkComplete, the result, the log size and the
// linked CUBIN (or PTX) size; cuda_program_inputs lists what was added (kind, name, size).
//
// The header nvJitLink.h turns nvJitLinkCreate() and friends into inline calls of versioned entry
// points (__nvJitLinkCreate_13_0, ...), so those are what a CUDA 13 program references; the plain
// names are interposed too for callers built with NVJITLINK_NO_INLINE. Programs built against another
// major version reference other versioned names and are not seen (documented in docs/cuda.md).
#include "../common/fnv_digest.h"
#include "interposer_common.h"

#define NVJITLINK_NO_INLINE
#include <nvJitLink.h>

#include <sys/stat.h>

#include <mutex>
#include <unordered_map>

namespace {
using namespace cs::cuda;

struct Input {
    std::string kind, name;
    std::int64_t bytes;
};

struct LinkInfo {
    std::vector<std::string> options;
    std::vector<Input> inputs;
    FnvDigest digest;
};

struct Registry {
    std::mutex mutex;
    std::unordered_map<nvJitLinkHandle, LinkInfo> links;
    std::int64_t count = 0;
};

Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: calls may come during exit
    return *r;
}

const char* inputKind(nvJitLinkInputType t) {
    switch (t) {
    case NVJITLINK_INPUT_CUBIN: return "cubin";
    case NVJITLINK_INPUT_PTX: return "ptx";
    case NVJITLINK_INPUT_LTOIR: return "ltoir";
    case NVJITLINK_INPUT_FATBIN: return "fatbin";
    case NVJITLINK_INPUT_OBJECT: return "object";
    case NVJITLINK_INPUT_LIBRARY: return "library";
    case NVJITLINK_INPUT_INDEX: return "index";
    case NVJITLINK_INPUT_ANY: return "any";
    default: return "unknown";
    }
}

void addInput(nvJitLinkHandle h, nvJitLinkInputType type, const void* data, std::int64_t bytes, const char* name) {
    Registry& reg = registry();
    std::lock_guard lock(reg.mutex);
    auto it = reg.links.find(h);
    if (it == reg.links.end()) return;
    it->second.inputs.push_back({inputKind(type), name ? name : "", bytes});
    it->second.digest.addString(inputKind(type));
    if (data && bytes > 0) it->second.digest.add(data, static_cast<size_t>(bytes));
    else it->second.digest.addString(name);  // a file: its name stands for its content
}

using CreateFn = nvJitLinkResult (*)(nvJitLinkHandle*, uint32_t, const char* const*);
using DestroyFn = nvJitLinkResult (*)(nvJitLinkHandle*);
using AddDataFn = nvJitLinkResult (*)(nvJitLinkHandle, nvJitLinkInputType, const void*, size_t, const char*);
using AddFileFn = nvJitLinkResult (*)(nvJitLinkHandle, nvJitLinkInputType, const char*);
using CompleteFn = nvJitLinkResult (*)(nvJitLinkHandle);
using SizeFn = nvJitLinkResult (*)(nvJitLinkHandle, size_t*);

// The size getters matching the entry point family the program used (versioned or plain).
struct Getters {
    SizeFn cubin, ptx, infoLog, errorLog;
};

std::int64_t callSize(SizeFn fn, nvJitLinkHandle h) {
    size_t size = 0;
    if (fn && fn(h, &size) == NVJITLINK_SUCCESS) return static_cast<std::int64_t>(size);
    return 0;
}

nvJitLinkResult create(CreateFn real, nvJitLinkHandle* h, uint32_t n, const char* const* options) {
    if (!real) return NVJITLINK_ERROR_INTERNAL;
    nvJitLinkResult r = real(h, n, options);
    if (r != NVJITLINK_SUCCESS || !h || !recording()) return r;
    LinkInfo info;
    info.options = copyOptions(static_cast<int>(n), options);
    for (const auto& o : info.options) info.digest.addString(o.c_str());
    Registry& reg = registry();
    std::lock_guard lock(reg.mutex);
    reg.links[*h] = std::move(info);
    return r;
}

nvJitLinkResult addData(AddDataFn real, nvJitLinkHandle h, nvJitLinkInputType t, const void* data, size_t size,
                        const char* name) {
    if (!real) return NVJITLINK_ERROR_INTERNAL;
    nvJitLinkResult r = real(h, t, data, size, name);
    if (r == NVJITLINK_SUCCESS && recording()) addInput(h, t, data, static_cast<std::int64_t>(size), name);
    return r;
}

nvJitLinkResult addFile(AddFileFn real, nvJitLinkHandle h, nvJitLinkInputType t, const char* file) {
    if (!real) return NVJITLINK_ERROR_INTERNAL;
    nvJitLinkResult r = real(h, t, file);
    if (r == NVJITLINK_SUCCESS && recording()) {
        struct stat st {};
        std::int64_t bytes = file && stat(file, &st) == 0 ? static_cast<std::int64_t>(st.st_size) : CS_NONE;
        addInput(h, t, nullptr, bytes, file);
    }
    return r;
}

nvJitLinkResult complete(CompleteFn real, const Getters& get, nvJitLinkHandle h) {
    if (!real) return NVJITLINK_ERROR_INTERNAL;
    if (!recording()) return real(h);
    recordVersionOnce("nvjitlink", [](int& major, int& minor) {
        auto fn = reinterpret_cast<nvJitLinkResult (*)(unsigned*, unsigned*)>(dlsym(RTLD_NEXT, "nvJitLinkVersion"));
        unsigned ma = 0, mi = 0;
        if (!fn || fn(&ma, &mi) != NVJITLINK_SUCCESS) return false;
        major = static_cast<int>(ma);
        minor = static_cast<int>(mi);
        return true;
    });
    std::int64_t start = cs_now_ns();
    nvJitLinkResult r = real(h);
    std::int64_t end = cs_now_ns();

    LinkInfo info;
    std::int64_t ordinal = 0;
    {
        Registry& reg = registry();
        std::lock_guard lock(reg.mutex);
        auto it = reg.links.find(h);
        if (it == reg.links.end()) return r;
        info = it->second;
        ordinal = ++reg.count;
    }
    std::vector<cs_str> ids = internAll(info.options);
    std::vector<cs_cuda_input> inputs;
    for (const Input& in : info.inputs)
        inputs.push_back({cs_intern(in.kind.c_str()), in.name.empty() ? 0 : cs_intern(in.name.c_str()), in.bytes});
    char hex[17];
    info.digest.hex(hex);
    std::string name = "nvJitLink link " + std::to_string(ordinal);
    std::int64_t output = 0;
    if (r == NVJITLINK_SUCCESS) {
        output = callSize(get.cubin, h);
        if (output == 0) output = callSize(get.ptx, h);
    }
    cs_cuda_program rec{};
    rec.start_ns = start;
    rec.dur_ns = end - start;
    rec.api = CS_CUDA_NVJITLINK;
    rec.name = cs_intern(name.c_str());
    rec.source_digest = cs_intern(hex);
    rec.track = CS_THREAD_TRACK;
    rec.result = r;
    rec.log_bytes = callSize(get.infoLog, h) + callSize(get.errorLog, h);
    rec.output_bytes = output > 0 ? output : CS_NONE;
    rec.options = ids.data();
    rec.option_count = static_cast<uint32_t>(ids.size());
    rec.inputs = inputs.data();
    rec.input_count = static_cast<uint32_t>(inputs.size());
    cs_cuda_program_record(&rec);
    return r;
}

nvJitLinkResult destroy(DestroyFn real, nvJitLinkHandle* h) {
    if (!real) return NVJITLINK_ERROR_INTERNAL;
    if (h && *h) {
        Registry& reg = registry();
        std::lock_guard lock(reg.mutex);
        reg.links.erase(*h);
    }
    return real(h);
}

// Defines the interposed entry points of one family: suffix "" (plain) or "_13_0" (versioned, with
// the "__" prefix the header's inline wrappers call).
#define CS_NVJITLINK_FAMILY(PREFIX, SUFFIX)                                                                          \
    CS_INTERPOSE nvJitLinkResult PREFIX##Create##SUFFIX(nvJitLinkHandle* h, uint32_t n, const char* const* o) {             \
        static auto real = realSymbol<CreateFn>(#PREFIX "Create" #SUFFIX);                                            \
        return create(real, h, n, o);                                                                                 \
    }                                                                                                                 \
    CS_INTERPOSE nvJitLinkResult PREFIX##Destroy##SUFFIX(nvJitLinkHandle* h) {                                        \
        static auto real = realSymbol<DestroyFn>(#PREFIX "Destroy" #SUFFIX);                                          \
        return destroy(real, h);                                                                                      \
    }                                                                                                                 \
    CS_INTERPOSE nvJitLinkResult PREFIX##AddData##SUFFIX(nvJitLinkHandle h, nvJitLinkInputType t, const void* d,      \
                                                         size_t s, const char* n) {                                   \
        static auto real = realSymbol<AddDataFn>(#PREFIX "AddData" #SUFFIX);                                          \
        return addData(real, h, t, d, s, n);                                                                          \
    }                                                                                                                 \
    CS_INTERPOSE nvJitLinkResult PREFIX##AddFile##SUFFIX(nvJitLinkHandle h, nvJitLinkInputType t, const char* f) {    \
        static auto real = realSymbol<AddFileFn>(#PREFIX "AddFile" #SUFFIX);                                          \
        return addFile(real, h, t, f);                                                                                \
    }                                                                                                                 \
    CS_INTERPOSE nvJitLinkResult PREFIX##Complete##SUFFIX(nvJitLinkHandle h) {                                        \
        static auto real = realSymbol<CompleteFn>(#PREFIX "Complete" #SUFFIX);                                        \
        static const Getters get{reinterpret_cast<SizeFn>(dlsym(RTLD_NEXT, #PREFIX "GetLinkedCubinSize" #SUFFIX)),    \
                                 reinterpret_cast<SizeFn>(dlsym(RTLD_NEXT, #PREFIX "GetLinkedPtxSize" #SUFFIX)),      \
                                 reinterpret_cast<SizeFn>(dlsym(RTLD_NEXT, #PREFIX "GetInfoLogSize" #SUFFIX)),        \
                                 reinterpret_cast<SizeFn>(dlsym(RTLD_NEXT, #PREFIX "GetErrorLogSize" #SUFFIX))};      \
        return complete(real, get, h);                                                                                \
    }
}  // namespace

CS_NVJITLINK_FAMILY(nvJitLink, )
CS_NVJITLINK_FAMILY(__nvJitLink, _13_0)
