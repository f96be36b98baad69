// Reads text line by line with a bound on what one line may cost.
//
// Why (issue 40): the importers read with std::getline, which holds a line whole however long it
// is; a 2 GiB name on one line cost 8.4 GB of memory before SQLite refused the string ("NOT NULL
// constraint failed"). No line of a format we import comes near 16 MiB, so a longer line is cut
// there: the caller gets its first bytes and its full length, and the rest is read past without
// being held. The reader reads `in` ahead in 64 KiB chunks: nothing else may read `in` meanwhile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace cs::util {

class LineReader {
public:
    static constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

    explicit LineReader(std::istream& in, std::size_t maxLine = kMaxLineBytes);
    // The next line, without its '\n' (a '\r' before it stays, as with std::getline); false at the
    // end. A line longer than the limit comes back as its first 64 bytes, and cutLength() says so.
    bool next(std::string& line);
    // The full length in bytes of the line just returned when it was cut, else 0.
    std::uint64_t cutLength() const { return m_cut; }
    std::size_t maxLine() const { return m_max; }

private:
    bool fill();

    std::istream& m_in;
    std::size_t m_max;
    std::vector<char> m_buf;
    std::size_t m_pos = 0, m_len = 0;
    std::uint64_t m_cut = 0;
};

}  // namespace cs::util
