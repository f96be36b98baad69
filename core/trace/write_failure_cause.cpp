#include "core/trace/write_failure_cause.h"

#include "core/trace/write_note.h"
#include "core/util/utf8.h"

#include <filesystem>

namespace cs::trace {

std::string writeFailureCause(const std::string& tracePath) {
    const auto note = loadWriteNote(tracePath);
    if (!note) return "";
    // The recorder's reason starts with the trace's name as the recorder knew it (TraceError:
    // absolute, or another directory than the reader's): said once, by the caller.
    std::string reason = note->reason;
    const std::size_t colon = reason.find(": ");
    if (colon != std::string::npos &&
        std::filesystem::path(reason.substr(0, colon)).filename() == std::filesystem::path(tracePath).filename())
        reason.erase(0, colon + 2);
    const bool full = reason.find("full") != std::string::npos;
    return std::string(full ? "the disk was full while recording"
                            : "the disk was full, or a file size limit reached, while recording") +
           " (" + util::printablePath(reason) + "; what it could not store is counted in " +
           util::printablePath(writeNotePath(tracePath)) + ")";
}

}  // namespace cs::trace
