// The text PyTorch prints for TORCH_LOGS=recompiles / recompiles_verbose and for the recompile limit.
//
// Why a grammar of its own: the same information has been printed in three shapes since 2023 and
// users paste all of them (tests/data/torch/README.md lists the public examples):
//   2024+, glog:    `[0/1] [__recompiles] Recompiling function fn in /x.py:3`
//                   `[0/1] [__recompiles]     triggered by the following guard failure(s):`
//                   `[0/1] [__recompiles]     - 0/0: tensor 'x' size mismatch at index 0. expected 3, actual 4`
//                   (before 2.5 without the `[0/1]` and without the `0/0: ` entry; recompiles_verbose
//                   adds `guard 0 failures:` per cache entry and an empty line after each group)
//   late 2023:      `[2023-11-15 ...] torch._dynamo.guards.__recompiles: [DEBUG] Recompiling function ...`
//                   and the same continuation lines
//   mid 2023 tuple: `('Recompiling function step in /x.py', "triggered by the following guard failure: L['t'] == 0")`
//                   or `..., 'triggered by the following guard failures: [\'a\', "b"]')`
//   limit warning:  `torch._dynamo hit config.recompile_limit (8)` (older `cache_size_limit (64)`), then
//                   `   function: 'f' (/x.py:3)`, `   last reason: 0/7: <guard text>`; with fullgraph=True
//                   the exception follows, unprefixed: `torch._dynamo.exc.FailOnRecompileLimitHit: recompile_limit
//                   reached with fullgraph=True. ...`
// Messages arrive here with the log prefix and the `[frame/compile]` id already removed (log_prefix.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs::ingest::torch {

// One failed guard, split into what it checked and the two values when the text says them.
struct GuardFailure {
    std::optional<std::string> entry{};  // "0/0": the cache entry whose guard failed (2024+ text)
    std::string text;                    // as printed, trailing blanks and `# source` comment removed
    std::string subject;                 // "size of L['x'] at index 0", "L['t']", or the whole text
    std::string expected, actual;        // "" when the text does not say
    int role = 0;                        // CS_ROLE_* of the subject (shape, type, other)
};
GuardFailure parseGuardFailure(std::string_view text);

enum class RecompileLineKind {
    Other,
    Header,        // Recompiling function <function> in <file>[:<line>]
    TriggeredBy,   // triggered by the following guard failure(s):
    GuardGroup,    // guard <n> failures:        (recompiles_verbose)
    Failure,       // - [<entry>: ]<guard text>
    Tuple,         // the 2023 tuple: header and failures on one line
    LimitHit,      // torch._dynamo hit config.<limit> (<value>)
    LimitFunction, //    function: '<function>' (<file>:<line>)
    LimitReason,   //    last reason: [<entry>: ]<guard text>
    LimitRaised,   // torch._dynamo.exc.FailOnRecompileLimitHit: <message>   (fullgraph=True)
};

struct RecompileLine {
    RecompileLineKind kind = RecompileLineKind::Other;
    bool verbose = false;      // tagged [__recompiles_verbose]
    std::string function, file;  // Header, Tuple, LimitFunction
    std::string limitName;       // LimitHit: "recompile_limit", "cache_size_limit", "accumulated_recompile_limit"
    long long limitValue = 0;
    std::string message;         // LimitRaised: the exception's message
    std::vector<GuardFailure> failures;  // Failure, LimitReason (one); Tuple (all)
};

RecompileLine parseRecompileLine(std::string_view message);

}  // namespace cs::ingest::torch
