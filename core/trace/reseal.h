// `compilescope seal`: page checksums written again for a trace the user vouches for (issue 40).
//
// Why: an unsealed or modified trace is refused (unsealed_policy.h). A user who edited a trace on
// purpose, or whose recording was killed before it was sealed, needs a way to say "this file is
// right" once, instead of passing --trust-unsealed to every command. Sealing checks that the file is a
// CompileScope trace (header and schema, as the reader does), folds in a leftover write-ahead log,
// restores the 16 reserved bytes per page when the header lost them (a VACUUM), and seals every page.
#pragma once

#include <string>

namespace cs::trace {

// Re-seals `path`; returns what its check said before ("not sealed: ...", "damaged: ...", "ok").
// Throws TraceError naming the file: not a trace, being recorded, or cannot be written.
std::string resealTrace(const std::string& path);

}  // namespace cs::trace
