#include "core/engine/accounting/trace_losses.h"

#include "core/util/units.h"

#include "core/util/saturating.h"

#include <algorithm>

namespace cs::engine {

namespace {
// Stats rows that are information, not a loss (a ninja log's earlier builds were not this build; an
// importer's lines that carry nothing it records, such as a log's DEBUG chatter; lines out of time order).
bool informational(const std::string& name) {
    return name == "recovered_after_exit" || name == "earlier_build_line" || name == "unused_line" ||
           name == "out_of_order_line";
}

bool eventLoss(const std::string& name) { return name.rfind("dropped_", 0) == 0 || name == "lost_at_exit" || name == "discarded_bytes"; }


struct Meaning {
    std::string mechanism, fix;
};

Meaning meaningOf(const Loss& l) {
    if (l.name == "dropped_buffer_full")
        return {"A thread recorded events faster than the recorder drained its ring, and the ring was full.",
                "Record again with COMPILESCOPE_BUFFER_POLICY=block (the job waits, nothing is dropped) or a larger "
                "COMPILESCOPE_BUFFER_KB (docs/collector.md)."};
    if (l.name == "dropped_no_recorder")
        return {"Events were recorded while no recorder was connected.",
                "Run the job under `compilescope record`, or check that COMPILESCOPE_SOCKET points to a running recorder."};
    if (l.name == "dropped_oversized")
        return {"An event was larger than a thread's whole ring.", "Record again with a larger COMPILESCOPE_BUFFER_KB."};
    if (l.name == "dropped_reentrant")
        return {"Events were recorded from inside the collector itself (a signal handler during a record call).",
                "Nothing to change unless the count is large; then avoid recording from signal handlers."};
    if (l.name == "lost_at_exit")
        return {"A process died and what its rings held could not be read back.",
                "End worker processes normally where possible; docs/collector.md states what a crash can lose."};
    if (l.name == "discarded_bytes")
        return {"The recorder received bytes it could not parse and skipped them.",
                "Use a collector and a recorder of the same CompileScope version."};
    if (l.name == "malformed_record")
        return {"Lines or records of the input could not be read and were skipped (first example: " + l.detail + ").",
                "Check that the file is complete and in a format `compilescope import --list-formats` names."};
    if (l.name == "payload_hash_mismatch")
        return {"Records of a PyTorch structured trace carried a payload whose MD5 is not the has_payload the record "
                "announced (a cut, interleaved or edited payload), so their payloads were not used (first: " + l.detail + ").",
                "Collect the TORCH_TRACE directory again, one file per rank, without concatenating or editing the logs."};
    if (l.name == "unrecognised_line")
        return {"The file was read with a forced importer (--format " + l.source + ") and " + util::formatCount(l.count) +
                    " of its lines are not that format, so nothing was taken from them (first: " + l.detail + ").",
                "Check the file is the tool's output; import it without --format to let its content choose the "
                "importer (`compilescope import --list-formats`)."};
    return {"The " + l.source + " stage skipped " + util::formatCount(l.count) + " item(s) (" + l.name + ")" +
                (l.detail.empty() ? "." : "; first example: " + l.detail + "."),
            "See the stats table (`compilescope info`) for the first example; the rest of the trace is unaffected."};
}
}  // namespace

std::string TraceLosses::headline() const {
    std::string out;
    if (droppedEvents) out = util::formatCount(droppedEvents) + " recorded events never reached the trace";
    if (unreadInput) out += (out.empty() ? "" : "; ") + util::formatCount(unreadInput) + " input items could not be read";
    return out.empty() ? out : out + ": the figures below miss them";
}

std::string TraceLosses::bannerText() const {
    std::string out = headline();
    if (problemRows > 0)
        out += (out.empty() ? "" : "; ") + util::formatCount(problemRows) +
               " rows break the trace format and are left out of every figure (" + firstProblem +
               (out.empty() ? "; `compilescope info` lists them)" : ")");
    return out;
}

TraceLosses lossesOf(const TraceFacts& facts) {
    TraceLosses out;
    for (const auto& p : facts.problems) {
        out.problemRows = util::satAdd(out.problemRows, p.count);
        if (out.firstProblem.empty()) out.firstProblem = p.describe();
    }
    for (const StatRow& s : facts.stats) {
        if (informational(s.name) || s.count <= 0) continue;
        Loss l{s.name, s.source, s.detail, s.count, eventLoss(s.name)};
        (l.events ? out.droppedEvents : out.unreadInput) = util::satAdd(l.events ? out.droppedEvents : out.unreadInput, s.count);
        out.items.push_back(std::move(l));
    }
    std::stable_sort(out.items.begin(), out.items.end(), [](const Loss& a, const Loss& b) { return a.count > b.count; });
    return out;
}

std::vector<Finding> lossFindings(const TraceLosses& losses) {
    std::vector<Finding> out;
    for (const Loss& l : losses.items) {
        Finding f;
        f.kind = l.events ? "trace.events_lost" : "trace.input_unread";
        f.severity = l.events ? Severity::Error : Severity::Warning;
        f.title = util::formatCount(l.count) + (l.events ? " recorded events lost (" : " input items not read (") + l.name + ", " +
                  l.source + ")";
        Meaning m = meaningOf(l);
        f.mechanism = m.mechanism + " Every figure of this trace is computed without them.";
        f.fix = m.fix;
        if (!l.detail.empty()) f.evidence.push_back({"stats", 0, l.detail});
        out.push_back(std::move(f));
    }
    return out;
}

TraceLosses readTraceLosses(const trace::TraceReader& reader) {
    TraceFacts facts;
    readLossStats(reader, facts);
    return lossesOf(facts);
}

}  // namespace cs::engine
