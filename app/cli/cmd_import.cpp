// `compilescope import FILE... -o T.cstrace`: turns other tools' output into a trace.
#include "command.h"

#include "core/ingest/import_files.h"
#include "core/util/utf8.h"

namespace cs::cli {

namespace {
int runImport(const std::vector<std::string>& args, CommandIo& io) {
    ingest::ImportRequest req;
    for (size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "-o" || a == "--output") {
            if (++i >= args.size()) return usageError(io, "import", a + " needs a file name");
            req.output = args[i];
        } else if (a == "--format") {
            if (++i >= args.size()) return usageError(io, "import", "--format needs an importer id");
            req.forcedFormat = args[i];
        } else if (a == "--join-sessions") {
            req.joinSessions = true;
        } else if (a == "--force") {
            req.overwrite = true;
        } else if (a == "--list-formats") {
            for (const auto& imp : ingest::ImporterRegistry::builtin().all())
                io.out << imp->id() << "\t" << imp->description() << "\n";
            return Exit::Ok;
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            return usageError(io, "import", "unknown option " + a);
        } else {
            req.inputs.push_back(a);
        }
    }
    if (req.output.empty()) return usageError(io, "import", "missing -o OUTPUT.cstrace");
    if (req.inputs.empty()) return usageError(io, "import", "no input files");
    std::vector<ingest::ImportedFile> files;
    try {
        files = ingest::importFiles(req);
    } catch (const ingest::ImportError& e) {
        io.err << "compilescope import: " << e.what() << "\n";
        return Exit::Unreadable;
    }
    for (const auto& f : files) {
        io.out << util::printablePath(f.path) << ": " << f.importerId << ", " << f.summary.records << " records";
        if (f.summary.malformed) io.out << ", " << f.summary.malformed << " malformed (see 'compilescope info')";
        if (f.summary.unrecognised)
            io.out << ", " << f.summary.unrecognised << " lines not " << f.importerId << " (see 'compilescope info')";
        io.out << "\n";
    }
    io.out << "wrote " << util::printablePath(req.output) << "\n";
    return Exit::Ok;
}
}  // namespace

Command importCommand() {
    return {"import", "import other tools' files (format sniffed) into a new trace",
            "Usage: compilescope import FILE... -o OUTPUT.cstrace [--format ID] [--join-sessions] [--force]\n"
            "       compilescope import --list-formats\n\n"
            "Each FILE's format is recognised from its content; --format forces one importer for all.\n"
            "A forced importer counts every line it cannot use (stat unrecognised_line).\n"
            "Each file becomes one session; --join-sessions reads the files as consecutive fragments of one\n"
            "run, in one session. Unusable lines are counted in the trace's stats table, never fatal. An\n"
            "existing OUTPUT is kept unless --force is given.\n",
            runImport};
}

}  // namespace cs::cli
