// Plain text helpers of the fix generator: lines of a source file, unified diffs, Python call syntax.
//
// Why hand-written: the generator edits a few lines of a user's file (a keyword removed from a
// decorator, a line moved, a call inserted) and must print the edit as a unified diff `patch`
// applies. It never parses a whole language; each edit checks the exact text it expects and gives
// up (a snippet instead of a diff) when the text is not what it expects.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cs::engine::fix {

std::vector<std::string> splitLines(const std::string& text);  // without the line ends
std::string joinLines(const std::vector<std::string>& lines);   // each line ended by '\n'

// A unified diff of `before` -> `after` (one hunk over the changed region, 3 lines of context),
// headed `--- path` / `+++ path`; "" when nothing changed.
std::string unifiedDiff(const std::string& path, const std::vector<std::string>& before,
                        const std::vector<std::string>& after);

// "norm (/tmp/a.py:3)" -> {"norm", "/tmp/a.py", 3}: how the PyTorch and JAX importers name a program.
struct SourcePlace {
    std::string function, file;
    int line = 0;
};
std::optional<SourcePlace> placeOfProgram(const std::string& program);
// "/tmp/a.py:3" -> {"", "/tmp/a.py", 3}.
std::optional<SourcePlace> parseFileLine(const std::string& text);

std::string indentOf(const std::string& line);
bool isIdentifier(const std::string& s);
std::string trim(const std::string& s);
// The top-level comma-separated parts of `s` (brackets and quotes respected), each trimmed.
std::vector<std::string> splitArgs(const std::string& s);
// Index of the bracket closing the one at `open` in `s`, or npos.
size_t closingBracket(const std::string& s, size_t open);

// The 0-based line of `def NAME(` at or after the 1-based `from` line (decorators come first), or -1.
int findDef(const std::vector<std::string>& lines, const std::string& name, int from);
// The parameter names of the def at `defLine` (annotations and defaults dropped; self kept).
std::vector<std::string> defParameters(const std::vector<std::string>& lines, int defLine);

}  // namespace cs::engine::fix
