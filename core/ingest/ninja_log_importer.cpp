#include "core/ingest/ninja_log_importer.h"

#include "core/formats/ninja_log_lines.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <string>
#include <vector>

namespace cs::ingest {

namespace {
// One command of the last build: its outputs in log order.
struct Command {
    std::int64_t startMs = 0, endMs = 0, mtime = 0;
    std::string hash;
    std::vector<std::string> outputs;
};

// Object files are compiles, libraries and programs links; code generators and the rest are "other".
int categoryOf(std::string_view output) {
    for (std::string_view ext : {".o", ".obj", ".pcm", ".gch", ".pch"})
        if (output.ends_with(ext)) return CS_CAT_COMPILE;
    for (std::string_view ext : {".a", ".so", ".lib", ".dll", ".dylib", ".exe"})
        if (output.ends_with(ext)) return CS_CAT_LINK;
    size_t slash = output.find_last_of('/');
    std::string_view base = slash == std::string_view::npos ? output : output.substr(slash + 1);
    if (base.find('.') == std::string_view::npos) return CS_CAT_LINK;  // an executable
    return CS_CAT_OTHER;
}

constexpr std::int64_t kEpochNsFloor = 1'000'000'000'000'000'000;  // 2001-09-09 in ns: an ns mtime
}  // namespace

int NinjaLogImporter::sniff(std::string_view head, std::string_view fileName) const {
    if (ninjaLogVersion(head.substr(0, head.find('\n')))) return 95;
    return fileName == ".ninja_log" ? 30 : 0;
}

ImportSummary NinjaLogImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    auto& w = ctx.writer;
    std::vector<Command> build;  // the commands of the build being read (the last one, in the end)
    std::int64_t earlier = 0, lastEnd = -1, lineNo = 0;
    std::string line;
    while (std::getline(in, line)) {
        ++lineNo;
        if (lineNo == 1 && ninjaLogVersion(line)) continue;
        if (line.empty() || line == "\r") continue;
        if (line.starts_with('#')) {
            if (ninjaLogVersion(line)) {  // a second log appended: a new build
                earlier += static_cast<std::int64_t>(build.size());
                build.clear();
                lastEnd = -1;
            }
            continue;
        }
        NinjaLogEntry e;
        if (std::string why = parseNinjaLogLine(line, e); !why.empty()) {
            ctx.malformed("line " + std::to_string(lineNo), why, id());
            ++summary.malformed;
            continue;
        }
        if (e.endMs < lastEnd) {  // ended before the previous line: the first line of a new build
            earlier += static_cast<std::int64_t>(build.size());
            build.clear();
        }
        lastEnd = e.endMs;
        if (!build.empty() && build.back().hash == e.commandHash && build.back().startMs == e.startMs &&
            build.back().endMs == e.endMs) {
            build.back().outputs.emplace_back(e.output);
            continue;
        }
        build.push_back({e.startMs, e.endMs, e.mtime, std::string(e.commandHash), {std::string(e.output)}});
    }
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    if (earlier > 0)
        w.addStat(ctx.sessionId, "earlier_build_line", id(), earlier,
                  ctx.sourceName + ": commands of earlier builds in the log; only the last build is imported");

    // Placement on the epoch clock, from the commands whose output mtime is in nanoseconds.
    std::int64_t originNs = 0;
    for (const Command& c : build)
        if (c.mtime >= kEpochNsFloor) originNs = std::max(originNs, c.mtime - c.endMs * 1'000'000);
    if (originNs > 0) {
        summary.clock = "CLOCK_REALTIME";
        summary.startNs = originNs;
    }

    // Greedy lanes by start: a command takes the first lane free at its start.
    std::vector<size_t> order(build.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return build[a].startMs < build[b].startMs; });
    std::int64_t process = w.addTrack({.sessionId = ctx.sessionId, .kind = CS_TRACK_PROCESS, .name = w.intern("ninja")});
    std::vector<std::pair<std::int64_t, std::int64_t>> lanes;  // (track id, end ms of its last command)
    const trace::StringId outputKey = w.intern("output"), hashKey = w.intern("command_hash");
    bool any = false;
    for (size_t i : order) {
        const Command& c = build[i];
        size_t lane = 0;
        while (lane < lanes.size() && lanes[lane].second > c.startMs) ++lane;
        if (lane == lanes.size())
            lanes.emplace_back(w.addTrack({.sessionId = ctx.sessionId,
                                           .kind = CS_TRACK_THREAD,
                                           .tid = static_cast<std::int64_t>(lane + 1),
                                           .name = w.intern("slot " + std::to_string(lane + 1)),
                                           .parentTrackId = process}),
                               0);
        lanes[lane].second = c.endMs;
        // ms below 9e12 (the grammar's limit) fit as ns; a hostile mtime must not overflow the sum.
        const std::int64_t start = util::satAdd(originNs, c.startMs * 1'000'000), dur = (c.endMs - c.startMs) * 1'000'000;
        std::int64_t span = w.addSpan({.trackId = lanes[lane].first,
                                       .startNs = start,
                                       .durNs = dur,
                                       .category = categoryOf(c.outputs.front()),
                                       .name = w.intern(c.outputs.front())});
        for (size_t o = 1; o < c.outputs.size(); ++o) w.addSpanArg(span, outputKey, std::string_view(c.outputs[o]));
        if (!c.hash.empty()) w.addSpanArg(span, hashKey, std::string_view(c.hash));
        ++summary.records;
        summary.firstNs = any ? std::min(summary.firstNs, start) : start;
        summary.lastNs = any ? std::max(summary.lastNs, util::satAdd(start, dur)) : util::satAdd(start, dur);
        any = true;
    }
    return summary;
}

}  // namespace cs::ingest
