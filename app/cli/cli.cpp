#include "cli.h"

#include "command.h"
#include "core/trace/trace_error.h"

#include <compilescope/trace_constants.h>

#include <exception>

#ifndef COMPILESCOPE_VERSION
#define COMPILESCOPE_VERSION "0.0.0"
#endif

namespace cs::cli {

namespace {
void printHelp(std::ostream& out) {
    out << "compilescope - every compile a JIT stack does, and why it happened\n\n"
           "Usage: compilescope COMMAND [ARGS...]\n\nCommands:\n";
    for (const auto& c : commands()) {
        std::string name(c.name);
        name.resize(12, ' ');
        out << "  " << name << c.summary << "\n";
    }
    out << "\nOptions:\n  --help      show this help (or 'compilescope COMMAND --help')\n"
           "  --version   print the version and the trace format it writes\n\n"
           "Exit status: 0 success, 1 a check failed, 2 bad usage or unreadable input.\n";
}
}  // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty()) {
        printHelp(err);
        return Exit::Usage;
    }
    const std::string& first = args[0];
    if (first == "--help" || first == "-h" || first == "help") {
        printHelp(out);
        return Exit::Ok;
    }
    if (first == "--version" || first == "-V") {
        out << "compilescope " << COMPILESCOPE_VERSION << " (trace format v" << CS_TRACE_FORMAT_VERSION << ")\n";
        return Exit::Ok;
    }
    for (const auto& c : commands()) {
        if (c.name != first) continue;
        std::vector<std::string> rest(args.begin() + 1, args.end());
        for (const auto& a : rest) {
            if (a == "--") break;
            if (a == "--help" || a == "-h") {
                out << c.usage;
                return Exit::Ok;
            }
        }
        CommandIo io{out, err};
        try {
            return c.run(rest, io);
        } catch (const trace::TraceError& e) {
            err << "compilescope " << c.name << ": " << e.what() << "\n";
            return Exit::Unreadable;
        } catch (const std::exception& e) {
            err << "compilescope " << c.name << ": " << e.what() << "\n";
            return Exit::Unreadable;
        }
    }
    err << "compilescope: unknown command '" << first << "'\n";
    printHelp(err);
    return Exit::Usage;
}

}  // namespace cs::cli
