// The importer interface: one plug-in per foreign format, registered by id, chosen by sniffing.
//
// Why: users hand us files from many tools (Warp logs, Julia invalidation lists, nvcc CSVs, chrome
// traces) without saying which is which, and often several at once. Each importer looks at the first
// bytes and says how sure it is that the file is its format; the registry picks the surest. Importers
// stream their input line by line or token by token and never load a whole file, write through the
// TraceWriter, and count every line they could not use in the `stats` table instead of failing
// (docs/practices.md 3 and 9).
#pragma once

#include "core/trace/writer.h"

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

namespace cs::ingest {

// What an importer gets: where to write, and the session already opened for this file.
struct ImportContext {
    trace::TraceWriter& writer;
    std::int64_t sessionId;
    std::string sourceName;  // file name for messages, e.g. "warp.log"
    // The user chose this importer (--format), so the file was not recognised by its content: lines it
    // cannot use may be the whole file and are counted (stat unrecognised_line) rather than ignored.
    bool forced = false;
    // Where a clock-less importer starts its synthetic clock: the end of the previous file when several
    // files are joined into one session (import --join-sessions), else 0.
    std::int64_t baseNs = 0;
    // Lines longer than a line may be, counted and left out by ImportLines (import_lines.h); the
    // import adds them to the summary's malformed count.
    std::int64_t linesTooLong = 0;

    // Counts one unusable input record; `where` is a position ("line 12"), `why` the reason.
    void malformed(std::string_view where, std::string_view why, std::string_view source);
    // Counts `count` lines that are not this format at all (see `forced`); `first` is the first of them.
    void unrecognised(std::int64_t count, std::string_view first, std::string_view source);
};

struct ImportSummary {
    std::int64_t records = 0;    // facts written
    std::int64_t malformed = 0;  // input records counted in stats instead
    std::int64_t unrecognised = 0;  // lines a forced importer could not use, counted in stats too
    std::int64_t firstNs = 0, lastNs = 0;  // time range covered, for the session's start/end
    // The file's timestamps are on a clock other sessions share (clang's beginningOfTime puts them on
    // CLOCK_REALTIME): the session takes this clock and `startNs` as its start. Empty: "relative".
    std::string clock;
    std::int64_t startNs = 0;
};

class Importer {
public:
    virtual ~Importer() = default;
    // Stable id used by `--format` and in stats.source, e.g. "nvcc-time".
    virtual std::string_view id() const = 0;
    virtual std::string_view description() const = 0;
    // 0 = certainly not this format ... 100 = certainly it. `head` is up to the first 64 KiB.
    virtual int sniff(std::string_view head, std::string_view fileName) const = 0;
    // The highest score sniff() ever returns. The registry skips an importer that cannot beat the
    // score it already has (a build's 1,860 files were spending a third of their import sniffing).
    virtual int maxSniffScore() const { return 100; }
    // Reads `in` to the end. Throws only for I/O errors; bad records are counted via ctx.malformed().
    virtual ImportSummary run(std::istream& in, ImportContext& ctx) const = 0;
};

}  // namespace cs::ingest
