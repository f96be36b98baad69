#include "command.h"

#include "core/trace/trace_error.h"

namespace cs::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> all = {
        infoCommand(),
        sqlCommand(),
        importCommand(),
        treesCommand(),
        recordCommand(),
        reportCommand(),
        exportCommand(),
        checkCommand(),
        explainCommand(),
        whatifCommand(),
        findingsCommand(),
        modulesCommand(),
        measureCommand(),
        compareCommand(),
        diffCommand(),
        fixCommand(),
        watchCommand(),
        buildReportCommand(),
        sealCommand(),
        upgradeCommand(),
    };
    return all;
}

int usageError(CommandIo& io, std::string_view command, const std::string& message) {
    io.err << "compilescope " << command << ": " << message << "\n"
           << "Run 'compilescope " << command << " --help' for usage.\n";
    return Exit::Usage;
}

int forEachTrace(const std::vector<std::string>& args, CommandIo& io, std::string_view command,
                 const std::function<void(const std::string& path)>& each) {
    std::vector<std::string> paths;
    for (const auto& a : args) {
        if (!a.empty() && a[0] == '-') return usageError(io, command, "unknown option " + a);
        paths.push_back(a);
    }
    if (paths.empty()) return usageError(io, command, "no trace given");
    int status = Exit::Ok;
    for (const auto& p : paths) {
        try {
            each(p);
        } catch (const trace::TraceError& e) {
            io.err << "compilescope " << command << ": " << e.what() << "\n";
            status = Exit::Unreadable;
        }
    }
    return status;
}

}  // namespace cs::cli
