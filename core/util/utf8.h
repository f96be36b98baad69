// UTF-8 validation shared by every writer of text for other programs (JSON, HTML).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cs::util {

// Length (1-4) of the valid UTF-8 sequence that starts at s[i], or 0 when the bytes there are not
// valid UTF-8 (truncated, overlong, surrogate, beyond U+10FFFF).
size_t utf8SequenceLength(std::string_view s, size_t i);

// The first `maxBytes` bytes of `s`, shortened to end on a character boundary, so text output never
// splits a UTF-8 character (a hash, a line quoted in a message). Invalid bytes count as one character.
std::string_view utf8Prefix(std::string_view s, size_t maxBytes);

// A file name as a message shows it: control characters (a newline in the name, an escape sequence)
// written as \n, \t, \r or \xHH, and a backslash doubled, so one message stays one line and a name
// cannot move the terminal's cursor. Everything else, UTF-8 included, is kept.
std::string printablePath(std::string_view path);

}  // namespace cs::util
