// Warp verbose-log import: every release's line shape (docs/formats.md 2.1, checked against NVIDIA/warp's
// context.py and ScopedTimer), with exact counts of events, compiled / cached, ms sums, distinct
// identities and hashes per name; and the noise real logs carry (ANSI colours, CRLF, indentation, a
// record glued after other output), malformed records counted in stats.
#include "cli_process.h"
#include "core/trace/reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

#include <iterator>
#include <random>

using cs::test::process::runCli;
using cs::test::scalar;

namespace {
struct Imported {
    cs::test::TempDir dir;
    std::unique_ptr<cs::trace::TraceReader> reader;
    cs::test::process::CliResult result;
};

std::unique_ptr<Imported> importLog(const std::string& content) {
    auto im = std::make_unique<Imported>();
    auto in = im->dir.file("warp.log");
    cs::test::writeFile(in, content);
    auto out = im->dir.file("w.cstrace");
    im->result = runCli({"import", in, "-o", out});
    EXPECT_EQ(im->result.status, 0) << im->result.err;
    EXPECT_NE(im->result.out.find("warp-log"), std::string::npos) << im->result.out;
    im->reader = cs::trace::TraceReader::open(out);
    return im;
}

const char* kLoadCount = "SELECT count(*) FROM module_loads";
const char* kCompiled = "SELECT count(*) FROM module_loads WHERE result=1";
const char* kCached = "SELECT count(*) FROM module_loads WHERE result=2";
const char* kMsSum = "SELECT sum(dur_ns) FROM module_loads";
const char* kIdentities =
    "SELECT count(*) FROM (SELECT DISTINCT name_sid, hash_sid, device_sid, block_dim FROM module_loads)";
// The value of argument `key` of span `span`.
std::string spanArg(const cs::trace::TraceReader& r, int span, const std::string& key) {
    return cs::test::textOf(r, "SELECT a.value FROM span_args a JOIN strings k ON k.id=a.key_sid WHERE a.span_id=" +
                                   std::to_string(span) + " AND k.str='" + key + "'");
}

std::string hashesOf(const std::string& name) {
    return "SELECT count(DISTINCT hash_sid) FROM module_loads m JOIN strings s ON s.id=m.name_sid WHERE s.str='" + name + "'";
}
}  // namespace

// v1.3+ (hash and status; two spaces before the status), as in mujoco_warp / newton issue logs.
TEST(WarpLogImport, CurrentFormWithHashAndStatus) {
    auto im = importLog(
        "Module my_app.physics 1a2b3c4 load on device 'cuda:0' took 2210.40 ms  (compiled)\n"
        "Module my_app.collide 5d6e7f8 load on device 'cuda:0' took 912.77 ms  (compiled)\n"
        "Module my_app.physics.kinematics 9a8b7c6 load on device 'cuda:0' took 0.52 ms  (cached)\n"
        "Module my_app.physics 3f4e5d6 load on device 'cuda:0' took 2105.00 ms  (compiled)\n"
        "Module my_app.collide 5d6e7f8 load on device 'cpu' took 1500.25 ms  (error)\n");
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, kLoadCount), 5);
    EXPECT_EQ(scalar(r, kCompiled), 3);
    EXPECT_EQ(scalar(r, kCached), 1);
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_loads WHERE result=3"), 1);
    EXPECT_EQ(scalar(r, kMsSum), 2210400000LL + 912770000 + 520000 + 2105000000 + 1500250000);
    EXPECT_EQ(scalar(r, kIdentities), 5);
    EXPECT_EQ(scalar(r, hashesOf("my_app.physics")), 2);
    EXPECT_EQ(scalar(r, hashesOf("my_app.collide")), 1);
    EXPECT_EQ(cs::test::textOf(r, "SELECT s.str FROM module_loads m JOIN strings s ON s.id=m.origin_sid WHERE m.id=2"), "warp.log:2");
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_loads WHERE block_dim IS NOT NULL"), 0);
    EXPECT_EQ(r.rowCount("stats"), 0);
}

// v1.9+ with verbose / LOG_DEBUG: the label gains "(block_dim=N)".
TEST(WarpLogImport, BlockDimForm) {
    auto im = importLog("Module app.stages 9004220 load on device 'cuda:0' (block_dim=128) took 361.16 ms  (compiled)\n"
                        "Module app.stages 9004220 load on device 'cuda:0' (block_dim=256) took 357.95 ms  (compiled)\n"
                        "Module __main__ b1faa06 load on device 'cpu' (block_dim=1) took 1772.27 ms  (cached)\n");
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, kLoadCount), 3);
    EXPECT_EQ(scalar(r, kCompiled), 2);
    EXPECT_EQ(scalar(r, kIdentities), 3);
    EXPECT_EQ(scalar(r, hashesOf("app.stages")), 1);
    EXPECT_EQ(scalar(r, "SELECT sum(block_dim) FROM module_loads"), 128 + 256 + 1);
    EXPECT_EQ(scalar(r, kMsSum), 361160000LL + 357950000 + 1772270000);
}

// Older releases: v1.2 (hash, no status), v0.5-v1.1 (no hash, no status), v0.1-v0.4 (no device), and
// strip_hash (no hash, with status).
TEST(WarpLogImport, OlderFormsWithoutHashOrStatus) {
    auto im = importLog("Module warp.sim.integrator_euler 8c1f2e3 load on device 'cuda:0' took 1402.11 ms\n"
                        "Module warp.sim.collide load on device 'cuda:0' took 880.00 ms\n"
                        "Module example_mesh load took 98.50 ms\n"
                        "Module pkg.stripped load on device 'cuda:0' took 12.00 ms  (cached)\n");
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, kLoadCount), 4);
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_loads WHERE result=0"), 3);
    EXPECT_EQ(scalar(r, kCached), 1);
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_loads WHERE hash_sid IS NULL"), 3);
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_loads WHERE device_sid IS NULL"), 1);
    EXPECT_EQ(cs::test::textOf(r, "SELECT s.str FROM module_loads m JOIN strings s ON s.id=m.hash_sid"), "8c1f2e3");
    EXPECT_EQ(scalar(r, kMsSum), 1402110000LL + 880000000 + 98500000 + 12000000);
    EXPECT_EQ(scalar(r, kIdentities), 4);
}

// Compile timers print when they exit, before their Module line and 4 spaces deeper per level; a
// user's own ScopedTimer around the loads shifts everything one level. Old releases print
// "Compile CUDA took" without details.
TEST(WarpLogImport, CompileTimersNestInTheirModule) {
    auto im = importLog("    Compile CUDA (arch=86a, mode=release, block_dim=256) took 410.20 ms\n"
                        "Module app.solver 1c2d3e4 load on device 'cuda:0' (block_dim=256) took 455.31 ms  (compiled)\n"
                        "        Compile x86 took 900.00 ms\n"
                        "    Module app.io 3333ccc load on device 'cpu' (block_dim=1) took 1010.00 ms  (compiled)\n"
                        "        Compile CUDA took 77.00 ms\n"
                        "    Module app.old 4444ddd load on device 'cuda:0' took 80.00 ms  (compiled)\n"
                        "step took 2000.00 ms\n"
                        "    Compile CUDA (arch=90, mode=debug, block_dim=64) took 5.00 ms\n");
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, kLoadCount), 3);
    EXPECT_EQ(scalar(r, "SELECT compile_ns FROM module_loads WHERE id=1"), 410200000);
    EXPECT_EQ(scalar(r, "SELECT compile_ns FROM module_loads WHERE id=2"), 900000000);
    EXPECT_EQ(scalar(r, "SELECT compile_ns FROM module_loads WHERE id=3"), 77000000);
    EXPECT_EQ(r.rowCount("phase_timings"), 4);  // the last timer has no module line: kept, unclaimed
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM phase_timings WHERE input_sid IS NULL"), 1);
    EXPECT_EQ(cs::test::textOf(r, "SELECT s.str FROM phase_timings p JOIN strings s ON s.id=p.arch_sid WHERE p.id=1"), "86a");
    EXPECT_EQ(scalar(r, "SELECT sum(dur_ns) FROM phase_timings"), 410200000LL + 900000000 + 77000000 + 5000000);
}

// The init banner, current form (Kernel cache path on its own line) and 0.9-1.0 form (colons).
TEST(WarpLogImport, InitBanner) {
    auto im = importLog("Warp 1.9.1 initialized:\n"
                        "   Git commit: 0123abc\n"
                        "   CUDA Toolkit 12.8, Driver 12.9\n"
                        "   Devices:\n"
                        "     \"cpu\"      : \"x86_64\"\n"
                        "     \"cuda:0\"   : \"NVIDIA GeForce RTX 4090\" (24 GiB, sm_89, mempool enabled)\n"
                        "   Kernel cache:\n"
                        "     /home/user/.cache/warp/1.9.1\n"
                        "Module app 1a2b3c4 load on device 'cuda:0' took 10.00 ms  (compiled)\n"
                        "Warp 0.9.0 initialized:\n"
                        "   CUDA Toolkit: 11.5, Driver: 12.0\n"
                        "   Devices:\n"
                        "     \"cpu\"    | x86_64\n"
                        "   Kernel cache: /tmp/kc\n"
                        "Warp initialized:\n"
                        "   Devices:\n"
                        "   Kernel cache: /tmp/old\n");
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM spans WHERE category=6"), 3);
    auto arg = [&](int span, const std::string& key) { return spanArg(r, span, key); };
    EXPECT_EQ(arg(1, "version"), "1.9.1");
    EXPECT_EQ(arg(1, "cuda_toolkit"), "12.8");
    EXPECT_EQ(arg(1, "driver"), "12.9");
    EXPECT_EQ(arg(1, "device cuda:0"), "\"NVIDIA GeForce RTX 4090\" (24 GiB, sm_89, mempool enabled)");
    EXPECT_EQ(arg(1, "kernel_cache"), "/home/user/.cache/warp/1.9.1");
    EXPECT_EQ(arg(2, "version"), "0.9.0");
    EXPECT_EQ(arg(2, "cuda_toolkit"), "11.5");
    EXPECT_EQ(arg(2, "driver"), "12.0");
    EXPECT_EQ(arg(2, "kernel_cache"), "/tmp/kc");
    EXPECT_EQ(arg(2, "device cpu"), "x86_64");
    EXPECT_EQ(arg(3, "version"), "<none>");  // before 0.6 the banner had no version
    EXPECT_EQ(arg(3, "kernel_cache"), "/tmp/old");
    EXPECT_EQ(scalar(r, kLoadCount), 1);
}

// ANSI colour codes, CRLF line ends, leading spaces and a record glued after a progress bar.
TEST(WarpLogImport, TerminalNoise) {
    auto im = importLog("\x1b[32mModule app.a 1111111 load on device 'cuda:0' took 10.50 ms  (compiled)\x1b[0m\r\n"
                        "  Module app.b 2222222 load on device 'cuda:0' took 20.25 ms  (cached)\r\n"
                        "Step 3/100 [=====>   ]Module app.c 3333333 load on device 'cpu' took 30.00 ms  (compiled)\n"
                        "\x1b[1;33mWarp UserWarning: something\x1b[0m\n"
                        "plain application output mentioning a Module without a load\n");
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, kLoadCount), 3);
    EXPECT_EQ(scalar(r, kCompiled), 2);
    EXPECT_EQ(scalar(r, kMsSum), 60750000);
    EXPECT_EQ(cs::test::textOf(r, "SELECT s.str FROM module_loads m JOIN strings s ON s.id=m.name_sid WHERE m.id=3"), "app.c");
    EXPECT_EQ(cs::test::textOf(r, "SELECT s.str FROM module_loads m JOIN strings s ON s.id=m.device_sid WHERE m.id=1"), "cuda:0");
    EXPECT_EQ(r.rowCount("stats"), 0);
}

// Debug level: timer entry markers give start times (interleaved markers overlap), and the
// hash-change lines put the changed kernel's old and new hash on the two loads.
TEST(WarpLogImport, DebugMarkersAndHashChanges) {
    auto im = importLog("Module a.x 1111aaa load on device 'cuda:0' (block_dim=256) ...\n"
                        "Module a.y 2222bbb load on device 'cuda:0' (block_dim=256) ...\n"
                        "Module a.x 1111aaa load on device 'cuda:0' (block_dim=256) took 100.00 ms  (compiled)\n"
                        "Module a.y 2222bbb load on device 'cuda:0' (block_dim=256) took 300.00 ms  (compiled)\n"
                        "[ModuleHasher] Kernel hash changed: scale (a1b2c3d4 -> e5f60718)\n"
                        "[ModuleHasher] Generic kernel hash changed: axpy_float32 (01234567 -> 89abcdef)\n"
                        "[Module.load] Module hash changed, recompiling: a.x (1111aaa0 -> 3333ccc0)\n"
                        "Module a.x 3333ccc load on device 'cuda:0' (block_dim=256) took 50.00 ms  (compiled)\n");
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, kLoadCount), 3);
    EXPECT_EQ(scalar(r, "SELECT start_ns FROM module_loads WHERE id=2"), 0);  // overlapped a.x
    EXPECT_EQ(scalar(r, "SELECT start_ns FROM module_loads WHERE id=3"), 300000000);
    EXPECT_EQ(scalar(r, "SELECT value FROM counters c JOIN strings s ON s.id=c.name_sid WHERE s.str='timer_entry_markers'"), 2);
    EXPECT_EQ(r.rowCount("module_kernels"), 4);
    EXPECT_EQ(cs::test::textOf(r, "SELECT d.str FROM module_kernels k JOIN strings d ON d.id=k.digest_sid JOIN strings n ON n.id=k.kernel_sid "
                      "WHERE k.load_id=1 AND n.str='scale'"),
              "a1b2c3d4");
    EXPECT_EQ(cs::test::textOf(r, "SELECT d.str FROM module_kernels k JOIN strings d ON d.id=k.digest_sid JOIN strings n ON n.id=k.kernel_sid "
                      "WHERE k.load_id=3 AND n.str='scale'"),
              "e5f60718");
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_kernels WHERE generic_sid IS NOT NULL"), 2);
    EXPECT_EQ(scalar(r, hashesOf("a.x")), 2);
}

// warp.launch's RuntimeError for a kernel missing from a loaded module (the CS-8 signal).
TEST(WarpLogImport, KernelLookupFailures) {
    auto im = importLog("Module app.k 1a2b3c4 load on device 'cpu' took 5.00 ms  (compiled)\n"
                        "RuntimeError: Failed to find forward kernel 'scale' from module 'app.k' for device 'cpu'\n"
                        "RuntimeError: Failed to find backward kernel 'make__locals__f' from module 'app.k' for device 'cuda:1'\n"
                        "Failed to find a kernel named 'g' in module app.k\n");
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM spans WHERE category=4"), 2);
    auto arg = [&](int span, const std::string& key) { return spanArg(r, span, key); };
    EXPECT_EQ(arg(1, "kernel"), "scale");
    EXPECT_EQ(arg(1, "module"), "app.k");
    EXPECT_EQ(arg(2, "device"), "cuda:1");
    EXPECT_EQ(arg(2, "kernel"), "make__locals__f");
    EXPECT_EQ(cs::test::textOf(r, "SELECT s.str FROM spans p JOIN strings s ON s.id=p.name_sid WHERE p.id=2"),
              "Failed to find backward kernel");
    EXPECT_EQ(r.rowCount("stats"), 0);
}

TEST(WarpLogImport, MalformedRecordsAreCounted) {
    auto im = importLog("Module ok.a 1111111 load on device 'cuda:0' took 1.00 ms  (compiled)\n"
                        "Module bad.a 2222222 load on device 'cuda:0' (block_dim=zero) took 1.00 ms  (compiled)\n"
                        "Module bad.b 3333333 load on device 'cuda:0' took fast ms  (compiled)\n"
                        "Module bad.c 4444444 load on device 'cuda:0' took 1.00 ms  (exploded)\n"
                        "Module bad.d 5555555 load on device 'cuda:0\n"
                        "    Compile CUDA (arch=86) took NaN ms\n"
                        "Module ok.b 6666666 load on device 'cpu' took 2.00 ms  (cached)\n");
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, kLoadCount), 2);
    EXPECT_NE(im->result.out.find("5 malformed"), std::string::npos) << im->result.out;
    EXPECT_EQ(scalar(r, "SELECT count FROM stats WHERE name='malformed_record' AND source='warp-log'"), 5);
    auto info = runCli({"info", im->dir.file("w.cstrace")});
    EXPECT_NE(info.out.find("warp.log line 2: bad block_dim"), std::string::npos) << info.out;
}

TEST(WarpLogImport, SniffedAmongOtherFormats) {
    cs::test::TempDir dir;
    auto log = dir.file("run.txt");
    cs::test::writeFile(log, "some output\nModule m 1234567 load on device 'cpu' took 1.00 ms  (cached)\n");
    auto out = dir.file("t.cstrace");
    auto res = runCli({"import", log, "-o", out});
    ASSERT_EQ(res.status, 0) << res.err;
    EXPECT_NE(res.out.find("warp-log, 1 records"), std::string::npos) << res.out;
}

// Untrusted input: lines cut and spliced from real records at random must never crash the parser,
// and whatever it accepts must be a well-formed load.
TEST(WarpLogImport, RandomSplicesNeverCrash) {
    const std::string pieces[] = {"Module ", "app.x ", "1a2b3c4 ", "load on device '", "cuda:0", "' ", "(block_dim=",
                                  "256) ", "took ", "12.5", " ms", "  (compiled)", "(cached)", "\x1b[31m", "\r", "    ",
                                  "Compile CUDA (arch=", "Compile x86 ", "...", "[Module.load] Module hash changed, recompiling: ",
                                  "(", " -> ", ")", "'", "Warp 1.0 initialized:", "\xff\xfe", "9999999999999999999999"};
    std::mt19937 rng(12345);
    std::string log;
    for (int line = 0; line < 5000; ++line) {
        int n = 1 + static_cast<int>(rng() % 12);
        for (int i = 0; i < n; ++i) log += pieces[rng() % std::size(pieces)];
        log += '\n';
    }
    auto im = importLog(log);
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_loads WHERE dur_ns < 0 OR name_sid IS NULL"), 0);
    EXPECT_GE(scalar(r, "SELECT count(*) FROM module_loads"), 0);
}
