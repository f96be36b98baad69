// The Ranks view's snapshot: every open trace read as a rank of one job, compared by
// engine::compareRanks over their analyses (engine/analysis/rank_compare.h: the numbers `check` and the
// report's Ranks section show), one row per rank: its compile time, against the median rank's, its
// misses, whether it is slow, and how many divergent programs and steps it is on the odd side of.
//
// Why in the GUI: a user who opens 256 ranks sees 256 collapsed groups; which rank holds the job
// back, and which compiled a program the others did not, must be one look away, not a report away.
// Ranks still loading take no part: the comparison covers the ranks analysed so far, and says so.
#pragma once

#include "table_model.h"
#include "trace_document.h"

#include "core/engine/cache/rank_divergence.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace cs::gui {

struct RankRow {
    int doc = -1;  // index into the window's documents
    QString label;  // the trace's distinguishing name ("rank17/trace.cstrace")
    QString path;
    bool analysed = false;
    std::int64_t compileNs = 0;
    std::optional<double> timesMedian;  // compile time / the median rank's (three ranks or more)
    std::optional<std::int64_t> misses;  // the trace's "misses" figure (trace_figures.h); unset: none recorded
    int programsApart = 0;  // divergent programs on which this rank is on the smaller side
    int stepsApart = 0;     // steps at which this rank is on the smaller side (missed, or hit)
    bool slow = false;
    bool compared = true;  // RanksSnapshot::compared
};

struct RanksSnapshot {
    engine::RankDivergence divergence;
    FindingsPtr findings;  // engine::rankDivergenceFindings: divergent programs, slow ranks
    std::vector<RankRow> rows;  // in document order
    int waiting = 0;  // ranks not analysed yet
    // false: traces of different programs, not opened with --ranks (engine::tracesOfOneProgram):
    // side by side, with no divergence, slow rank or rank note (issue 35).
    bool compared = true;
};
using RanksPtr = std::shared_ptr<const RanksSnapshot>;

// Compares the analysed documents (labels as they are); the others are rows that say "loading".
// They are compared as ranks when they ran one program (engine/analysis/rank_compare.h) or `asRanks` (the
// GUI's --ranks); otherwise the rows carry their figures and nothing is compared.
RanksPtr compareDocuments(const std::vector<const TraceDocument*>& docs, bool asRanks = false);
// "12 ranks: they compiled the same programs at the same steps. Median compile time 2.10 s; 1 slow rank."
QString ranksHeadline(const RanksSnapshot& s);
// What sets a rank apart, for its timeline headers: "slow rank: 3.02x the median", "diverges on 1
// program, missed apart at 1 step"; "" for a rank like the others or not analysed.
QString rankNote(const RankRow& r);
// The note of each document (by index), "" for none.
std::vector<QString> rankNotes(const RanksSnapshot& s, std::size_t documents);
// The document a finding's evidence row belongs to (its note reads "in LABEL"), -1 for none.
int rankDocOf(const RanksSnapshot& s, const engine::Evidence& e);

using RanksModel = TableModel<RankRow>;
RanksModel* makeRanksModel(QObject* parent);

}  // namespace cs::gui
