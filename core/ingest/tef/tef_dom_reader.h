// The fast path of the Trace Event Format import: a whole small file parsed by simdjson, then walked
// into the same TefEvents, in the same order, with the same messages as the streaming path.
//
// Why: a build's import is 1,860 clang time traces of about 110 KB each, and the pull parser
// (JsonPullReader, 250 MB/s) was most of the importer's thread. simdjson's DOM parser validates the
// whole document first, at GB/s over a buffer that is reused from file to file. Because the whole
// file is checked before anything is written, the fast path is all or nothing: a file it cannot read
// exactly as the streaming path would (broken or cut JSON, whose events before the break must be
// kept; an id number whose literal text the DOM does not keep; deeper nesting than the streaming
// reader allows) is declined with nothing written, and the streaming path reads it from the start.
//
// Memory: files up to kMaxFastFile (4 MiB) only, so one importing thread holds at most the file,
// its padding and simdjson's index of it (about 8x the file: 32 MiB), kept for the thread's next
// file. Larger files stream through JsonPullReader's 64 KiB buffer, whatever their size.
#pragma once

#include "core/ingest/importer.h"

#include <cstdint>
#include <istream>
#include <optional>
#include <string_view>

namespace cs::ingest {

class TefBuilder;

inline constexpr std::uint64_t kMaxFastFile = 4u << 20;

// Whether this build has the fast path (simdjson was found when it was built).
bool tefFastPathBuilt();

// Reads the whole document from `in` (positioned at its start, seekable) into `b`, as the streaming
// path would, and returns true; or returns false having added nothing and with `in` back where it
// was. `origin` is the beginningOfTime read from the file's end, if any; a leading one found in the
// document is stored there too.
bool readTefDocumentFast(std::istream& in, TefBuilder& b, ImportContext& ctx, ImportSummary& summary,
                         std::string_view source, std::optional<std::int64_t>& origin);

}  // namespace cs::ingest
