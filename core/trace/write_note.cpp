#include "core/trace/write_note.h"

#include <sqlite3.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace cs::trace {

namespace {
// A count as stored in the note: digits only, at most 18 of them (anything else reads as 0).
std::int64_t countOf(const std::string& text) {
    if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
    return std::stoll(text);
}
}  // namespace

std::string writeNotePath(const std::string& tracePath) { return tracePath + ".note"; }

bool saveWriteNote(const std::string& tracePath, const WriteNote& note) {
    std::string text = "write_failed=" + note.reason + "\n";
    for (const auto& [table, n] : note.notStored) text += "not_stored." + table + "=" + std::to_string(n) + "\n";
    text += "dropped_by_collectors=" + std::to_string(note.droppedByCollectors) + "\n";
    if (note.processesWithoutArena) text += "processes_without_arena=" + std::to_string(note.processesWithoutArena) + "\n";
    if (note.storedInTrace) text += "stored_in_trace=1\n";
    const std::string path = writeNotePath(tracePath);
    // Over the room reserved when the recording started (write_note_reserve.h), in place: a full
    // disk has no block for a new file.
    FILE* out = std::fopen(path.c_str(), "r+");
    if (!out) out = std::fopen(path.c_str(), "w");
    bool saved = out && std::fwrite(text.data(), 1, text.size(), out) == text.size() && std::fflush(out) == 0 &&
                 ::ftruncate(::fileno(out), static_cast<off_t>(text.size())) == 0;
    if (out && std::fclose(out) != 0) saved = false;
    if (!saved) std::remove(path.c_str());
    return saved;
}

std::optional<WriteNote> loadWriteNote(const std::string& tracePath) {
    std::ifstream in(writeNotePath(tracePath));
    if (!in) return std::nullopt;
    WriteNote note;
    bool any = false;
    for (std::string line; std::getline(in, line);) {
        const auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
        if (key == "write_failed") {
            note.reason = value.substr(0, 1000);
            any = true;
        } else if (key.rfind("not_stored.", 0) == 0 && note.notStored.size() < 64) {
            note.notStored.emplace_back(key.substr(11, 64), countOf(value));
        } else if (key == "dropped_by_collectors") {
            note.droppedByCollectors = countOf(value);
        } else if (key == "processes_without_arena") {
            note.processesWithoutArena = countOf(value);
        } else if (key == "stored_in_trace") {
            note.storedInTrace = value == "1";
        }
    }
    if (!any) return std::nullopt;
    return note;
}

std::vector<std::pair<std::string, std::int64_t>> rowsOnDisk(const std::string& tracePath,
                                                            const std::vector<std::string>& tables) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(tracePath.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        db = nullptr;
    }
    std::vector<std::pair<std::string, std::int64_t>> out;
    for (const std::string& table : tables) {
        sqlite3_stmt* st = nullptr;
        std::int64_t n = -1;
        if (db && sqlite3_prepare_v2(db, ("SELECT count(*) FROM " + table).c_str(), -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        out.emplace_back(table, n);
    }
    sqlite3_close(db);
    return out;
}

}  // namespace cs::trace
