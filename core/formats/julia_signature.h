// Julia call signatures as text: one key for "the same MethodInstance" whether Julia printed it as
// `MethodInstance for show(::IOBuffer, ::Type)` (REPL, SnoopCompile) or as
// `precompile(Tuple{typeof(Base.show), Base.GenericIOBuffer{Array{UInt8, 1}}, Type})` (--trace-compile).
//
// Why a textual key: the invalidation log and the compile trace are printed by different printers.
// `show(::MethodInstance)` drops module qualifiers that are visible from Main and uses aliases
// (`Vector{T}`, `IOBuffer`); `jl_static_show` qualifies every name and expands aliases. To join them
// (the cost join of invalidation trees) both are reduced to `F:name(arg,arg)` or `T:Type(arg,...)` with
// module qualifiers removed, spaces removed and the common aliases folded. The key never guesses: two
// texts that differ after this folding are different MethodInstances to us.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cs::engine {

// Removes spaces, tabs and a trailing CR at both ends.
std::string_view trimSpaces(std::string_view s);

// Splits on `sep` at nesting depth 0 of (), {} and []; pieces are trimmed.
std::vector<std::string_view> splitTopLevel(std::string_view s, char sep);

// Key of a MethodInstance text ("MethodInstance for f(::A, ::B)", "CodeInstance for f(...)" or the bare
// call form "f(::A)"); "" when the text is not a call form.
// `qualifier`, when given, receives the module path written before the function name ("Enzyme" for
// "Enzyme.__init__()"; "" when unqualified).
std::string methodInstanceKey(std::string_view miText, std::string* qualifier = nullptr);

// Key of a precompile signature ("Tuple{typeof(f), A, B}", with or without "precompile(...)"); "" when
// it is not a Tuple type.
std::string precompileSignatureKey(std::string_view sig, std::string* qualifier = nullptr);

// True when a MethodInstance's qualifier (possibly empty: visible from Main) is consistent with a
// precompile statement's fully qualified one: equal, empty, or a trailing part of it.
bool qualifiersAgree(std::string_view miQualifier, std::string_view fullQualifier);

// The module a MethodInstance or Method text names: the qualifier of the function name
// ("Enzyme.Compiler.f(...)" -> "Enzyme"), or the module after " @ " / " in ... at " of a printed Method.
// "" when the text does not say.
std::string moduleOfText(std::string_view text);

}  // namespace cs::engine
