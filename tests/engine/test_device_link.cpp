// Slow device links (core/engine/cuda/device_link.h): nvJitLink rows shaped as the interposer records
// them (options in order, inputs with kind, name and size), and an nvcc -fdevice-time-trace JSON shaped
// as CUDA 13.0 writes it (docs: FORMATS 7.5), imported by the TEF importer into the same trace.
#include "core/engine/cuda/device_link.h"
#include "core/ingest/importer_registry.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>

#include <sstream>

using namespace cs::engine::cuda;
using cs::trace::TraceWriter;

namespace {
constexpr std::int64_t kMs = 1'000'000;

// cicc and ptxas events of two kernels, as -fdevice-time-trace writes them (the empty first event too).
const char* kDeviceTimeTrace = R"({"otherData": {"inputFiles": ["k.cu"], "targetArchs": ["compute_90"], "numThreads": -1, "splitCompile": -1, "isNVRTC": 0},
"traceEvents": [{},
{"args": {"name": "cicc"}, "name": "process_name", "ph": "M", "pid": 7, "tid": 0},
{"args": {"name": "k.cu [compute_90]"}, "name": "thread_name", "ph": "M", "pid": 7, "tid": 0},
{"args": {"detail": "_Z3addPfPKfi"}, "dur": 50, "name": "OptFunction", "ph": "X", "pid": 7, "tid": 0, "ts": 442562},
{"args": {"detail": "_Z4tileILi128EEvPf"}, "dur": 900, "name": "OptFunction", "ph": "X", "pid": 7, "tid": 0, "ts": 442700},
{"args": {"detail": "_Z4tileILi128EEvPf"}, "dur": 300, "name": "Scanning Function Body", "ph": "X", "pid": 7, "tid": 0, "ts": 443700},
{"args": {"detail": "k.cu"}, "dur": 2000, "name": "CUDA C++ Front-End", "ph": "X", "pid": 7, "tid": 0, "ts": 440000}
]})";

struct Link {
    std::int64_t durNs;
    std::vector<std::string> options;
    std::vector<std::tuple<std::string, std::string, std::int64_t>> inputs;  // kind, name, bytes
};

// A process with one NVRTC compile of `compileNs` and the given links after it.
void addProcess(TraceWriter& w, std::int64_t compileNs, const std::vector<Link>& links) {
    const auto ses = w.addSession({.pid = 4242, .runtime = w.intern("cuda"), .startNs = 0});
    std::int64_t t = 0;
    w.addCudaProgram({.sessionId = ses, .api = CS_CUDA_NVRTC, .startNs = t, .durNs = compileNs, .name = w.intern("saxpy.cu"),
                      .sourceDigest = w.intern("00112233aabbccdd"), .result = 0});
    t += compileNs;
    for (const Link& l : links) {
        const auto id = w.addCudaProgram({.sessionId = ses, .api = CS_CUDA_NVJITLINK, .startNs = t, .durNs = l.durNs,
                                          .name = w.intern("nvJitLink"), .sourceDigest = w.intern("ffeeddccbbaa9988"), .result = 0});
        for (size_t k = 0; k < l.options.size(); ++k)
            w.addCudaProgramOption({.programId = id, .ordinal = static_cast<std::int64_t>(k), .option = w.intern(l.options[k])});
        for (size_t k = 0; k < l.inputs.size(); ++k) {
            const auto& [kind, name, bytes] = l.inputs[k];
            w.addCudaProgramInput({.programId = id, .ordinal = static_cast<std::int64_t>(k), .kind = w.intern(kind),
                                   .name = w.intern(name), .bytes = bytes});
        }
        t += l.durNs;
    }
}

std::vector<cs::engine::Finding> findingsOf(const std::string& path) {
    auto reader = cs::trace::TraceReader::open(path);
    return slowLinkFindings(loadCudaPrograms(*reader));
}
}  // namespace

TEST(DeviceLink, AnLtoLinkOfASecondIsSlowAndNamesItsInputsAndKernels) {
    cs::test::TempDir dir;
    const std::string path = dir.file("lto.cstrace");
    {
        TraceWriter w(path);
        addProcess(w, 120 * kMs,
                   {{1500 * kMs, {"-arch=sm_90", "-lto"},
                     {{"ltoir", "saxpy.ltoir", 300 << 10}, {"ltoir", "tile.ltoir", 5 << 20}, {"ptx", "scale.ptx", 4096}}}});
        const auto tefSession = w.addSession({.runtime = w.intern("import:tef")});
        cs::ingest::ImportContext ctx{w, tefSession, "k_compile-time-trace.json"};
        std::istringstream in(kDeviceTimeTrace);
        cs::ingest::ImporterRegistry::builtin().byId("tef")->run(in, ctx);
        w.finalize();
    }
    const auto found = findingsOf(path);
    ASSERT_EQ(found.size(), 1u);
    const cs::engine::Finding& f = found[0];
    EXPECT_EQ(f.kind, "cuda.slow_device_link");
    EXPECT_EQ(f.costNs, 1500 * kMs);
    EXPECT_NE(f.title.find("link-time optimisation"), std::string::npos) << f.title;
    EXPECT_NE(f.fix.find("Cache the linked CUBIN"), std::string::npos);
    EXPECT_NE(f.fix.find("-lto"), std::string::npos);
    // The link, then its inputs largest first, then the kernels by device-compile time.
    ASSERT_GE(f.evidence.size(), 6u);
    EXPECT_NE(f.evidence[0].note.find("-arch=sm_90 -lto"), std::string::npos) << f.evidence[0].note;
    EXPECT_NE(f.evidence[1].note.find("tile.ltoir (ltoir, 5.00 MiB)"), std::string::npos) << f.evidence[1].note;
    EXPECT_NE(f.evidence[2].note.find("saxpy.ltoir (ltoir, 300 KiB)"), std::string::npos) << f.evidence[2].note;
    EXPECT_NE(f.evidence[3].note.find("scale.ptx (ptx, 4.00 KiB)"), std::string::npos) << f.evidence[3].note;
    // tile: 900 + 300 us of OptFunction and Scanning Function Body; add: 50 us; the front end names a file, not a kernel.
    EXPECT_NE(f.evidence[4].note.find("kernel _Z4tileILi128EEvPf: 1.20 ms"), std::string::npos) << f.evidence[4].note;
    EXPECT_NE(f.evidence[4].note.find("in 2 -fdevice-time-trace"), std::string::npos) << f.evidence[4].note;
    EXPECT_NE(f.evidence[5].note.find("kernel _Z3addPfPKfi: 50"), std::string::npos) << f.evidence[5].note;
    ASSERT_TRUE(f.startNs && f.endNs);
    EXPECT_EQ(*f.endNs - *f.startNs, 1500 * kMs);
}

TEST(DeviceLink, AShortLinkIsSlowOnlyWhenItIsMostOfTheProcesssCudaTime) {
    cs::test::TempDir dir;
    const std::string path = dir.file("links.cstrace");
    {
        TraceWriter w(path);
        addProcess(w, 400 * kMs, {{30 * kMs, {"-arch=sm_90"}, {{"ptx", "a.ptx", 2048}}}});     // fast: no finding
        addProcess(w, 100 * kMs, {{150 * kMs, {"-arch=sm_90"}, {{"ptx", "b.ptx", 2048}}}});    // 60 % of 250 ms
        addProcess(w, 10 * kMs, {{90 * kMs, {"-arch=sm_90"}, {{"cubin", "c.cubin", 2048}}}});  // under the 100 ms floor
        w.finalize();
    }
    const auto found = findingsOf(path);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].costNs, 150 * kMs);
    EXPECT_EQ(found[0].title.find("link-time optimisation"), std::string::npos) << "no LTO";
    EXPECT_NE(found[0].fix.find("Link only the inputs"), std::string::npos);
    EXPECT_NE(found[0].evidence.back().note.find("not recorded (compile with -fdevice-time-trace"), std::string::npos);
}
