// `compilescope record --cuda`: what the launcher adds for CUDA jobs.
//
// Why a separate piece: recording CUDA needs two libraries injected into the job, by two different
// mechanisms. The NVRTC / nvJitLink interposer goes into LD_PRELOAD (prepended, so a user's own
// preloads keep working); the CUPTI injection library goes into CUDA_INJECTION64_PATH, which the
// driver reads at CUDA initialisation. The driver gives no sign when an injection library fails to
// load, so the library writes a handshake counter (cupti/handshake) and, once the recording is done,
// the launcher warns when none arrived: "no GPU events" must not be mistaken for "no GPU work".
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace cs::cli {

// Adds LD_PRELOAD and CUDA_INJECTION64_PATH to `env` ("KEY=value" strings). Libraries are found
// next to the compilescope binary or through COMPILESCOPE_CUDA_INTERPOSER / COMPILESCOPE_CUPTI_LIBRARY.
// Returns the warnings to print (a library not found, a CUDA_INJECTION64_PATH already set).
std::vector<std::string> addCudaEnvironment(std::vector<std::string>& env);

// After the recording: warns on `err` when the trace holds no CUPTI handshake, or says that GPU
// events were unavailable (another CUPTI subscriber). Never fails.
void checkCudaHandshake(const std::string& tracePath, std::ostream& err);

}  // namespace cs::cli
