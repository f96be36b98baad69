// A CLI subcommand: name, one-line summary, usage text and the function that runs it.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace cs::cli {

// Exit statuses shared by every subcommand.
// Incomplete: `check` judged a trace from which cache lookups were left out (never a pass).
enum Exit : int { Ok = 0, CheckFailed = 1, Usage = 2, Unreadable = 2, Incomplete = 3 };

struct CommandIo {
    std::ostream& out;
    std::ostream& err;
};

struct Command {
    std::string_view name;
    std::string_view summary;
    std::string_view usage;  // full help text of the subcommand
    std::function<int(const std::vector<std::string>& args, CommandIo& io)> run;
};

// Every subcommand, in the order `--help` lists them (commands.cpp).
const std::vector<Command>& commands();

// Subcommand factories, one per file.
Command infoCommand();
Command sqlCommand();
Command importCommand();
Command treesCommand();
Command recordCommand();
Command reportCommand();
Command exportCommand();
Command checkCommand();
Command explainCommand();
Command whatifCommand();
Command findingsCommand();
Command modulesCommand();
Command measureCommand();
Command compareCommand();
Command diffCommand();
Command fixCommand();
Command watchCommand();
Command buildReportCommand();
Command sealCommand();
Command upgradeCommand();

// Prints "compilescope NAME: message" to err and returns Exit::Usage.
int usageError(CommandIo& io, std::string_view command, const std::string& message);
// Runs `each` on every argument of a verb that takes trace paths only (seal, upgrade): an option or
// no path is a usage error; a TraceError thrown for one trace is printed ("compilescope NAME: ...")
// and the others still run. Returns Exit::Ok, Exit::Usage, or Exit::Unreadable when one failed.
int forEachTrace(const std::vector<std::string>& args, CommandIo& io, std::string_view command,
                 const std::function<void(const std::string& path)>& each);

}  // namespace cs::cli
