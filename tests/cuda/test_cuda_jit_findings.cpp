// The JIT-at-load findings from CUPTI records, without a GPU: CUpti_ActivityJit2 records built
// exactly as cupti_activity.h lays them out (CUDA 13), decoded by the injection library's own
// decoder (collectors/cuda/cupti/cupti_decode.h), written to a trace as the recorder writes them,
// then analysed the way every view analyses a trace (engine::analyseTrace).
//
// Runs: cold (the driver compiles PTX -> CUBIN and stores it in the compute cache), warm (a cache
// load), and a third run that compiles the same cache entry again (the cache was not kept).
// tests/device/cupti_check.sh produces the same finding from a real GPU run.
#include "collectors/cuda/cupti/cupti_decode.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

using cs::engine::Finding;

struct Jit {
    CUpti_ActivityJitOperationType op;
    std::uint64_t start, end;  // CUPTI's clock; 0 and 0 when CUPTI did not collect the times
    const char* cachePath;
    std::uint32_t device = 0;
};

CUpti_ActivityJit2 record(const Jit& j, std::uint64_t unit) {
    CUpti_ActivityJit2 r;
    std::memset(&r, 0, sizeof r);
    r.kind = CUPTI_ACTIVITY_KIND_JIT;
    r.jitEntryType = CUPTI_ACTIVITY_JIT_ENTRY_PTX_TO_CUBIN;
    r.jitOperationType = j.op;
    r.deviceId = j.device;
    r.start = j.start;
    r.end = j.end;
    r.correlationId = static_cast<std::uint32_t>(unit + 100);
    r.jitOperationCorrelationId = unit;
    r.cacheSize = 48'000;
    r.cachePath = j.cachePath;
    r.processId = 4242;
    r.threadId = 4243;
    return r;
}

cs::trace::OptInt opt(std::int64_t v) { return v == cs::cupti::kNone ? cs::trace::OptInt{} : cs::trace::OptInt{v}; }

// One session per run, each run's records decoded and written as the recorder writes them.
std::string writeRuns(const cs::test::TempDir& dir, const std::vector<std::vector<Jit>>& runs) {
    const std::string path = dir.file("jit.cstrace");
    cs::trace::TraceWriter w(path);
    std::uint64_t unit = 1;
    std::int64_t t = 0;
    for (const auto& run : runs) {
        auto session = w.addSession({.runtime = w.intern("cuda"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = t});
        for (const Jit& j : run) {
            CUpti_ActivityJit2 r = record(j, unit++);
            auto d = cs::cupti::decodeActivity(reinterpret_cast<const CUpti_Activity*>(&r), 0);
            EXPECT_EQ(d.type, cs::cupti::RecordType::Jit);
            cs::trace::CudaJitRecord rec;
            rec.sessionId = session;
            rec.startNs = opt(d.jit.startNs);
            rec.durNs = opt(d.jit.durNs);
            rec.entryType = d.jit.entryType;
            rec.operation = d.jit.operation;
            rec.device = opt(d.jit.device);
            rec.correlationId = opt(d.jit.correlationId);
            rec.jitCorrelationId = opt(d.jit.jitCorrelationId);
            rec.cachePath = d.jit.cachePath.empty() ? 0 : w.intern(d.jit.cachePath);
            rec.cacheBytes = opt(d.jit.cacheBytes);
            w.addCudaJit(rec);
        }
        t += 1'000'000'000;
        w.endSession(session, t - 1, 0);
    }
    w.finalize();
    return path;
}

std::vector<const Finding*> ofKind(const cs::engine::TraceAnalysis& a, const std::string& kind) {
    std::vector<const Finding*> out;
    for (const auto& f : a.findings)
        if (f.kind == kind) out.push_back(&f);
    return out;
}

constexpr const char* kEntry = "/home/u/.nv/ComputeCache/7/3/4f1c2a";

}  // namespace

TEST(CudaJitFindings, JitAtLoadAndACacheThatWasNotKept) {
    cs::test::TempDir dir;
    auto path = writeRuns(dir, {
        // cold: compiled at load (25 ms) and stored
        {{CUPTI_ACTIVITY_JIT_OPERATION_COMPILE, 10'000'000, 35'000'000, kEntry},
         {CUPTI_ACTIVITY_JIT_OPERATION_CACHE_STORE, 35'000'000, 35'400'000, kEntry}},
        // warm: loaded from the cache
        {{CUPTI_ACTIVITY_JIT_OPERATION_CACHE_LOAD, 1'010'000'000, 1'010'300'000, kEntry}},
        // the same entry compiled again (30 ms): the cache was not kept
        {{CUPTI_ACTIVITY_JIT_OPERATION_COMPILE, 2'010'000'000, 2'040'000'000, kEntry},
         {CUPTI_ACTIVITY_JIT_OPERATION_CACHE_STORE, 2'040'000'000, 2'040'500'000, kEntry}},
    });
    auto reader = cs::trace::TraceReader::open(path);
    auto a = cs::engine::analyseTrace(*reader);
    ASSERT_TRUE(a->cudaPrograms);
    ASSERT_EQ(a->cudaPrograms->jit.size(), 5u);

    auto atLoad = ofKind(*a, "cuda.jit_at_load");
    ASSERT_EQ(atLoad.size(), 2u) << "one per run that compiled; the warm run only loaded";
    EXPECT_EQ(atLoad[0]->costNs, 25'000'000);
    EXPECT_EQ(atLoad[1]->costNs, 30'000'000);
    EXPECT_NE(atLoad[0]->fix.find("-gencode"), std::string::npos);
    ASSERT_EQ(atLoad[0]->evidence.size(), 1u);
    EXPECT_EQ(atLoad[0]->evidence[0].table, "cuda_jit");
    EXPECT_NE(cs::engine::evidenceText(atLoad[0]->evidence[0]).find("driver JIT record"), std::string::npos);
    EXPECT_NE(atLoad[0]->title.find("device 0"), std::string::npos) << atLoad[0]->title;

    auto notKept = ofKind(*a, "cuda.jit_cache_not_kept");
    ASSERT_EQ(notKept.size(), 1u);
    EXPECT_EQ(notKept[0]->costNs, 30'000'000);
    EXPECT_EQ(notKept[0]->sessionId, 3);
    EXPECT_NE(notKept[0]->fix.find("CUDA_CACHE_PATH"), std::string::npos);
    EXPECT_NE(notKept[0]->fix.find("CUDA_CACHE_MAXSIZE"), std::string::npos);
    ASSERT_FALSE(notKept[0]->evidence.empty());
    EXPECT_NE(notKept[0]->evidence[0].note.find(kEntry), std::string::npos);
}

TEST(CudaJitFindings, CacheUnderATemporaryDirectory) {
    cs::test::TempDir dir;
    auto path = writeRuns(dir, {{{CUPTI_ACTIVITY_JIT_OPERATION_COMPILE, 1'000, 2'001'000, "/tmp/job-81/nv/ComputeCache/1/2/ab"},
                                 {CUPTI_ACTIVITY_JIT_OPERATION_CACHE_STORE, 2'001'000, 2'002'000, "/tmp/job-81/nv/ComputeCache/1/2/ab"}}});
    auto a = cs::engine::analyseTraceFile(path);
    EXPECT_EQ(ofKind(*a, "cuda.jit_at_load").size(), 1u);
    auto notKept = ofKind(*a, "cuda.jit_cache_not_kept");
    ASSERT_EQ(notKept.size(), 1u);
    EXPECT_NE(notKept[0]->mechanism.find("temporary directory"), std::string::npos);
}

TEST(CudaJitFindings, WarmRunsAndUntimedRecords) {
    cs::test::TempDir dir;
    // Only cache loads: nothing to change. A compile CUPTI did not time (start = end = 0) still
    // counts, without a cost.
    auto path = writeRuns(dir, {{{CUPTI_ACTIVITY_JIT_OPERATION_CACHE_LOAD, 1'000, 2'000, kEntry}},
                                {{CUPTI_ACTIVITY_JIT_OPERATION_COMPILE, 0, 0, kEntry, 1}}});
    auto a = cs::engine::analyseTraceFile(path);
    auto atLoad = ofKind(*a, "cuda.jit_at_load");
    ASSERT_EQ(atLoad.size(), 1u);
    EXPECT_EQ(atLoad[0]->sessionId, 2);
    EXPECT_FALSE(atLoad[0]->costNs.has_value());
    EXPECT_NE(atLoad[0]->title.find("device 1"), std::string::npos);
    EXPECT_TRUE(ofKind(*a, "cuda.jit_cache_not_kept").empty());
}
