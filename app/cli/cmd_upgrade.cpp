// `compilescope upgrade TRACE...`: writes the span pyramid into traces of an older format (issue 41,
// core/trace/pyramid_migrate.h).
//
// Why a verb of its own: a v1 trace reads as it is, but every viewer then sums its pyramid from the
// spans on each open. Writing it into the file changes the user's file, so it happens only when the
// user asks, once per trace.
#include "command.h"

#include "core/trace/pyramid_migrate.h"
#include "core/util/utf8.h"

#include <cmath>

namespace cs::cli {

namespace {
int runUpgrade(const std::vector<std::string>& args, CommandIo& io) {
    return forEachTrace(args, io, "upgrade", [&](const std::string& p) {
        int shown = -1;
        const bool changed = trace::migrateToPyramid(p, [&](double done) {
            const int percent = static_cast<int>(std::lround(done * 100));
            if (percent / 10 == shown / 10) return;
            shown = percent;
            io.err << "upgrade " << util::printablePath(p) << ": " << percent << " % of the spans summed\n";
        });
        io.out << (changed ? "upgraded " : "already current: ") << util::printablePath(p)
               << (changed ? " (span pyramid written, trace format v2)\n" : " (it holds a span pyramid)\n");
    });
}
}  // namespace

Command upgradeCommand() {
    return {"upgrade", "write the span pyramid into traces of an older format (v1), for a fast first paint",
            "Usage: compilescope upgrade TRACE...\n\n"
            "A trace written before format v2 has no span pyramid, the per-lane summary the timeline\n"
            "paints from before it reads any span. Such a trace still reads everywhere, but each open\n"
            "sums the pyramid from all its spans first. upgrade writes it into the file once: the\n"
            "rows of the trace stay as they were, and a sealed trace is sealed again. A trace that\n"
            "holds a pyramid already is left alone, as is one being recorded. Exit status 2 when a\n"
            "trace cannot be read or written.\n",
            runUpgrade};
}

}  // namespace cs::cli
