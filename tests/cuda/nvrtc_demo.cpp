// A small CUDA host program that does what JIT runtimes do: compiles several kernels with NVRTC
// (different options, one identical program twice), then links PTX with nvJitLink. It needs no GPU:
// NVRTC and nvJitLink run on the CPU. Used by the interposer end-to-end test and, with
// `--time-trace PATH`, to make NVRTC write a real -fdevice-time-trace file for the TEF importer.
//
// `--identity STAMP` instead compiles what the program-identity findings look for (docs/cuda.md):
// saxpy.cu 20 times with one set of options, scale.cu twice with options that differ, and stamp.cu
// with -DBUILD_STAMP="STAMP" (a build date, as a build script would pass it), and links nothing.
//
// Output, one line per step, so a test can compare with what the trace recorded:
//   compile <name> <result> <ptx-bytes> <options...>
//   link <result> <cubin-bytes>
#include <nvJitLink.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {
const char* kSaxpy = R"(extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
})";

const char* kScale = R"(extern "C" __global__ void scale(float* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __sinf(y[i]) * s;
})";

struct Compiled {
    nvrtcResult result;
    std::string ptx;
};

Compiled compile(const char* name, const char* source, const std::vector<std::string>& options) {
    nvrtcProgram prog = nullptr;
    Compiled c{nvrtcCreateProgram(&prog, source, name, 0, nullptr, nullptr), {}};
    if (c.result != NVRTC_SUCCESS) return c;
    std::vector<const char*> opts;
    for (const auto& o : options) opts.push_back(o.c_str());
    c.result = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
    size_t logSize = 0;
    nvrtcGetProgramLogSize(prog, &logSize);
    if (c.result == NVRTC_SUCCESS) {
        size_t size = 0;
        nvrtcGetPTXSize(prog, &size);
        c.ptx.resize(size);
        nvrtcGetPTX(prog, c.ptx.data());
    }
    std::printf("compile %s %d %zu", name, static_cast<int>(c.result), c.ptx.size());
    for (const auto& o : options) std::printf(" %s", o.c_str());
    std::printf("\n");
    nvrtcDestroyProgram(&prog);
    return c;
}
}  // namespace

int identityDemo(const std::string& stamp) {
    const std::string arch = "--gpu-architecture=compute_90";
    int failed = 0;
    for (int i = 0; i < 20; ++i) failed += compile("saxpy.cu", kSaxpy, {arch}).result != NVRTC_SUCCESS;
    failed += compile("scale.cu", kScale, {arch, "--use_fast_math"}).result != NVRTC_SUCCESS;
    failed += compile("scale.cu", kScale, {arch, "-lineinfo"}).result != NVRTC_SUCCESS;
    failed += compile("stamp.cu", kScale, {arch, "-DBUILD_STAMP=\"" + stamp + "\""}).result != NVRTC_SUCCESS;
    return failed ? 1 : 0;
}

int main(int argc, char** argv) {
    std::string timeTrace;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--time-trace") == 0) timeTrace = argv[i + 1];
        if (std::strcmp(argv[i], "--identity") == 0) return identityDemo(argv[i + 1]);
    }

    std::vector<std::string> first = {"--gpu-architecture=compute_90"};
    if (!timeTrace.empty()) first.push_back("--fdevice-time-trace=" + timeTrace);
    Compiled a = compile("saxpy.cu", kSaxpy, first);
    Compiled b = compile("saxpy.cu", kSaxpy, {"--gpu-architecture=compute_90"});  // identical program again
    Compiled c = compile("scale.cu", kScale, {"--gpu-architecture=compute_90", "--use_fast_math", "-lineinfo"});
    Compiled d = compile("scale_dbg.cu", kScale, {"--gpu-architecture=compute_90", "-G"});
    if (a.result || b.result || c.result || d.result) return 1;

    nvJitLinkHandle link = nullptr;
    const char* linkOpts[] = {"-arch=sm_90"};
    nvJitLinkResult r = nvJitLinkCreate(&link, 1, linkOpts);
    if (r == NVJITLINK_SUCCESS)
        r = nvJitLinkAddData(link, NVJITLINK_INPUT_PTX, a.ptx.data(), a.ptx.size(), "saxpy.ptx");
    if (r == NVJITLINK_SUCCESS)
        r = nvJitLinkAddData(link, NVJITLINK_INPUT_PTX, c.ptx.data(), c.ptx.size(), "scale.ptx");
    if (r == NVJITLINK_SUCCESS) r = nvJitLinkComplete(link);
    size_t cubin = 0;
    if (r == NVJITLINK_SUCCESS) nvJitLinkGetLinkedCubinSize(link, &cubin);
    std::printf("link %d %zu\n", static_cast<int>(r), cubin);
    nvJitLinkDestroy(&link);
    return r == NVJITLINK_SUCCESS ? 0 : 2;
}
