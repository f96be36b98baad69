// util::LineReader (issue 40): lines as std::getline gives them, and a line past the bound cut
// without being held.
#include "core/util/line_reader.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> linesOf(const std::string& text, std::size_t max = cs::util::LineReader::kMaxLineBytes) {
    std::istringstream in(text);
    cs::util::LineReader r(in, max);
    std::vector<std::string> out;
    for (std::string line; r.next(line);) out.push_back(line);
    return out;
}

std::vector<std::string> getlines(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

TEST(LineReader, SplitsAsGetlineDoes) {
    for (const std::string& text : std::vector<std::string>{"", "a", "a\n", "a\nb", "\n", "\n\n", "a\r\nb\r\n", "x\n\ny\n",
                                                          std::string(200'000, 'z') + "\nshort\n" + std::string(70'000, 'q')})
        EXPECT_EQ(linesOf(text), getlines(text)) << text.size();
}

TEST(LineReader, CutsALineLongerThanTheBoundAndKeepsTheRestInStep) {
    const std::string longLine(300'000, 'x');  // across several 64 KiB reads
    std::istringstream in("first\n" + longLine + "\nafter\n" + std::string(100, 'y'));
    cs::util::LineReader r(in, 1000);
    std::string line;
    ASSERT_TRUE(r.next(line));
    EXPECT_EQ(line, "first");
    EXPECT_EQ(r.cutLength(), 0u);
    ASSERT_TRUE(r.next(line));
    EXPECT_EQ(r.cutLength(), 300'000u);
    EXPECT_EQ(line, std::string(64, 'x'));  // its first bytes, as an example
    ASSERT_TRUE(r.next(line));
    EXPECT_EQ(line, "after");
    EXPECT_EQ(r.cutLength(), 0u);
    ASSERT_TRUE(r.next(line));  // a last line without its newline
    EXPECT_EQ(line.size(), 100u);
    EXPECT_FALSE(r.next(line));
    EXPECT_EQ(linesOf(std::string(1000, 'a'), 1000), std::vector<std::string>{std::string(1000, 'a')});
}

}  // namespace
