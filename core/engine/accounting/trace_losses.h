// What a trace is missing, said where its figures are shown: events a collector dropped, what a dying
// process lost, lines an importer could not read.
//
// Why: a user who reads "3 compiles" must know when the trace dropped 97 % of a burst. Every view
// (`info`'s first line, the GUI's banners, the report's banner) shows the headline, and `findings`
// lists one finding per kind of loss with its remedy. The stats table is the source; rows that are
// information, not a loss (events recovered from a dead process's shared rings), are left out.
#pragma once

#include "core/engine/common/finding.h"
#include "core/engine/accounting/trace_facts.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs::engine {

struct Loss {
    std::string name, source, detail;  // the stats row
    std::int64_t count = 0;
    bool events = false;  // recorded events that never reached the trace (not input lines)
};

struct TraceLosses {
    std::vector<Loss> items;      // largest first
    std::int64_t droppedEvents = 0;  // sum of the event losses
    std::int64_t unreadInput = 0;    // sum of the other losses (lines, records, arguments)
    // Rows that break the trace format (trace_problems.h): left out of every figure, never findings,
    // but said in the banners beside the losses.
    std::int64_t problemRows = 0;
    std::string firstProblem;
    bool any() const { return !items.empty(); }
    bool anyToShow() const { return any() || problemRows > 0; }
    // One line for `info`: "1,547,576 recorded events never reached the trace; ...".
    std::string headline() const;
    // The banners' line: the headline and the trace problems.
    std::string bannerText() const;
};

TraceLosses lossesOf(const TraceFacts& facts);
// The losses of a trace read from it alone (readLossStats, without the trace problems): the same
// figure as lossesOf(readTraceFacts(reader)) gives, for `record`'s line after a recording.
TraceLosses readTraceLosses(const trace::TraceReader& reader);
// One finding per kind of loss, with what it means and the remedy.
std::vector<Finding> lossFindings(const TraceLosses& losses);

}  // namespace cs::engine
