#include "core/trace/write_note_reserve.h"

#include "core/trace/write_note.h"

#include <cstdio>
#include <string>

namespace cs::trace {

namespace {
constexpr std::size_t kReservedBytes = 4096;  // a note of 64 tables and a 1,000-byte reason fits
}

bool reserveWriteNote(const std::string& tracePath) {
    std::string text = "# room for the write-failure note of a recording in progress (core/trace/write_note_reserve.h)\n";
    text.resize(kReservedBytes - 1, '#');
    text += '\n';
    const std::string path = writeNotePath(tracePath);
    FILE* out = std::fopen(path.c_str(), "w");
    bool written = out && std::fwrite(text.data(), 1, text.size(), out) == text.size();
    if (out && std::fclose(out) != 0) written = false;
    if (!written) std::remove(path.c_str());
    return written;
}

void dropWriteNoteReservation(const std::string& tracePath) {
    if (!loadWriteNote(tracePath)) std::remove(writeNotePath(tracePath).c_str());
}

}  // namespace cs::trace
