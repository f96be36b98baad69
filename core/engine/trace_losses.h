// What a trace is missing, said where its figures are shown: events a collector dropped, what a dying
// process lost, lines an importer could not read.
//
// Why: a user who reads "3 compiles" must know when the trace dropped 97 % of a burst. Every view
// (`info`'s first line, the GUI's banners, the report's banner) shows the headline, and `findings`
// lists one finding per kind of loss with its remedy. The stats table is the source; rows that are
// information, not a loss (events recovered from a dead process's shared rings), are left out.
#pragma once

#include "core/engine/finding.h"
#include "core/engine/trace_facts.h"

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
    bool any() const { return !items.empty(); }
    // One line for banners: "1,547,576 recorded events were dropped; 12 input lines could not be read".
    std::string headline() const;
};

TraceLosses lossesOf(const TraceFacts& facts);
// One finding per kind of loss, with what it means and the remedy.
std::vector<Finding> lossFindings(const TraceLosses& losses);

}  // namespace cs::engine
