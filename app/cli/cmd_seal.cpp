// `compilescope seal TRACE...`: re-seals traces the user vouches for (issue 40, core/trace/reseal.h).
#include "command.h"

#include "core/trace/reseal.h"
#include "core/util/utf8.h"

namespace cs::cli {

namespace {
int runSeal(const std::vector<std::string>& args, CommandIo& io) {
    return forEachTrace(args, io, "seal", [&](const std::string& p) {
        const std::string was = trace::resealTrace(p);
        io.out << "sealed " << util::printablePath(p) << " (its check before: " << was << ")\n";
    });
}
}  // namespace

Command sealCommand() {
    return {"seal", "write the page checksums of traces you vouch for (unsealed or edited ones)",
            "Usage: compilescope seal TRACE...\n\n"
            "A trace without valid page checksums (edited by another SQLite program, a recording that was\n"
            "killed before it finished, a changed header) is refused by every command, since a damaged\n"
            "byte in it would be read as data. If you know the file is right, seal it: its schema is\n"
            "checked, a leftover write-ahead log is folded in, and every page gets its checksum again.\n"
            "To read such a file once without sealing it, pass --trust-unsealed to any command.\n"
            "A trace that is being recorded is left alone. Exit status 2 when a trace cannot be sealed.\n",
            runSeal};
}

}  // namespace cs::cli
