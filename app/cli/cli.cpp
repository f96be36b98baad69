#include "cli.h"

#include "command.h"
#include "core/trace/trace_error.h"
#include "core/trace/unsealed_policy.h"

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
           "  --version   print the version and the trace format it writes\n"
           "  --trust-unsealed  (with any command) read traces without valid page checksums (edited, or\n"
           "              from a recording that never finished) instead of refusing them; see 'seal'\n\n"
           "Exit status: 0 success, 1 a check failed, 2 bad usage or unreadable input.\n";
}

// Takes the global --trust-unsealed out of `given` (anywhere before "--") and applies it.
std::vector<std::string> globalOptions(const std::vector<std::string>& given) {
    std::vector<std::string> args;
    bool trust = false, ended = false;
    for (const auto& a : given) {
        ended = ended || a == "--";
        if (!ended && a == "--trust-unsealed") trust = true;
        else args.push_back(a);
    }
    trace::setTrustUnsealed(trust);
    return args;
}
}  // namespace

int runCli(const std::vector<std::string>& given, std::ostream& out, std::ostream& err) {
    const std::vector<std::string> args = globalOptions(given);
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
        // A trace read without its page checksums (one from before they existed, or trusted) says so
        // on every command, once per file (core/trace/unsealed_policy.h).
        trace::setUncheckedWarningSink(
            [&err, name = std::string(c.name)](const std::string& m) { err << "compilescope " << name << ": warning: " << m << "\n"; });
        struct SinkReset {
            ~SinkReset() { trace::setUncheckedWarningSink(nullptr); }
        } sinkReset;
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
