// A finding: one thing an analysis concluded about a trace, as data.
//
// Why data and not text: the CLI prints findings, `findings --json` exports them, the GUI lists them
// and jumps to their evidence on the timeline, and the HTML report renders them. One struct serves
// all four, and every analysis (cache replay, Warp module identity, Julia invalidations, CUDA) emits
// the same shape, so a user sees one list of "what went wrong, why, what it cost, how to fix it".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cs::engine {

enum class Severity { Info, Warning, Error };
const char* severityName(Severity s);

// A row of the trace that proves the finding: table name and its id (or rowid).
struct Evidence {
    std::string table;
    std::int64_t rowId = 0;
    std::string note;  // what this row shows, e.g. "second hash 9f8e7d6"
};

struct Finding {
    std::string kind;       // stable id, "<area>.<mechanism>", e.g. "cache.key_moves_per_step"
    Severity severity = Severity::Warning;
    std::string title;      // one line, names the subject: "module warp.sim built under 3 hashes"
    std::string mechanism;  // plain words: why it happened
    std::vector<Evidence> evidence;
    std::optional<std::int64_t> costNs;  // estimated time lost
    std::string fix;        // what to change
    std::optional<std::int64_t> sessionId;
    std::optional<std::int64_t> startNs, endNs;  // timeline range the GUI jumps to
};

// A finding of `kind` and `severity`, the rest to fill in.
inline Finding makeFinding(const char* kind, Severity severity) {
    Finding f;
    f.kind = kind;
    f.severity = severity;
    return f;
}

// Evidence in the user's words: "cache lookup 13: step 2: shape of arg 2 ...", never a table name.
std::string evidenceText(const Evidence& e);
// The thing a row is: "cache lookup 13", "module load 4", "span 9" ("" for a whole-table fact).
std::string evidenceSubject(const Evidence& e);

}  // namespace cs::engine
