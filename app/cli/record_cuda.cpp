#include "record_cuda.h"

#include "core/trace/reader.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace cs::cli {

namespace {
std::string selfDir() {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : exe.parent_path().string();
}

// The library named by `envVar`, else the first of the build-tree and install locations.
std::string findLibrary(const char* envVar, const std::string& file) {
    if (const char* e = std::getenv(envVar); e && *e) return e;
    const std::string dir = selfDir();
    for (const std::string& c : {dir + "/../collectors/cuda/" + file, dir + "/../lib/" + file})
        if (::access(c.c_str(), R_OK) == 0) return std::filesystem::weakly_canonical(c).string();
    return "";
}

// Index of "KEY=..." in env, or -1.
long findVar(const std::vector<std::string>& env, const std::string& key) {
    for (size_t i = 0; i < env.size(); ++i)
        if (env[i].starts_with(key + "=")) return static_cast<long>(i);
    return -1;
}
}  // namespace

std::vector<std::string> addCudaEnvironment(std::vector<std::string>& env) {
    std::vector<std::string> warnings;
    const std::string interposer = findLibrary("COMPILESCOPE_CUDA_INTERPOSER", "libcompilescope_cuda_interposer.so");
    if (interposer.empty()) {
        warnings.push_back("NVRTC / nvJitLink interposer not found (set COMPILESCOPE_CUDA_INTERPOSER); "
                           "NVRTC compiles are not recorded");
    } else if (long i = findVar(env, "LD_PRELOAD"); i >= 0) {
        auto& v = env[static_cast<size_t>(i)];
        v = "LD_PRELOAD=" + interposer + ":" + v.substr(11);
    } else {
        env.push_back("LD_PRELOAD=" + interposer);
    }

    const std::string cupti = findLibrary("COMPILESCOPE_CUPTI_LIBRARY", "libcompilescope_cupti.so");
    if (cupti.empty()) {
        warnings.push_back("CUPTI injection library not found (this build has no CUPTI, or set "
                           "COMPILESCOPE_CUPTI_LIBRARY); driver JIT, module loads and launches are not recorded");
    } else if (long i = findVar(env, "CUDA_INJECTION64_PATH"); i >= 0) {
        warnings.push_back("CUDA_INJECTION64_PATH is already set (" + env[static_cast<size_t>(i)].substr(22) +
                           "); it is kept and CompileScope's CUPTI library is not injected");
    } else {
        env.push_back("CUDA_INJECTION64_PATH=" + cupti);
    }
    return warnings;
}

void checkCudaHandshake(const std::string& tracePath, std::ostream& err) {
    std::int64_t handshakes = 0, unavailable = 0;
    try {
        auto r = trace::TraceReader::open(tracePath);
        r->query("SELECT n.str, count(*) FROM counters c JOIN strings s ON s.id=c.scope_sid JOIN strings n ON "
                 "n.id=c.name_sid WHERE s.str='cupti' AND n.str IN ('handshake','gpu_events_unavailable') GROUP BY 1",
                 [&](const trace::Row& st) {
                     const std::string name = st.text(0);
                     (name == "handshake" ? handshakes : unavailable) = st.integer(1);
                 });
    } catch (const std::exception& e) {
        err << "compilescope record: cannot check the CUDA handshake in " << tracePath << ": " << e.what() << "\n";
        return;
    }
    if (unavailable)
        err << "compilescope record: GPU events unavailable: another CUPTI subscriber (Nsight, kineto) was active; "
               "NVRTC / nvJitLink compiles are still recorded\n";
    else if (!handshakes)
        err << "compilescope record: no CUPTI handshake arrived: the job did not initialise CUDA on a GPU, or the "
               "injection library failed to load; driver JIT, module load and launch events are missing\n";
}

}  // namespace cs::cli
