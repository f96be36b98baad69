// The lines around Julia's timings that say what was timed: REPL prompts, Logging's `[ Info:` and
// boxed `┌ Info:` messages (Pkg's "Precompiling X [uuid] (reason)", PrecompileTools' workload
// timings), and timing output pasted inside `#` comments.
//
// Why a grammar of its own: a `@time` line alone says how long, never what; users paste the prompt
// with it (`julia> @time using Plots`), and a first call is only comparable with its repeat when the
// two are paired by that expression. PrecompileTools (PRECOMPILETOOLS_TIMING=1, PrecompileTools.jl
// PR #72) prints each workload statement's time as an Info message, one line
// (`[ Info:    1255 ms: screen = GLMakie.singleton_screen(false)`) or a box whose first line carries
// the ms and whose body is the expression. Pkg says which package it precompiles and why the
// caches were not reused (`[ Info: Precompiling GLMakie [e9467ef8-...] (caches not reused: 1 for
// dependency identifier changed)`). Each parser takes one line with ANSI colours removed, says
// false when the line is not its form, and never throws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cs::ingest {

// "#  18.903280 seconds (...)" -> "  18.903280 seconds (...)": code that keeps its timings in
// comments. "#=" (a --trace-compile-timing prefix) is not a comment and is returned unchanged.
std::string_view uncommented(std::string_view line);

// "julia> @time f(1)" -> "@time f(1)" (also "julia>" alone -> "").
bool parseReplPrompt(std::string_view line, std::string& input);
// The expression an `@time` prompt timed: "@time f(1)" -> "f(1)", "@time @time_imports using Plots"
// -> "@time_imports using Plots"; "" when the input is not an @time call.
std::string timedExpression(std::string_view input);

// A line of the session around what was pasted, not of its output: a REPL or shell prompt
// ("julia> using SnoopCompile", "(@v1.10) pkg> add X", "% julia -q", "$ julia"), SnoopCompile's
// preamble ("using SnoopCompileCore", "invs = @snoop_invalidations using X;"), a Logging message
// ("[ Info: ...", "┌ Warning: ..."), or an elision a user typed ("... many deps omitted ...").
// Importers count such lines as unused information, never as lost data (issue 35).
bool isPasteContext(std::string_view line);

// Logging's frame of one message line: "[ Info: " (single line), "┌ Info: " (box head),
// "│ " (box body), "└ " (box end). Kind None when the line is not part of a log message.
enum class LogFrame { None, Single, BoxHead, BoxBody, BoxEnd };
LogFrame logFrame(std::string_view line, std::string_view& message);

// "Precompiling GLMakie [e9467ef8-e4e7-5192-8a1a-b1aee30e663a] (caches not reused: 1 for ...)".
struct PrecompilingLine {
    std::string package, uuid, reason;  // reason: the parenthesised text, "" when absent
};
bool parsePrecompilingMessage(std::string_view message, PrecompilingLine& out);

// PrecompileTools' "   1255 ms: screen = GLMakie.singleton_screen(false)"; a box head is
// "    167 ms:" with the expression on the following box lines (expression "").
struct WorkloadRow {
    std::int64_t ns = 0;
    std::string expression;
};
bool parseWorkloadMessage(std::string_view message, WorkloadRow& out);

}  // namespace cs::ingest
