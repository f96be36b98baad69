// The Warp guide's (docs/warp.md) comparison rule (medians, inconclusive inside max(1% of baseline, 2 x baseline MAD),
// refusal on a changed launch topology) and the ledger reader.
#include "core/measure/comparison.h"
#include "core/measure/ledger.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace cs::measure;

TEST(Comparison, MedianAndMad) {
    EXPECT_EQ(median({5, 1, 3}), 3);
    EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_EQ(median({}), 0);
    // |x - 3| = 2, 1, 0, 1, 97 -> median 1
    EXPECT_EQ(medianAbsoluteDeviation({1, 2, 3, 4, 100}), 1);
    EXPECT_EQ(medianAbsoluteDeviation({7}), 0);
}

TEST(Comparison, InsideOnePercentIsInconclusive) {
    // Baseline 1000 ns with no spread: the band is 1% = 10 ns.
    EXPECT_EQ(compareSamples("m", {1000, 1000, 1000}, {1010, 1010, 1010}).verdict, CompareVerdict::Inconclusive);
    EXPECT_EQ(compareSamples("m", {1000, 1000, 1000}, {1011, 1011, 1011}).verdict, CompareVerdict::Worse);
    EXPECT_EQ(compareSamples("m", {1000, 1000, 1000}, {989, 989}).verdict, CompareVerdict::Better);
}

TEST(Comparison, TwiceTheMadWidensTheBand) {
    // Baseline median 1000, MAD 100 -> band 200: 1150 is noise, 1250 is a regression.
    auto c = compareSamples("m", {900, 1000, 1100}, {1150});
    EXPECT_EQ(c.band, 200);
    EXPECT_EQ(c.verdict, CompareVerdict::Inconclusive);
    EXPECT_EQ(compareSamples("m", {900, 1000, 1100}, {1250}).verdict, CompareVerdict::Worse);
}

TEST(Comparison, MetricsOnOneSideOnly) {
    auto rows = compareAll({{"a", {10}}, {"b", {5}}}, {{"b", {5}}, {"c", {7}}});
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].metric, "a");
    EXPECT_EQ(rows[0].verdict, CompareVerdict::OnlyBaseline);
    EXPECT_EQ(rows[1].metric, "c");
    EXPECT_EQ(rows[1].verdict, CompareVerdict::OnlyCandidate);
    EXPECT_EQ(rows[2].verdict, CompareVerdict::Inconclusive);
}

TEST(Comparison, TopologyDifferences) {
    EXPECT_TRUE(topologyDifferences({{"k grid(1)", 3}}, {{"k grid(1)", 3}}).empty());
    auto d = topologyDifferences({{"k grid(1)", 3}}, {{"k grid(1)", 2}, {"k2 grid(4)", 1}});
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0], "k grid(1): 3 launch(es) in baseline, 2 in candidate");
    EXPECT_EQ(d[1], "k2 grid(4): 0 launch(es) in baseline, 1 in candidate");
}

TEST(Ledger, MarkdownTableAsTheSeedPrintsIt) {
    auto l = parseLedger("| Option | Measured | Why not taken | To take it |\n| --- | ---: | --- | --- |\n"
                         "| `enable_backward=False` on `pkg.solver` | -38% cold | a live tape traverses these kernels "
                         "| set at the entry point, then re-check adjoints |\n"
                         "| `max_unroll=4` | -2%, inside noise | changes generated code for no measured gain | - |\n",
                         "ledger.md");
    ASSERT_EQ(l.rows.size(), 2u);
    EXPECT_EQ(l.rows[0].option, "`enable_backward=False` on `pkg.solver`");
    EXPECT_EQ(l.rows[0].measured, "-38% cold");
    EXPECT_EQ(l.rows[1].toTakeIt, "-");
}

TEST(Ledger, JsonArray) {
    auto l = parseLedger(R"([{"option":"max_unroll=4","measured":"-2%","why_not_taken":"noise","to_take_it":"-"}])",
                         "l.json");
    ASSERT_EQ(l.rows.size(), 1u);
    EXPECT_EQ(l.rows[0].whyNotTaken, "noise");
}

TEST(Ledger, MalformedInputNamesTheLine) {
    try {
        parseLedger("| a | b | c | d |\n| x | y |\n", "bad.md");
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "ledger bad.md:2: expected 4 columns, found 2");
    }
    EXPECT_THROW(parseLedger("[1, 2]", "l.json"), std::runtime_error);
    EXPECT_THROW(parseLedger("{\"a\": ", "l.json"), std::runtime_error);
    EXPECT_THROW(parseLedger("", "empty.md"), std::runtime_error);
}
