// Imports foreign files into one new trace: the shared path behind `compilescope import` and the GUI.
//
// Why all files are sniffed before anything is written: a command that names one unknown file should
// fail with a message naming it, and must not leave a half-written trace behind.
#pragma once

#include "core/ingest/importer_registry.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace cs::ingest {

struct ImportRequest {
    std::vector<std::string> inputs;
    std::string output;
    std::string forcedFormat;  // importer id, or "" to sniff
    bool overwrite = false;
    // All foreign files become ONE session, read as consecutive fragments of one run (a log split across
    // files, or pasted in parts): per-run analyses (many small modules, repeated loads) then count the
    // run once. Clock-less importers continue their synthetic clock from the previous file's end.
    // `.cstrace` inputs keep their own sessions either way.
    bool joinSessions = false;
};

struct ImportedFile {
    std::string path;
    std::string importerId;
    ImportSummary summary;
};

class ImportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws ImportError (unknown format, unreadable input) or trace::TraceError (output problems).
std::vector<ImportedFile> importFiles(const ImportRequest& request,
                                      const ImporterRegistry& registry = ImporterRegistry::builtin());

// The first `max` bytes of a file, for sniffing. Throws ImportError when unreadable.
std::string readHead(const std::string& path, size_t max = 64 * 1024);

}  // namespace cs::ingest
