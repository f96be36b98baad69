// Logical checks of a trace that SQLite cannot make: what the schema promises but a damaged, edited
// or hostile file may break.
//
// Why: the page checksums (page_seal.h) catch damage to a sealed trace, but not a trace edited with
// `sqlite3`, written by another program, or left unfinished by a crash. Such a file used to read as
// data: a dangling id turned 3 findings into 9 ("the replay disagrees with the runtime on 12
// lookups"), a negative duration gave a negative cost, a NULL in a NOT NULL column threw
// "basic_string: construction from null is not valid". Now:
//  - a NULL where the schema says NOT NULL is an error naming the file, the table and the column
//    (nothing sensible can be read from such a row);
//  - a dangling reference (spans -> tracks, tracks -> sessions, key components -> lookups, ... every
//    column the schema documents as "<table>.id"), a negative duration and a session that ends
//    before it starts are counted and reported as trace problems, beside the figures they affect,
//    and the analyses skip the rows (they never become findings).
// One scan per table, with every check of that table folded into one aggregate query.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cs::trace {

class TraceReader;

struct TraceProblem {
    std::string kind;    // dangling_reference, negative_duration, end_before_start
    std::string table, column;
    std::int64_t count = 0;
    std::int64_t firstRowId = 0;
    std::string describe() const;  // one line for a user
};

// Throws TraceError(Corrupt) naming file, table and column for a NULL in a NOT NULL column.
std::vector<TraceProblem> checkTraceProblems(const TraceReader& reader);

}  // namespace cs::trace
