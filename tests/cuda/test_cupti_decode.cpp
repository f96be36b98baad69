// CUPTI record decoding without a GPU: records built as the real structs of cupti_activity.h and
// cupti_callbacks.h (CUDA 13: CUpti_ActivityJit2, CUpti_ActivityKernel10, CUpti_ActivityOverhead3,
// CUpti_ModuleResourceData), passed through the same entry points the injection library uses.
#include "collectors/cuda/cupti/cupti_decode.h"

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace cs::cupti;

namespace {
const CUpti_Activity* asActivity(const void* p) { return static_cast<const CUpti_Activity*>(p); }
}  // namespace

TEST(CuptiDecode, JitCompileRecord) {
    CUpti_ActivityJit2 r;
    std::memset(&r, 0, sizeof r);
    r.kind = CUPTI_ACTIVITY_KIND_JIT;
    r.jitEntryType = CUPTI_ACTIVITY_JIT_ENTRY_PTX_TO_CUBIN;
    r.jitOperationType = CUPTI_ACTIVITY_JIT_OPERATION_COMPILE;
    r.deviceId = 1;
    r.start = 5'000'000;
    r.end = 7'500'000;
    r.correlationId = 42;
    r.jitOperationCorrelationId = 9;
    r.cacheSize = 123456;
    r.cachePath = "/home/u/.nv/ComputeCache/a/b";
    r.processId = 77;
    r.threadId = 78;
    Decoded d = decodeActivity(asActivity(&r), 1'000'000);
    ASSERT_EQ(d.type, RecordType::Jit);
    EXPECT_EQ(d.jit.startNs, 4'000'000);  // CUPTI clock minus the offset
    EXPECT_EQ(d.jit.durNs, 2'500'000);
    EXPECT_EQ(d.jit.entryType, CS_JIT_ENTRY_PTX_TO_CUBIN);
    EXPECT_EQ(d.jit.operation, CS_JIT_OP_COMPILE);
    EXPECT_EQ(d.jit.device, 1);
    EXPECT_EQ(d.jit.correlationId, 42);
    EXPECT_EQ(d.jit.jitCorrelationId, 9);
    EXPECT_EQ(d.jit.cacheBytes, 123456);
    EXPECT_EQ(d.jit.cachePath, "/home/u/.nv/ComputeCache/a/b");
    EXPECT_EQ(describe(d), "jit entry=ptx-to-cubin op=compile start=4000000 dur=2500000 corr=42 unit=9 "
                           "cache_bytes=123456 cache=/home/u/.nv/ComputeCache/a/b");
}

TEST(CuptiDecode, JitCacheLoadWithoutTimesAndUnknownCodes) {
    CUpti_ActivityJit2 r;
    std::memset(&r, 0, sizeof r);
    r.kind = CUPTI_ACTIVITY_KIND_JIT;
    r.jitEntryType = CUPTI_ACTIVITY_JIT_ENTRY_NVVM_IR_TO_PTX;
    r.jitOperationType = CUPTI_ACTIVITY_JIT_OPERATION_CACHE_LOAD;
    Decoded d = decodeActivity(asActivity(&r), 0);
    ASSERT_EQ(d.type, RecordType::Jit);
    // start = end = 0 means "not collected" (cupti_activity.h), not "at time zero".
    EXPECT_EQ(d.jit.startNs, kNone);
    EXPECT_EQ(d.jit.durNs, kNone);
    EXPECT_EQ(d.jit.entryType, CS_JIT_ENTRY_NVVM_IR_TO_PTX);
    EXPECT_EQ(d.jit.operation, CS_JIT_OP_CACHE_LOAD);
    EXPECT_TRUE(d.jit.cachePath.empty());

    r.jitEntryType = static_cast<CUpti_ActivityJitEntryType>(7);  // a code from a future CUPTI
    r.jitOperationType = static_cast<CUpti_ActivityJitOperationType>(9);
    d = decodeActivity(asActivity(&r), 0);
    EXPECT_EQ(d.jit.entryType, CS_JIT_ENTRY_INVALID);
    EXPECT_EQ(d.jit.operation, CS_JIT_OP_INVALID);
}

TEST(CuptiDecode, ConcurrentKernelRecord) {
    CUpti_ActivityKernel10 r;
    std::memset(&r, 0, sizeof r);
    r.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    r.start = 1000;
    r.end = 3500;
    r.gridX = 128, r.gridY = 2, r.gridZ = 1;
    r.blockX = 256, r.blockY = 1, r.blockZ = 1;
    r.staticSharedMemory = 1024;
    r.dynamicSharedMemory = 4096;
    r.streamId = 13;
    r.correlationId = 5;
    r.deviceId = 0;
    r.name = "_Z5saxpyfPKfPfi";
    Decoded d = decodeActivity(asActivity(&r), 0);
    ASSERT_EQ(d.type, RecordType::Launch);
    EXPECT_EQ(d.launch.startNs, 1000);
    EXPECT_EQ(d.launch.durNs, 2500);
    EXPECT_EQ(d.launch.grid[0], 128);
    EXPECT_EQ(d.launch.grid[1], 2);
    EXPECT_EQ(d.launch.block[0], 256);
    EXPECT_EQ(d.launch.sharedBytes, 5120);  // static + dynamic
    EXPECT_EQ(d.launch.stream, 13);
    EXPECT_EQ(d.launch.correlationId, 5);
    EXPECT_EQ(d.launch.name, "_Z5saxpyfPKfPfi");
    EXPECT_NE(describe(d).find("launch grid=128,2,1 block=256,1,1 shared=5120 stream=13"), std::string::npos);
    // The serial kernel kind uses the same record layout.
    r.kind = CUPTI_ACTIVITY_KIND_KERNEL;
    EXPECT_EQ(decodeActivity(asActivity(&r), 0).type, RecordType::Launch);
}

TEST(CuptiDecode, OverheadRecords) {
    CUpti_ActivityOverhead3 r;
    std::memset(&r, 0, sizeof r);
    r.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
    r.overheadKind = CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER;
    r.start = 100;
    r.end = 600;
    r.correlationId = 3;
    Decoded d = decodeActivity(asActivity(&r), 0);
    ASSERT_EQ(d.type, RecordType::Overhead);
    EXPECT_EQ(d.overhead.kind, "driver compiler");
    EXPECT_TRUE(d.overhead.compiler);
    EXPECT_EQ(d.overhead.durNs, 500);
    r.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
    d = decodeActivity(asActivity(&r), 0);
    EXPECT_EQ(d.overhead.kind, "cupti buffer flush");
    EXPECT_FALSE(d.overhead.compiler);
    r.end = 50;  // end before start: the duration is not trusted
    EXPECT_EQ(decodeActivity(asActivity(&r), 0).overhead.durNs, 0);
}

TEST(CuptiDecode, OtherKindsAreIgnored) {
    CUpti_Activity r{};
    r.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    EXPECT_EQ(decodeActivity(&r, 0).type, RecordType::Ignored);
    EXPECT_EQ(decodeActivity(nullptr, 0).type, RecordType::Ignored);
}

TEST(CuptiDecode, ModuleLoadAndUnloadCallbacks) {
    std::vector<char> cubin(3000);
    for (size_t i = 0; i < cubin.size(); ++i) cubin[i] = static_cast<char>(i * 7);
    CUpti_ModuleResourceData module{};
    module.moduleId = 4;
    module.cubinSize = cubin.size();
    module.pCubin = cubin.data();
    CUpti_ResourceData data{};
    data.resourceDescriptor = &module;

    ModuleEvent m;
    ASSERT_TRUE(decodeModule(CUPTI_CBID_RESOURCE_MODULE_LOADED, &data, m));
    EXPECT_EQ(m.op, CS_CUDA_MODULE_LOAD);
    EXPECT_EQ(m.moduleId, 4);
    EXPECT_EQ(m.cubinBytes, 3000);
    ASSERT_EQ(m.digest.size(), 16u);
    std::string loadDigest = m.digest;

    ASSERT_TRUE(decodeModule(CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING, &data, m));
    EXPECT_EQ(m.op, CS_CUDA_MODULE_UNLOAD);
    EXPECT_EQ(m.digest, loadDigest);  // same cubin, same digest
    EXPECT_EQ(describe(m), "module-unload id=4 cubin_bytes=3000 digest=" + loadDigest);

    cubin[1500] ^= 1;  // one bit of a different cubin changes the digest
    ASSERT_TRUE(decodeModule(CUPTI_CBID_RESOURCE_MODULE_LOADED, &data, m));
    EXPECT_NE(m.digest, loadDigest);

    EXPECT_FALSE(decodeModule(CUPTI_CBID_RESOURCE_CONTEXT_CREATED, &data, m));
    data.resourceDescriptor = nullptr;
    EXPECT_FALSE(decodeModule(CUPTI_CBID_RESOURCE_MODULE_LOADED, &data, m));
}
