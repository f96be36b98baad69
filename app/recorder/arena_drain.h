// Reading a dead process's arena: the events its rings still held when it died.
//
// Why: a collector's flusher sends ring bytes every few milliseconds, so a process that ends with
// _exit() or is killed always has unsent events; they are in the arena memfd it passed with the
// ARENA message (wire_protocol.h). When its stream ends without GOODBYE, the recorder turns what
// the arena holds past what it received into ordinary wire messages (the definitions not yet seen,
// then per ring a THREAD message and the unsent bytes, then the drops not yet reported) and feeds
// them to the same WireSession, so they are checked like any other untrusted bytes. The memfd is
// read-only here and every header field is bounds-checked before use.
#pragma once

#include "wire_session.h"

#include <cstdint>
#include <string>

namespace cs::recorder {

struct DrainResult {
    std::int64_t events = 0;   // events recovered
    std::int64_t lostRings = 0; // rings whose unsent bytes could not be read (overwritten, invalid)
    std::string problem;       // why the arena could not be read at all ("" = it could)
};

// "" when the arena header's regions lie inside a file of `size` bytes, else what is wrong.
std::string checkArenaHeader(const cs_arena_header& h, std::uint64_t size);

// Feeds the unsent contents of arena `fd` to `session`. Writer errors propagate (TraceError).
DrainResult drainArena(int fd, WireSession& session);

}  // namespace cs::recorder
