// Program identity and the values that change it every run, without NVRTC: the pure functions of
// core/engine/cuda/cuda_programs.h. (The same rules on real NVRTC compiles: tests/cuda/test_cuda_record.cpp.)
#include "core/engine/cuda/cuda_programs.h"

#include <compilescope/trace_constants.h>

#include <gtest/gtest.h>

using cs::engine::cuda::programIdentity;
using cs::engine::cuda::volatileValue;

TEST(CudaIdentity, EveryInputOfTheCompileMovesIt) {
    const std::vector<std::string> fast = {"--gpu-architecture=compute_90", "--use_fast_math"};
    const auto base = programIdentity(CS_CUDA_NVRTC, 13000, "00112233aabbccdd", fast);
    EXPECT_EQ(base.size(), 16u);
    EXPECT_EQ(base, programIdentity(CS_CUDA_NVRTC, 13000, "00112233aabbccdd", fast));
    EXPECT_NE(base, programIdentity(CS_CUDA_NVRTC, 13000, "00112233aabbccdd", {"--gpu-architecture=compute_90", "-G"}));
    EXPECT_NE(base, programIdentity(CS_CUDA_NVRTC, 13000, "00112233aabbccdd", {"--use_fast_math", "--gpu-architecture=compute_90"}))
        << "options are in order";
    EXPECT_NE(base, programIdentity(CS_CUDA_NVRTC, 12080, "00112233aabbccdd", fast)) << "another NVRTC";
    EXPECT_NE(base, programIdentity(CS_CUDA_NVRTC, std::nullopt, "00112233aabbccdd", fast));
    EXPECT_NE(base, programIdentity(CS_CUDA_NVJITLINK, 13000, "00112233aabbccdd", fast));
    EXPECT_NE(base, programIdentity(CS_CUDA_NVRTC, 13000, "00112233aabbccde", fast));
    // Field boundaries count: ("-a", "b") is not ("-ab").
    EXPECT_NE(programIdentity(CS_CUDA_NVRTC, 13000, "d", {"-a", "b"}), programIdentity(CS_CUDA_NVRTC, 13000, "d", {"-ab"}));
}

TEST(CudaIdentity, ValuesThatChangeEveryRun) {
    EXPECT_EQ(volatileValue("-DBUILD_DATE=\"2026-12-01\""), "a date");
    EXPECT_EQ(volatileValue("-DBUILD_STAMP=2026/12/01T09:00:00"), "a date");
    EXPECT_EQ(volatileValue("-DBUILT=\"Dec  1 2026\""), "a date");  // __DATE__'s form
    EXPECT_EQ(volatileValue("-DBUILT=\"Nov 30 2026\""), "a date");
    EXPECT_EQ(volatileValue("-DBUILD_TIME=\"17:52:41\""), "a time of day");
    EXPECT_EQ(volatileValue("-I/tmp/tmpk3j2x9/include"), "a temporary path");
    EXPECT_EQ(volatileValue("--include-path=/var/tmp/build-81"), "a temporary path");
    // Stable options, and a literal __DATE__ (the option text, and so the identity, does not move).
    for (const char* stable : {"--gpu-architecture=compute_90", "-DN=2026", "-DV=12:30", "-DVERSION=1.2.3",
                               "-DX=__DATE__", "-I/usr/local/cuda/include", "-DMONTHS=Jan", "-DA=20261201", ""})
        EXPECT_EQ(volatileValue(stable), std::nullopt) << stable;
}
