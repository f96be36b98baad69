// Importer for ninja's `.ninja_log`: one span per command of the last build, on the lanes it ran in.
//
// Why: clang's time traces say what each compile spent its time on, but not what else ran beside it
// (links, code generators, other compilers) nor how busy the build was. ninja's log has every
// command's start and end. Imported with the time traces, each target's span is joined to the time
// trace of the same output by the build report (core/engine/build/build_report.h).
//
// What it keeps (format in core/formats/ninja_log_lines.h): only the last build in the log (lines of
// earlier builds are counted, stat earlier_build_line); one span per command (lines with the same
// hash and times are one command with several outputs: the first output names the span, the others
// are span_args "output"); spans on "slot" lanes assigned greedily by start, so the number of lanes
// is the build's peak parallelism. A line that does not parse is counted (malformed), never fatal.
//
// Time: start and end are ms from the build's start. Where the log's mtimes are nanoseconds since the
// epoch, the build's start on CLOCK_REALTIME is the latest mtime - end over the commands (an output is
// written before its command ends, so each gives a lower bound): the build then shares the clock of
// clang's time traces and lies under them. Otherwise the session keeps its own clock from 0.
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class NinjaLogImporter final : public Importer {
public:
    std::string_view id() const override { return "ninja-log"; }
    std::string_view description() const override { return "ninja build log (.ninja_log, v4-v6)"; }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 95; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
