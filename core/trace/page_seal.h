// Page checksums of a finished trace: the integrity check on open.
//
// Why: SQLite's own checks (`PRAGMA quick_check`, `integrity_check`) look at the b-tree structure,
// not at the values in it. A flipped byte inside a row (a duration, a string id, a method name) reads
// back without any error and gives a silently wrong answer: `info` once counted 34 methods instead of
// 2. So every page of a finalized trace carries a checksum in SQLite's "reserved bytes" area at the
// end of the page (the area SQLite leaves to extensions; cksumvfs uses it the same way), and the
// reader verifies all of them before SQLite parses anything. That is one sequential read of the file
// with a hash that runs at memory speed: cheap enough for every open (measured in
// docs/reliability.md), unlike `quick_check`, which we measured and left on demand (`info --check`).
//
// Layout of the last kReservedBytes of each page: an 8-byte hash of the rest of the page (seeded with
// the page number, so swapped pages fail too), the 4-byte SQLite file change counter at sealing time,
// and the magic "CSPS". A trace changed later by another SQLite program (its change counter moved on)
// is "modified after sealing": its checksums are stale and not checked, since a deliberate edit is
// not damage. A trace still being recorded (WAL mode) is not sealed yet and is not checked.
#pragma once

#include <cstdint>
#include <string>

namespace cs::trace {

// Bytes reserved at the end of every page of a trace the writer creates.
inline constexpr int kReservedBytes = 16;

struct PageCheck {
    enum class State {
        Unsealed,  // no checksums (an older trace, one still being recorded, other reserved bytes)
        Stale,     // sealed, then changed by another SQLite program: checksums not checked
        Ok,        // every page matches its checksum
        Damaged,   // a page does not match: the file changed after it was written
    };
    State state = State::Unsealed;
    std::int64_t page = 0;   // Damaged: the first failing page, from 1
    std::int64_t pages = 0;  // pages in the file
    // Unsealed: why. `reserved` is the header's byte 20 (the bytes each page reserves; 16 in a trace
    // this writer made, 0 in one from before page checksums existed); `sealMark` says page 1 still
    // ends with the seal's magic, so the file was sealed and its header changed since (issue 40).
    int reserved = 0;
    bool sealMark = false;
};

// Writes the checksum of every page of the closed database at `path`. Returns false (and leaves the
// file as it is) when its pages have no room reserved for it. Throws std::runtime_error on I/O errors.
// `sync`: fsync the file once sealed. A bulk import, which syncs nothing, passes false: the fsync
// wrote the whole freshly imported file to disk, 90 ms of a build's 1.3 s import.
bool sealPages(const std::string& path, bool sync = true);

// Verifies the checksums. Throws std::runtime_error when the file cannot be read.
PageCheck checkPages(const std::string& path);

}  // namespace cs::trace
