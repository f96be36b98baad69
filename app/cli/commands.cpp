#include "command.h"

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
    };
    return all;
}

int usageError(CommandIo& io, std::string_view command, const std::string& message) {
    io.err << "compilescope " << command << ": " << message << "\n"
           << "Run 'compilescope " << command << " --help' for usage.\n";
    return Exit::Usage;
}

}  // namespace cs::cli
