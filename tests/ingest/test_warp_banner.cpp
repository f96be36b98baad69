// Warp's init banner as users posted it (tests/data/warp/real/SOURCES.md): the git commit and the CUDA
// peer-access section are stored with the rest, a peer-access matrix row never overwrites a device; and
// a file forced through the Warp importer counts every line it could not use.
#include "cli_process.h"
#include "core/trace/reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using cs::test::process::runCli;
using cs::test::scalar;
using cs::test::textOf;

namespace {
std::string realLog(const std::string& name) {
    return (std::filesystem::path(cs::test::sourceDir()) / "tests/data/warp/real" / name).string();
}

struct Imported {
    cs::test::TempDir dir;
    std::string trace;
    cs::test::process::CliResult result;
    std::unique_ptr<cs::trace::TraceReader> reader;
};

std::unique_ptr<Imported> importFiles(std::vector<std::string> args) {
    auto im = std::make_unique<Imported>();
    im->trace = im->dir.file("t.cstrace");
    args.insert(args.begin(), "import");
    args.insert(args.end(), {"-o", im->trace});
    im->result = runCli(args);
    EXPECT_EQ(im->result.status, 0) << im->result.err;
    im->reader = cs::trace::TraceReader::open(im->trace);
    return im;
}

// The value of argument `key` of the first init span.
std::string bannerArg(const cs::trace::TraceReader& r, const std::string& key) {
    return textOf(r, "SELECT a.value FROM span_args a JOIN strings k ON k.id=a.key_sid JOIN spans s ON s.id=a.span_id "
                     "WHERE s.category=6 AND k.str='" + key + "' ORDER BY s.id LIMIT 1");
}
std::int64_t bannerArgCount(const cs::trace::TraceReader& r) {
    return scalar(r, "SELECT count(*) FROM span_args a JOIN spans s ON s.id=a.span_id WHERE s.category=6");
}
}  // namespace

// newton-physics/newton#918: a development build's banner carries "Git commit:".
TEST(WarpBanner, GitCommitOfADevelopmentBuild) {
    auto im = importFiles({realLog("newton_918_mpm_anymal.log")});
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM spans WHERE category=6"), 1);
    EXPECT_EQ(bannerArg(r, "version"), "1.10.0.dev20250915");
    EXPECT_EQ(bannerArg(r, "git_commit"), "5d02b9d7850f41f23d490ecb26eeb522d11e0410");
    EXPECT_EQ(bannerArg(r, "cuda_toolkit"), "12.8");
    EXPECT_EQ(bannerArg(r, "driver"), "12.8");
    EXPECT_EQ(bannerArg(r, "device cuda:0"), "\"NVIDIA L40S\" (44 GiB, sm_89, mempool enabled)");
    EXPECT_EQ(bannerArg(r, "kernel_cache"), "/root/.cache/warp/1.10.0.dev20250915");
    EXPECT_EQ(bannerArgCount(r), 7);  // version, git_commit, toolkit, driver, 2 devices, cache
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_loads"), 11);
    EXPECT_EQ(r.rowCount("stats"), 0);  // "Output:" is the application's line, not a loss
}

// facebookresearch/sam-3d-objects#87: two GPUs without peer access (the issue lost the indentation).
TEST(WarpBanner, PeerAccessNotSupported) {
    auto im = importFiles({realLog("sam3d_87_peer_not_supported.log")});
    auto& r = *im->reader;
    EXPECT_EQ(bannerArg(r, "peer_access"), "Not supported");
    EXPECT_EQ(bannerArg(r, "device cuda:1"), "\"NVIDIA GeForce RTX 3090\" (24 GiB, sm_86, mempool enabled)");
    EXPECT_EQ(bannerArg(r, "device cpu"), "\"x86_64\"");
    EXPECT_EQ(bannerArg(r, "kernel_cache"), "/home/asdf/.cache/warp/1.10.0");
    EXPECT_EQ(bannerArgCount(r), 8);
}

// Warp's documentation: four GPUs with full peer access; the banner ends the file (no cache lines).
TEST(WarpBanner, PeerAccessSupportedFully) {
    auto im = importFiles({realLog("warp_docs_peer_fully.log")});
    auto& r = *im->reader;
    EXPECT_EQ(bannerArg(r, "peer_access"), "Supported fully (all-directional)");
    EXPECT_EQ(bannerArg(r, "version"), "0.15.1");
    EXPECT_EQ(bannerArg(r, "device cuda:3"), "\"NVIDIA L40\" (48 GiB, sm_89, mempool enabled)");
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM span_args a JOIN strings k ON k.id=a.key_sid WHERE k.str LIKE 'device %'"), 5);
    EXPECT_EQ(bannerArgCount(r), 9);
}

// warp/_src/context.py: "Supported partially" is followed by one access-matrix row per GPU, printed
// like a device line; the rows are kept apart from the devices.
TEST(WarpBanner, PeerAccessMatrixRowsAreNotDevices) {
    auto im = importFiles({realLog("peer_partial_from_source.log")});
    auto& r = *im->reader;
    EXPECT_EQ(bannerArg(r, "peer_access"), "Supported partially (see access matrix)");
    EXPECT_EQ(bannerArg(r, "peer_access cuda:0"), "[1, 1, 0]");
    EXPECT_EQ(bannerArg(r, "peer_access cuda:1"), "[1, 1, 0]");
    EXPECT_EQ(bannerArg(r, "peer_access cuda:2"), "[0, 0, 1]");
    EXPECT_EQ(bannerArg(r, "device cuda:2"), "\"NVIDIA GeForce RTX 3070\" (8 GiB, sm_86, mempool enabled)");
    EXPECT_EQ(bannerArg(r, "kernel_cache"), "/home/user/.cache/warp/1.12.0");
    EXPECT_EQ(bannerArgCount(r), 12);  // version, toolkit, driver, 4 devices, peer_access + 3 rows, cache
}

// A Julia invalidation list forced through the Warp importer: nothing is Warp's, and every non-blank
// line is counted, so `info` cannot say "nothing dropped".
TEST(WarpForcedImport, NonWarpFileCountsEveryLine) {
    const std::string file =
        (std::filesystem::path(cs::test::sourceDir()) / "tests/data/julia/raw_worlds_48954.txt").string();
    std::int64_t nonBlank = 0;
    {
        std::ifstream in(file);
        for (std::string line; std::getline(in, line);) {
            auto first = line.find_first_not_of(" \t\r");
            if (first != std::string::npos) ++nonBlank;
        }
    }
    ASSERT_GT(nonBlank, 0);
    auto im = importFiles({file, "--format", "warp-log"});
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_loads"), 0);
    EXPECT_EQ(scalar(r, "SELECT count FROM stats WHERE name='unrecognised_line' AND source='warp-log'"), nonBlank);
    EXPECT_NE(im->result.out.find(std::to_string(nonBlank) + " lines not warp-log"), std::string::npos) << im->result.out;
    auto info = runCli({"info", im->trace});
    EXPECT_EQ(info.out.find("nothing dropped"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("unrecognised_line"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("raw_worlds_48954.txt line 1: not a Warp line"), std::string::npos) << info.out;
}

// A real Warp log forced with --format: only the application's own line is counted.
TEST(WarpForcedImport, RealLogCountsOnlyForeignLines) {
    auto im = importFiles({realLog("newton_918_mpm_anymal.log"), "--format", "warp-log"});
    auto& r = *im->reader;
    EXPECT_EQ(scalar(r, "SELECT count(*) FROM module_loads"), 11);
    EXPECT_EQ(scalar(r, "SELECT count FROM stats WHERE name='unrecognised_line'"), 1);  // "Output:"
}
