// Shared plumbing of the fuzz targets: a scratch trace per process, and the analysis every target
// ends with, so an importer's output is also fed to the reader and every analysis verb.
#pragma once

#include "core/engine/analysis/trace_analysis.h"
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace cs::fuzz {

// One file per process (libFuzzer may run several jobs in one directory), removed at exit.
inline const std::string& scratch(const char* suffix) {
    static thread_local std::string path;
    if (path.empty()) {
        path = (std::filesystem::temp_directory_path() / ("cs-fuzz-" + std::to_string(::getpid()) + suffix)).string();
        static struct Remover {
            std::string p;
            ~Remover() {
                std::error_code ec;
                std::filesystem::remove(p, ec);
            }
        } remover{path};
    }
    return path;
}

// Opens and analyses `path` as every verb would. Errors a user would see (TraceError) are fine: they
// name the file. Anything else escapes and libFuzzer reports it as a crash.
inline void analyse(const std::string& path) {
    try {
        auto reader = trace::TraceReader::open(path);
        auto a = engine::analyseTrace(*reader, engine::AnalysisOptions{.timelineBuckets = 64});
        (void)a;
    } catch (const trace::TraceError& e) {
        if (std::string(e.what()).find(path) == std::string::npos) {
            std::fprintf(stderr, "error without the file name: %s\n", e.what());
            std::abort();
        }
    }
}

}  // namespace cs::fuzz
