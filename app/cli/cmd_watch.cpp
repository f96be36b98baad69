// `compilescope watch [TRACE | --latest | --pid PID] [--json] [--interval MS]`: follows a recording
// from a terminal or a CI log, printing each finding as it arises and, when the job ends, the
// acceptance verdict with `check`'s exit status.
//
// Why poll and re-analyse: a finding is a property of the whole trace so far (a recompile needs the
// entry it missed against), and the one analysis (core/engine/analysis/trace_analysis.h) is what every view
// prints; watching prints exactly what `findings` would print at that moment, each finding once.
// Each poll copies only the newly committed rows into a private mirror in one short read transaction
// (core/trace/trace_follower.h), so the recorder never waits on the watcher and the recording is read
// once; the analysis then runs on the mirror.
#include "cache_text.h"
#include "command.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/trace/live_registry.h"
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/trace_follower.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

namespace cs::cli {

namespace {
std::string canonical(const std::string& p) {
    std::error_code ec;
    return std::filesystem::weakly_canonical(p, ec).string();
}

bool isLive(const std::string& trace) {
    const std::string mine = canonical(trace);
    for (const auto& r : trace::findLiveRecordings())
        if (canonical(r.trace) == mine) return true;
    return false;
}

// "gradient recompiles as steps go on: GraphConst hash moved (3 misses): step 2: ... 0x1001 -> 0x1002, 1488 s"
std::string oneLine(const engine::Finding& f) {
    std::string line = "[" + std::string(engine::severityName(f.severity)) + "] " + f.title;
    if (!f.evidence.empty() && !f.evidence.front().note.empty()) line += ": " + f.evidence.front().note;
    if (f.costNs) line += ", " + util::formatDuration(*f.costNs);
    return line;
}

// A private directory for the live mirror, removed with everything in it.
class ScratchDir {
public:
    ScratchDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "compilescope-watch-XXXXXX").string();
        if (::mkdtemp(tmpl.data())) m_dir = tmpl;
    }
    ~ScratchDir() {
        std::error_code ec;
        if (!m_dir.empty()) std::filesystem::remove_all(m_dir, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::string file(const std::string& name) const {
        if (m_dir.empty()) throw trace::TraceError(trace::TraceErrorKind::Write, name, "cannot create a scratch directory");
        return m_dir + "/" + name;
    }

private:
    std::string m_dir;
};

class Watcher {
public:
    Watcher(CommandIo& io, bool json) : m_io(io), m_json(json) {}
    // Prints the findings of `a` not printed before.
    void report(const engine::TraceAnalysis& a) {
        for (const auto& f : a.findings) {
            if (!m_seen.insert(f.kind + "\n" + f.title).second) continue;
            if (!m_json) {
                m_io.out << oneLine(f) << "\n" << std::flush;
                continue;
            }
            std::ostringstream s;
            util::JsonWriter j(s);
            j.beginObject().key("event").value("finding").key("kind").value(f.kind);
            j.key("severity").value(engine::severityName(f.severity)).key("title").value(f.title);
            j.key("fix").value(f.fix).key("cost_ns");
            f.costNs ? j.value(*f.costNs) : j.null();
            j.endObject();
            m_io.out << s.str() << "\n" << std::flush;
        }
    }
    int verdict(const engine::TraceAnalysis& a) {
        const engine::AcceptanceVerdict& v = a.verdict;
        // As `check`: lookups left out as trace problems make any verdict incomplete (issue 40).
        const int code = v.incomplete() ? Exit::Incomplete : v.passes() ? Exit::Ok : Exit::CheckFailed;
        if (m_json) {
            std::ostringstream s;
            util::JsonWriter j(s);
            j.beginObject().key("event").value("end").key("acceptance").value(engine::verdictName(v));
            j.key("findings").value(static_cast<std::int64_t>(a.findings.size())).key("exit").value(code).endObject();
            m_io.out << s.str() << "\n";
        } else {
            m_io.out << "job ended: acceptance " << engine::verdictName(v) << ", " << a.findings.size()
                     << " finding(s)" << (v.state == engine::VerdictState::NotApplicable ? " (nothing to judge)" : "") << "\n";
        }
        return code;
    }

private:
    CommandIo& m_io;
    bool m_json;
    std::set<std::string> m_seen;
};

int runWatch(const std::vector<std::string>& args, CommandIo& io) {
    bool json = false, latest = false;
    std::int64_t pid = -1, intervalMs = 200;
    std::string path;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json") json = true;
        else if (a == "--latest") latest = true;
        else if (a == "--pid" || a == "--interval") {
            std::int64_t n = 0;
            if (++i >= args.size() || !parseCount(args[i], n)) return usageError(io, "watch", a + " needs a non-negative integer");
            (a == "--pid" ? pid : intervalMs) = n;
        } else if (!a.empty() && a[0] == '-') {
            return usageError(io, "watch", "unknown option " + a);
        } else if (path.empty()) {
            path = a;
        } else {
            return usageError(io, "watch", "expected one TRACE");
        }
    }
    if (static_cast<int>(!path.empty()) + static_cast<int>(latest) + static_cast<int>(pid >= 0) != 1)
        return usageError(io, "watch", "give one of TRACE, --latest or --pid PID");
    if (latest || pid >= 0) {
        auto live = trace::findLiveRecordings();
        for (const auto& r : live)
            if (latest || r.pid == pid) path = r.trace;  // oldest first: the last match is the newest
        if (path.empty()) {
            std::string dirs;
            for (const auto& d : trace::liveRegistrySearchDirs()) dirs += (dirs.empty() ? "" : ", ") + d;
            io.err << "compilescope watch: no recording in progress" << (pid >= 0 ? " with recorder pid " + std::to_string(pid) : "")
                   << " (looked in " << (dirs.empty() ? "no registry directory" : dirs) << ")\n";
            return Exit::Unreadable;
        }
    }
    intervalMs = std::clamp<std::int64_t>(intervalMs, 20, 60000);
    Watcher w(io, json);
    if (isLive(path)) {
        if (!json) io.err << "watching " << path << " while it is recorded (Ctrl-C detaches)\n";
        // Each poll copies only the rows committed since the last one into a private mirror
        // (trace_follower.h) and analyses the mirror: the recording is never read twice.
        trace::yieldToRecorder();
        std::unique_ptr<trace::TraceFollower> follower;
        const ScratchDir scratch;
        while (isLive(path)) {
            try {
                if (!follower) follower = std::make_unique<trace::TraceFollower>(path, scratch.file("mirror.cstrace"));
                follower->poll();
                auto reader = trace::TraceReader::open(follower->mirrorPath());
                w.report(*engine::analyseTrace(*reader));
            } catch (const trace::TraceError&) {
                // Being created, or mid-checkpoint: the next poll sees it.
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(intervalMs));
        }
    }
    // The finished trace (an unreadable one is exit 2, as for every command).
    auto reader = trace::TraceReader::open(path);
    auto analysis = engine::analyseTrace(*reader);
    w.report(*analysis);
    return w.verdict(*analysis);
}
}  // namespace

Command watchCommand() {
    return {"watch", "follow a recording: each finding as it arises, then the verdict (CI logs, terminals)",
            "Usage: compilescope watch TRACE | --latest | --pid PID [--json] [--interval MS]\n\n"
            "Follows a trace while `compilescope record` writes it (--latest: the newest recording in\n"
            "progress; --pid: the one whose recorder has that pid; both found where `record --list`\n"
            "looks). Prints each finding once, as it arises, in one line: severity, title, the first\n"
            "piece of evidence, the cost. When the recording ends, prints the acceptance verdict and\n"
            "exits as `check` does. A finished trace is analysed once. --json writes one JSON object\n"
            "per line ({\"event\": \"finding\" | \"end\", ...}) for tools. --interval: poll period\n"
            "(default 200 ms). Ctrl-C detaches without touching the recording.\n"
            "Exit status: 0 pass or not applicable, 1 acceptance failed, 2 no such recording or\n"
            "unreadable trace, 3 incomplete (cache lookups left out as trace problems).\n",
            runWatch};
}

}  // namespace cs::cli
