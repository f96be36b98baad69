// `compilescope measure --samples N [--json F] -- CMD...`: isolated cold + warm samples of a command.
#include "command.h"

#include "core/measure/warp_measure.h"
#include "core/util/utf8.h"

#include <fstream>

namespace cs::cli {

namespace {
int runMeasure(const std::vector<std::string>& args, CommandIo& io) {
    engine::warp::MeasureOptions o;
    std::string json;
    size_t i = 0;
    for (; i < args.size(); ++i) {
        const auto& a = args[i];
        auto value = [&](const char* what) -> const std::string* {
            if (i + 1 >= args.size()) return nullptr;
            (void)what;
            return &args[++i];
        };
        if (a == "--") {
            ++i;
            break;
        } else if (a == "--samples") {
            auto v = value("--samples");
            if (!v) return usageError(io, "measure", "--samples needs a number");
            try {
                size_t used = 0;
                o.samples = std::stoi(*v, &used);
                if (used != v->size() || o.samples < 1 || o.samples > 1000) throw std::invalid_argument(*v);
            } catch (const std::exception&) {
                return usageError(io, "measure", "--samples needs a whole number from 1 to 1000, not \"" + *v + "\"");
            }
        } else if (a == "--json") {
            auto v = value("--json");
            if (!v) return usageError(io, "measure", "--json needs a file name");
            json = *v;
        } else if (a == "--label") {
            auto v = value("--label");
            if (!v) return usageError(io, "measure", "--label needs a text");
            o.label = *v;
        } else if (a == "--timeout") {
            auto v = value("--timeout");
            double s = 0;
            try {
                s = v ? std::stod(*v) : 0;
            } catch (const std::exception&) {
                s = 0;
            }
            if (!(s > 0 && s < 1e6)) return usageError(io, "measure", "--timeout needs seconds > 0");
            o.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000));
        } else if (a == "--no-instrument") {
            o.instrumentPython = false;
        } else {
            return usageError(io, "measure", "unknown option " + a + " (the command goes after --)");
        }
    }
    o.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    if (o.command.empty()) return usageError(io, "measure", "no command: put it after --");
    engine::warp::MeasureReport report;
    try {
        report = engine::warp::measure(o, io.err);
    } catch (const std::runtime_error& e) {
        io.err << "compilescope measure: " << e.what() << "\n";
        return Exit::CheckFailed;
    }
    engine::warp::printMeasureReport(report, io.out);
    if (!json.empty()) {
        std::ofstream f(json, std::ios::binary);
        if (!f) {
            io.err << "compilescope measure: cannot write " << json << "\n";
            return Exit::Unreadable;
        }
        engine::warp::writeMeasureJson(report, f);
        io.err << "wrote " << util::printablePath(json) << "\n";
    }
    return Exit::Ok;
}
}  // namespace

Command measureCommand() {
    return {"measure", "run a command cold (private Warp + CUDA caches) and warm, N samples",
            "Usage: compilescope measure [--samples N] [--json FILE] [--label TEXT] [--timeout S]\n"
            "                            [--no-instrument] -- COMMAND [ARGS...]\n\n"
            "Each sample runs COMMAND with fresh WARP_CACHE_PATH, WARP_CACHE_ROOT and CUDA_CACHE_PATH\n"
            "directories under the system temp dir (never your own caches), then runs it again warm against the\n"
            "cache it populated, then removes the directories. Warp's module log in the output is parsed: cold\n"
            "module work (summed (compiled) load timers), native compile, cold / warm wall clock, compile elapsed\n"
            "(cold wall - warm wall), identities. Reports median and MAD over samples (default 3). For Python\n"
            "commands a sitecustomize is injected (PYTHONPATH) that turns on Warp's verbose timers and records\n"
            "launches for compare's topology check; --no-instrument leaves it out. --json writes the report\n"
            "(same keys as Warp's warp_compile_probe.py) plus every run and where its caches lived.\n"
            "Exit status 1 when every cold run failed.\n",
            runMeasure};
}

}  // namespace cs::cli
