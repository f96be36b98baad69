/* SPDX-License-Identifier: MIT
 *
 * Shared pieces of the NVRTC and nvJitLink interposers: finding the real functions, starting the
 * collector once, interning option lists.
 *
 * Why dlsym(RTLD_NEXT): the interposer is LD_PRELOADed, so the program's calls bind to our
 * definitions first; RTLD_NEXT finds the library that would have answered without us. When it is not
 * there (the program never loaded NVRTC / nvJitLink, so it cannot have called us either, except
 * through a dlsym of its own) the wrapper returns the library's "internal error" code instead of
 * crashing.
 */
#pragma once

#include <compilescope/compilescope.h>

#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

#define CS_INTERPOSE extern "C" __attribute__((visibility("default")))

namespace cs::cuda {

// The next definition of `name` after ours, or nullptr (reported once on stderr).
template <class Fn>
Fn realSymbol(const char* name) {
    void* p = dlsym(RTLD_NEXT, name);
    if (!p) std::fprintf(stderr, "compilescope: interposer cannot find the real %s; the call fails\n", name);
    return reinterpret_cast<Fn>(p);
}

// Starts the collector on first use; true while recording. Thread-safe (static initialisation).
inline bool recording() {
    static const bool on = cs_start("cuda", nullptr) == 1;
    return on && cs_enabled();
}

// Interned copies of an option array; at most 1024 options are kept.
inline std::vector<cs_str> internAll(const std::vector<std::string>& options) {
    std::vector<cs_str> ids;
    ids.reserve(options.size());
    for (const auto& o : options)
        if (ids.size() < 1024) ids.push_back(cs_intern(o.c_str()));
    return ids;
}

// The compiler's version as CUDA_VERSION encodes it (13.0 -> 13000), written once per process as the
// counter <scope>/version: part of every program's identity (docs/cuda.md). `query` fills major and
// minor and returns true on success.
template <class Query>
void recordVersionOnce(const char* scope, Query query) {
    static const bool done = [&] {
        int major = 0, minor = 0;
        if (query(major, minor)) cs_counter(cs_intern(scope), cs_intern("version"), major * 1000 + minor * 10);
        return true;
    }();
    (void)done;
}

inline std::vector<std::string> copyOptions(int count, const char* const* options) {
    std::vector<std::string> out;
    for (int i = 0; options && i < count; ++i) out.emplace_back(options[i] ? options[i] : "");
    return out;
}

}  // namespace cs::cuda
