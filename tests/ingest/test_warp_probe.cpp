// Import of warp_compile_probe.py's JSON report (keys as the probe writes them, NVIDIA/warp
// skills/warp-compile-time-optimizer/scripts/warp_compile_probe.py): module events become
// module_loads, the medians become warp.probe counters; bad events and bad documents are counted.
#include "cli_process.h"
#include "core/trace/reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

using cs::test::process::runCli;
using cs::test::scalar;

namespace {
std::int64_t counter(const cs::trace::TraceReader& r, const std::string& name) {
    return scalar(r, "SELECT c.value FROM counters c JOIN strings n ON n.id=c.name_sid JOIN strings s ON s.id=c.scope_sid "
                     "WHERE s.str='warp.probe' AND n.str='" + name + "'");
}

const char* kReport = R"({
  "command": ["python", "-m", "app"], "cwd": "/p", "label": "", "samples": 3, "failed_samples": 0,
  "cold_module_ms_median": 1208.66, "cold_module_ms_mad": 10.5, "cold_module_ms_values": [1208.66, 1199.1, 1220.0],
  "native_compile_ms_median": 1010.5, "warm_module_ms_median": 2.25,
  "cold_wall_ms_median": 4100.0, "cold_wall_ms_mad": 40.0, "cold_wall_ms_values": [4100.0, 4060.0, 4150.0],
  "warm_wall_ms_median": 2900.0, "compile_elapsed_ms_median": 1200.0, "compile_elapsed_ms_mad": 15.0,
  "overlap_factor": 1.0072, "identities": 3, "modules": 2, "compiled_events": 3, "cached_events": 1,
  "error_events": 0, "generated_source_bytes": 90210, "lto_artifacts": 0, "lto_bytes": 0,
  "module_events": [
    {"label": "app.filters 6eb476a", "device": "cuda:0", "block_dim": 256, "ms": 312.44, "status": "compiled", "name": "app.filters", "hash": "6eb476a"},
    {"label": "app.filters 17e6601", "device": "cuda:0", "block_dim": 256, "ms": 289.10, "status": "compiled", "name": "app.filters", "hash": "17e6601"},
    {"label": "app.stages 9004220", "device": "cuda:0", "block_dim": null, "ms": 607.12, "status": "compiled", "name": "app.stages", "hash": "9004220"},
    {"label": "app.util 1a2b3c4", "device": "cuda:0", "block_dim": null, "ms": 0.5, "status": "cached", "name": "app.util", "hash": "1a2b3c4"},
    {"label": "broken", "device": "cuda:0", "ms": "fast", "status": "compiled"},
    {"label": "x", "device": "cuda:0", "ms": 1.0, "status": "exploded"}
  ],
  "launches": [{"kernel": "k", "dim": [8], "device": "cuda:0", "dtypes": [], "block_dim": null, "adjoint": false}]
})";
}  // namespace

TEST(WarpProbeImport, ModuleEventsAndMedians) {
    cs::test::TempDir dir;
    auto in = dir.file("baseline.json");
    cs::test::writeFile(in, kReport);
    auto out = dir.file("p.cstrace");
    auto res = runCli({"import", in, "-o", out});
    ASSERT_EQ(res.status, 0) << res.err;
    EXPECT_NE(res.out.find("warp-probe"), std::string::npos) << res.out;
    EXPECT_NE(res.out.find("2 malformed"), std::string::npos) << res.out;
    auto r = cs::trace::TraceReader::open(out);
    EXPECT_EQ(r->rowCount("module_loads"), 4);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM module_loads WHERE result=1"), 3);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM module_loads WHERE result=2"), 1);
    EXPECT_EQ(scalar(*r, "SELECT sum(dur_ns) FROM module_loads"), 312440000LL + 289100000 + 607120000 + 500000);
    EXPECT_EQ(scalar(*r, "SELECT count(DISTINCT hash_sid) FROM module_loads m JOIN strings s ON s.id=m.name_sid "
                         "WHERE s.str='app.filters'"),
              2);
    EXPECT_EQ(scalar(*r, "SELECT count(*) FROM (SELECT DISTINCT name_sid, hash_sid, device_sid, block_dim FROM module_loads)"), 4);
    EXPECT_EQ(counter(*r, "cold_module_ns_median"), 1208660000);
    EXPECT_EQ(counter(*r, "warm_module_ns_median"), 2250000);
    EXPECT_EQ(counter(*r, "overlap_factor_milli"), 1007);
    EXPECT_EQ(counter(*r, "generated_source_bytes"), 90210);
    EXPECT_EQ(counter(*r, "launches"), 1);
    EXPECT_EQ(counter(*r, "samples"), 3);
    EXPECT_EQ(scalar(*r, "SELECT count FROM stats WHERE source='warp-probe'"), 2);
}

TEST(WarpProbeImport, InvalidJsonIsCountedNotFatal) {
    cs::test::TempDir dir;
    auto in = dir.file("cut.json");
    cs::test::writeFile(in, std::string(kReport).substr(0, 400));
    auto out = dir.file("c.cstrace");
    auto res = runCli({"import", in, "-o", out});
    ASSERT_EQ(res.status, 0) << res.err;
    EXPECT_NE(res.out.find("1 malformed"), std::string::npos) << res.out;
    auto r = cs::trace::TraceReader::open(out);
    EXPECT_EQ(r->rowCount("module_loads"), 0);
    auto info = runCli({"info", out});
    EXPECT_NE(info.out.find("not valid JSON"), std::string::npos) << info.out;
}
