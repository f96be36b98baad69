// Scenario files (tests/engine/scenarios/*.scn): a small, readable text DSL for cache traces.
//
// Why a DSL: each golden scenario restates one outcome sentence of the ReactantNitro guide (docs/cache-replay.md) as the events a runtime
// would record, short enough to read next to the sentence it tests. The builder turns a scenario into
// a real .cstrace through TraceSink (trace_sink.h), the single point to switch to the collector ABI.
//
// Grammar, one statement per line ('#' starts a comment):
//   run: ARGS...                      a command to run on the built trace(s); trace paths are appended
//   trace NAME                        start trace file NAME.cstrace (default "t"); several = ranks
//   session [RUNTIME]                 start a new process (its own cache); the first is implicit
//   cache NAME | handle NAME          defaults for the following lookups
//   step N [LABEL]                    the runtime's step counter (a steps row; lookups carry it)
//   key PROGRAM COMPONENT...          default key components of PROGRAM (later ones replace by name)
//   lookup PROGRAM hit|miss|unknown [handle=H] [compile=496s] [fp=G] [step=N] [COMPONENT...]
//   closure METHOD[@WORLD]...         dependency closure of the previous lookup (a miss)
//   define|redefine|delete METHOD [world=W]
//   counters hits=H misses=M entries=E   a cache_stats() snapshot
//   wait DURATION                     advance the clock
// COMPONENT is ROLE[NAME]=VALUE or ROLE=VALUE, ROLE one of function world shape graphconst keyword
// device host type option other. Names follow the collector's convention: shape[arg 2] is "shape of
// arg 2", world[loss] is "world of loss", type[arg 1] is "type of arg 1", graphconst is "GraphConst
// hash"; keyword, device, host, option and other use NAME as is; ROLE["NAME"] is NAME verbatim. Every event advances the clock 1 ms,
// a compile by its duration, so traces are deterministic.
#pragma once

#include "trace_sink.h"

#include <functional>
#include <string>
#include <vector>

namespace cs::test {

struct BuiltScenario {
    std::vector<std::string> runs;        // argument strings of each `run:` line
    std::vector<std::string> tracePaths;  // in declaration order
};

using SinkFactory = std::function<std::unique_ptr<TraceSink>(const std::string& path)>;

// Parses `text` (named `origin` in errors) and writes its traces into `dir`. Throws
// std::runtime_error("origin:line: reason") on a malformed statement.
BuiltScenario buildScenario(const std::string& text, const std::string& origin, const std::string& dir,
                            const SinkFactory& makeSink = makeWriterSink);

// Splits a line on blanks, keeping [bracketed parts] whole.
std::vector<std::string> scenarioTokens(const std::string& line);

}  // namespace cs::test
