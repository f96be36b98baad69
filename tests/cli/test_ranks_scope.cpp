// Ranks only for ranks (issue 35): `check` over traces of unrelated programs judges each on its own,
// side by side, and never says they diverge or that one is a slow rank; --ranks compares them
// anyway. Inputs are public logs of tests/data, imported as a user imports them.
#include "cli_runner.h"
#include "test_util.h"

#include <gtest/gtest.h>

namespace {
using cs::test::runCli;

std::string importOne(const cs::test::TempDir& dir, const std::string& rel, const std::string& name) {
    const std::string out = dir.file(name);
    auto r = runCli({"import", std::string(COMPILESCOPE_SOURCE_DIR) + "/tests/data/" + rel, "-o", out});
    EXPECT_EQ(r.status, 0) << r.err;
    return out;
}
}  // namespace

TEST(RanksScope, UnrelatedTracesAreNotComparedAsRanksUnlessAsked) {
    cs::test::TempDir dir;
    // Three PyTorch programs, each from its own TORCH_LOGS log.
    const std::string a = importOne(dir, "torch/recompiles_tuple_2023_issue99091.log", "a.cstrace");
    const std::string b = importOne(dir, "torch/recompiles_ids_issue148179.log", "b.cstrace");
    const std::string c = importOne(dir, "torch/recompiles_no_id_issue123784.log", "c.cstrace");
    auto apart = runCli({"check", a, b, c});
    EXPECT_EQ(apart.out.find("DIVERGE"), std::string::npos) << apart.out;
    EXPECT_EQ(apart.out.find("slow"), std::string::npos) << apart.out;
    EXPECT_NE(apart.out.find("ranks: not compared"), std::string::npos) << apart.out;
    auto asked = runCli({"check", "--ranks", a, b, c});
    EXPECT_EQ(asked.out.find("ranks: not compared"), std::string::npos) << asked.out;
    EXPECT_NE(asked.out.find("DIVERGE"), std::string::npos) << asked.out;  // different programs compiled
}

// The same log imported twice is one program's two runs: compared as ranks without --ranks.
TEST(RanksScope, TracesOfOneProgramAreComparedAsRanks) {
    cs::test::TempDir dir;
    const std::string a = importOne(dir, "torch/recompiles_tuple_2023_issue99091.log", "a.cstrace");
    const std::string b = importOne(dir, "torch/recompiles_tuple_2023_issue99091.log", "b.cstrace");
    auto r = runCli({"check", a, b});
    EXPECT_EQ(r.out.find("ranks: not compared"), std::string::npos) << r.out;
}
