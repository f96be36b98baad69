// Migration to format v2: an older trace gets its span pyramid (pyramid.h) written into the file.
//
// Why a step of its own: a v1 trace reads without a pyramid (the reader accepts it, and a viewer sums
// one in memory from the spans on every open), but summing 100M spans costs a full scan. Written back
// once, with the user's consent (the file is theirs, and a mailed trace may be read-only), every later
// open paints from the stored pyramid. Nothing else in the file changes: the fact tables, their rows
// and ids stay as they were, so the migrated trace reads the same; a sealed trace is sealed again
// (page_seal.h), one written before checksums existed stays unsealed as it was.
#pragma once

#include <functional>
#include <string>

namespace cs::trace {

// Adds `span_pyramid` to the trace at `path` and marks it format v2. Returns false, changing nothing,
// when the trace holds a pyramid already. `progress` gets the fraction of spans summed. Throws
// TraceError naming the file: not a trace, being recorded, or cannot be written (then the file is
// unchanged: the migration is one transaction).
bool migrateToPyramid(const std::string& path, const std::function<void(double)>& progress = {});

}  // namespace cs::trace
