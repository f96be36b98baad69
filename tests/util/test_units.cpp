// The shared number formats: one function per format, so the CLI, the report and the GUI print the
// same figure the same way.
#include "core/util/units.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

TEST(Units, ShareRoundsHalfUpAndSaysWhenThereIsNoWhole) {
    EXPECT_EQ(cs::util::formatShare(87, 100), "87 %");
    EXPECT_EQ(cs::util::formatShare(1, 8), "13 %");  // 12.5 rounds up
    EXPECT_EQ(cs::util::formatShare(0, 5), "0 %");
    EXPECT_EQ(cs::util::formatShare(3, 2), "150 %");
    EXPECT_EQ(cs::util::formatShare(5, 0), "-");
    EXPECT_EQ(cs::util::formatShare(5, -1), "-");
    EXPECT_EQ(cs::util::formatShare(INT64_MAX, INT64_MAX), "100 %");
}

// Issue 40: the int64 limits are where saturating arithmetic stops, not durations of 292 years.
TEST(Units, SaturatedDurationsAreSaidNotShownAsValues) {
    EXPECT_EQ(cs::util::formatDuration(INT64_MAX), "> 292 years (saturated)");
    EXPECT_EQ(cs::util::formatDuration(INT64_MIN), "< -292 years (saturated)");
    EXPECT_EQ(cs::util::formatDuration(INT64_MAX - 5'000'000'000), "> 292 years (saturated)");  // an offset from it
    EXPECT_EQ(cs::util::formatDuration(9'000'000'000'000'000'000), "9000000000 s");  // a value, however large
    EXPECT_EQ(cs::util::formatDuration(-1), "-1 ns");
}

// Issue 40: the build report and the compile index printed "+" before any offset: "+> 292 years
// (saturated)" and "+-1 ns" read as values.
TEST(Units, OffsetsCarryAPlusOnlyBeforeAValue) {
    EXPECT_EQ(cs::util::formatOffset(1'500'000), "+1.50 ms");
    EXPECT_EQ(cs::util::formatOffset(0), "+0 ns");
    EXPECT_EQ(cs::util::formatOffset(-1), "-1 ns");
    EXPECT_EQ(cs::util::formatOffset(INT64_MAX), "> 292 years (saturated)");
    EXPECT_EQ(cs::util::formatOffset(INT64_MIN), "< -292 years (saturated)");
}

TEST(Units, FixedKeepsTheAskedDecimals) {
    EXPECT_EQ(cs::util::formatFixed(2.346, 2), "2.35");
    EXPECT_EQ(cs::util::formatFixed(1.0, 2), "1.00");
    EXPECT_EQ(cs::util::formatFixed(0.04, 1), "0.0");
}

}  // namespace

// The lists of ranks that check, the findings and the report print.
TEST(Units, FormatListJoinsAndCountsWhatItLeavesOut) {
    EXPECT_EQ(cs::util::formatList({}), "");
    EXPECT_EQ(cs::util::formatList({"r0"}), "r0");
    EXPECT_EQ(cs::util::formatList({"r0", "r1", "r2"}), "r0, r1, r2");
    EXPECT_EQ(cs::util::formatList({"r0", "r1", "r2"}, 2), "r0, r1, ... (3 in all)");
    EXPECT_EQ(cs::util::formatList({"r0", "r1"}, 2), "r0, r1");
}
