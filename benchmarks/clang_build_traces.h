// The synthetic build of the build benchmarks (issue 23): 1,860 clang -ftime-trace files, 1.5M events,
// shaped as clang 14-18 write them: complete ("X") events in the order they end, with args.detail on
// headers, classes, instantiations and functions; Frontend and Backend inside ExecuteCompiler; one
// "Total <name>" event per name on a thread of its own (args count, avg ms); process and thread name
// metadata; beginningOfTime written last. Each file compiles for about 17 ms; they start 18 ms apart
// per group of 8, as a -j8 build. Used by bench_build_import (the import) and bench_gui_timeline
// (open and repaint of the imported build).
//
// COMPILESCOPE_BENCH_BUILD_FILES=N writes N files instead of 1,860 (a quick look in a debug build).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace cs::bench {
namespace fs = std::filesystem;

inline constexpr long long kBuildStartUs = 1796165801000000;

inline int fileCount() {
    const char* n = std::getenv("COMPILESCOPE_BENCH_BUILD_FILES");
    return n && std::atoi(n) > 0 ? std::atoi(n) : 1860;
}

// One file's events; returns how many events (not counting metadata) it holds.
inline std::int64_t writeClangTrace(const std::string& path, int file, long long beginUs) {
    std::string out;
    out.reserve(192 * 1024);
    std::map<std::string, std::pair<long long, int>> totals;  // name -> summed dur, count (nesting ignored: synthetic)
    std::int64_t events = 0;
    auto ev = [&](const char* name, long long ts, long long dur, const std::string& detail) {
        out += events ? ",\n" : "\n";
        out += "{\"pid\":" + std::to_string(4000 + file) + ",\"tid\":" + std::to_string(4000 + file) +
               ",\"ph\":\"X\",\"ts\":" + std::to_string(ts) + ",\"dur\":" + std::to_string(dur) + ",\"name\":\"" + name + "\"";
        if (!detail.empty()) out += ",\"args\":{\"detail\":\"" + detail + "\"}";
        out += "}";
        auto& t = totals[name];
        t.first += dur;
        ++t.second;
        ++events;
    };
    out += "{\"traceEvents\":[";
    long long t = 10;
    // Frontend: 40 headers, each including one more; classes parsed; templates instantiated.
    const long long frontStart = t;
    for (int h = 0; h < 40; ++h) {
        const long long s = t;
        ev("Source", t + 5, 60, "/usr/include/c++/12/bits/part" + std::to_string(h) + "_impl.h");
        t += 70;
        ev("Source", s, t - s, (h % 3 ? "/work/src/lib/module" : "/work/src/include/common") + std::to_string(h % 17) + ".h");
        t += 5;
    }
    for (int k = 0; k < 100; ++k, t += 25) ev("ParseClass", t, 20, "project::detail::Widget" + std::to_string((k * 7 + file) % 211));
    for (int k = 0; k < 150; ++k, t += 30)
        ev("InstantiateClass", t, 25, "std::vector<project::Item" + std::to_string(k % 53) + ", std::allocator<project::Item" +
                                          std::to_string(k % 53) + ">>");
    const long long pendingStart = t;
    for (int k = 0; k < 150; ++k, t += 30)
        ev("InstantiateFunction", t, 25, "std::vector<project::Item" + std::to_string(k % 53) + ">::_M_realloc_insert<const project::Item" +
                                             std::to_string(k % 53) + " &>");
    ev("PerformPendingInstantiations", pendingStart, t - pendingStart, "");
    for (int k = 0; k < 60; ++k, t += 12) ev("CodeGen Function", t, 10, "_ZN7project6detail4workILi" + std::to_string(k) + "EEvv");
    ev("Frontend", frontStart, t - frontStart, "");
    // Backend: per function, its passes then OptFunction; then the module and code generation.
    const long long backStart = t;
    for (int k = 0; k < 60; ++k) {
        const long long s = t;
        const std::string fn = "_ZN7project6detail4workILi" + std::to_string(k) + "EEvv";
        ev("SROAPass", t, 8, fn);
        ev("InstCombinePass", t + 9, 12, fn);
        ev("SimplifyCFGPass", t + 22, 6, fn);
        t += 30;
        ev("OptFunction", s, t - s, fn);
    }
    ev("OptModule", backStart, t - backStart, "/work/src/file" + std::to_string(file) + ".cpp");
    ev("Optimizer", backStart, t - backStart, "");
    const long long cg = t;
    t += 400;
    ev("CodeGenPasses", cg, t - cg, "");
    ev("Backend", backStart, t - backStart, "");
    ev("ExecuteCompiler", 0, t + 10, "");
    // "Total" events: ts 0, one thread each, after the spans.
    int tid = 4001 + file;
    for (const auto& [name, total] : totals) {
        out += ",\n{\"pid\":" + std::to_string(4000 + file) + ",\"tid\":" + std::to_string(++tid) +
               ",\"ph\":\"X\",\"ts\":0,\"dur\":" + std::to_string(total.first) + ",\"name\":\"Total " + name +
               "\",\"args\":{\"count\":" + std::to_string(total.second) + ",\"avg ms\":" +
               std::to_string(total.first / total.second / 1000) + "}}";
        ++events;
    }
    out += ",\n{\"cat\":\"\",\"pid\":" + std::to_string(4000 + file) + ",\"tid\":0,\"ts\":0,\"ph\":\"M\",\"name\":\"process_name\","
           "\"args\":{\"name\":\"clang-14\"}}";
    out += ",\n{\"cat\":\"\",\"pid\":" + std::to_string(4000 + file) + ",\"tid\":" + std::to_string(4000 + file) +
           ",\"ts\":0,\"ph\":\"M\",\"name\":\"thread_name\",\"args\":{\"name\":\"clang-14\"}}";
    out += "\n],\n\"beginningOfTime\":" + std::to_string(beginUs) + "}\n";
    std::ofstream(path, std::ios::binary) << out;
    return events;
}

struct Build {
    std::vector<std::string> files;
    std::int64_t events = 0, bytes = 0;
};

// Written once per process, before any clock starts.
inline const Build& build() {
    static const Build whole = [] {
        Build b;
        fs::path dir = fs::temp_directory_path() / "bench-build-traces";
        fs::remove_all(dir);
        fs::create_directories(dir / "CMakeFiles" / "app.dir" / "src");
        const int n = fileCount();
        for (int i = 0; i < n; ++i) {
            std::string p = (dir / "CMakeFiles" / "app.dir" / "src" / ("file" + std::to_string(i) + ".cpp.json")).string();
            b.events += writeClangTrace(p, i, kBuildStartUs + (i / 8) * 18'000 + (i % 8) * 300);
            b.bytes += static_cast<std::int64_t>(fs::file_size(p));
            b.files.push_back(std::move(p));
        }
        return b;
    }();
    return whole;
}

}  // namespace cs::bench
