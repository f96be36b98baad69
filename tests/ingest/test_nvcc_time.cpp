// nvcc --time and NVRTC --time CSV import: rows shaped as CUDA 13.0 prints them
// (docs/formats.md 5.3, 5.4), malformed rows counted in stats, and, where nvcc is installed, a file
// nvcc itself wrote.
#include "cli_process.h"
#include "core/trace/reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

using cs::test::process::runCli;
using cs::test::scalar;

namespace {
const char* kNvccCsv =
    "source file name , phase name , phase input files , phase output file , arch , tool, metric , unit\n"
    "k.cu , gcc (preprocessing 4) , k.cu  , /tmp/tmpxft_0001_k.cpp4.ii ,  , nvcc , 63.7580 , ms\n"
    "k.cu , cudafe++ , /tmp/tmpxft_0001_k.cpp4.ii  , /tmp/tmpxft_0001_k.cudafe1.cpp , compute_90 , nvcc , 244.6730 , ms\n"
    "k.cu , cicc ,  /tmp/tmpxft_0001_k.cpp1.ii  , /tmp/tmpxft_0001_k.ptx , compute_90 , nvcc , 225.4000 , ms\n"
    "k.cu , ptxas , /tmp/tmpxft_0001_k.ptx  , /tmp/tmpxft_0001_k.sm_90.cubin , sm_90 , nvcc , 40.5980 , ms\n"
    "k.cu , fatbinary , /tmp/a.cubin /tmp/a.ptx  , /tmp/k.fatbin ,  , nvcc , 3.6710 , ms\n"
    "k.cu , gcc (compiling) ,   , k.o , compute_90 , nvcc , 153.0590 , ms\n"
    " , nvcc (driver) ,  , k.o ,  , nvcc , 0.6859 , ms\n";
}  // namespace

TEST(NvccTimeImport, Cuda13NvccCsv) {
    cs::test::TempDir dir;
    auto in = dir.file("k.time.csv");
    cs::test::writeFile(in, kNvccCsv);
    auto out = dir.file("k.cstrace");
    auto res = runCli({"import", in, "-o", out});
    ASSERT_EQ(res.status, 0) << res.err;
    EXPECT_NE(res.out.find("nvcc-time, 7 records"), std::string::npos) << res.out;
    auto r = cs::trace::TraceReader::open(out);
    EXPECT_EQ(r->rowCount("phase_timings"), 7);
    EXPECT_EQ(scalar(*r, "SELECT dur_ns FROM phase_timings p JOIN strings s ON s.id=p.phase_sid WHERE s.str='cicc'"),
              225400000);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM phase_timings WHERE tool=1"), 7);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM phase_timings WHERE input_sid IS NULL"), 1);  // nvcc (driver)
    EXPECT_EQ(scalar(*r, "SELECT sum(dur_ns) FROM phase_timings"), 731844900);
    EXPECT_EQ(r->rowCount("stats"), 0);
}

TEST(NvccTimeImport, NvrtcCsvWithCrlfAndRepeatedHeader) {
    cs::test::TempDir dir;
    auto in = dir.file("nvrtc.csv");
    cs::test::writeFile(in,
                        "File name, phase name, metric, unit\r\n"
                        "wp_demo_abc1234.cu, CUDA C++ Frontend, 17, ms\r\n"
                        "wp_demo_abc1234.cu, NVVM Optimizer, 8, ms\r\n"
                        "File name, phase name, metric, unit\r\n"
                        "wp_demo_abc1234.cu, PTX Translation, 15, ms\r\n");
    auto out = dir.file("n.cstrace");
    ASSERT_EQ(runCli({"import", in, "-o", out}).status, 0);
    auto r = cs::trace::TraceReader::open(out);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM phase_timings WHERE tool=2"), 3);
    EXPECT_EQ(scalar(*r, "SELECT sum(dur_ns) FROM phase_timings"), 40000000);
}

TEST(NvccTimeImport, MalformedRowsAreCountedNotFatal) {
    cs::test::TempDir dir;
    auto in = dir.file("bad.csv");
    cs::test::writeFile(in,
                        "File name, phase name, metric, unit\n"
                        "a.cu, NVVM Optimizer, 8, ms\n"
                        "a.cu, only three, fields\n"
                        "a.cu, PTX Translation, fast, ms\n"
                        "a.cu, PTX Translation, 5, fortnights\n"
                        "a.cu, PTX Translation, -5, ms\n"
                        "a.cu, PTX Translation, 2, ms\n");
    auto out = dir.file("b.cstrace");
    auto res = runCli({"import", in, "-o", out});
    ASSERT_EQ(res.status, 0) << res.err;
    EXPECT_NE(res.out.find("4 malformed"), std::string::npos) << res.out;
    auto r = cs::trace::TraceReader::open(out);
    EXPECT_EQ(r->rowCount("phase_timings"), 2);
    EXPECT_EQ(scalar(*r, "SELECT count FROM stats WHERE name='malformed_record' AND source='nvcc-time'"), 4);
    auto info = runCli({"info", out});
    EXPECT_NE(info.out.find("bad.csv line 3: expected 4 fields, found 3"), std::string::npos) << info.out;
}

TEST(NvccTimeImport, RealNvccOutput) {
    const char* nvcc = "/usr/local/cuda/bin/nvcc";
    if (!std::filesystem::exists(nvcc)) GTEST_SKIP() << "nvcc not installed at " << nvcc << "; real-output check skipped";
    cs::test::TempDir dir;
    auto cu = dir.file("k.cu");
    cs::test::writeFile(cu, "__global__ void add(float* a, const float* b, int n) {\n"
                            "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += b[i]; }\n");
    auto csv = dir.file("time.csv");
    std::string cmd = std::string(nvcc) + " -c -arch=sm_90 --time " + csv + " -o " + dir.file("k.o") + " " + cu +
                      " > " + dir.file("nvcc.log") + " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cs::test::readFile(dir.file("nvcc.log"));
    auto out = dir.file("real.cstrace");
    auto res = runCli({"import", csv, "-o", out});
    ASSERT_EQ(res.status, 0) << res.err;
    auto r = cs::trace::TraceReader::open(out);
    EXPECT_GE(r->rowCount("phase_timings"), 4);
    EXPECT_EQ(r->rowCount("stats"), 0) << cs::test::readFile(csv);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM phase_timings p JOIN strings s ON s.id=p.phase_sid WHERE s.str='ptxas'"), 1);
    EXPECT_GT(scalar(*r, "SELECT min(dur_ns) FROM phase_timings"), -1);
}
