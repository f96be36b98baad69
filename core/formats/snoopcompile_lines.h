// The grammar of SnoopCompile's printed invalidation trees, one line at a time.
//
// Why a formats file: the Julia importers sniff and filter pasted text with it, and the engine reads
// the trees back with it; neither layer may include the other, so the grammar sits below both. It
// follows SnoopCompile src/invalidations.jl `show(::MethodInvalidations)` and `showlist`
// (docs/formats.md, "Julia invalidations"): tree headers "<reason> <method> invalidated:", the REPL's
// "N-element Vector{SnoopCompile.MethodInvalidations}:", entries with "(N children)", elisions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cs::formats {

// What a printed line is, for readers that must tell tree lines from other text.
enum class PrintedLineKind { Blank, VectorHeader, TreeHeader, TreeBody, Elision, Other };
PrintedLineKind classifyPrintedLine(std::string_view line);

// Tree reasons a header may start with ("inserting ", "deleting ", ...).
extern const std::string_view kTreeReasons[4];

bool allDigits(std::string_view s);
std::int64_t toInt(std::string_view s);  // 0 when not a number
bool isVectorHeader(std::string_view trimmedLine);
bool isTreeHeader(std::string_view trimmedLine);
// "(12 children)" at the end of `s` (before an optional suffix such as " more specific"): returns
// the position of " (" and fills count and suffix; npos when absent.
size_t childrenAt(std::string_view s, std::int64_t& count, std::string& suffix);

}  // namespace cs::formats
