#include "core/ingest/warp/warp_log_importer.h"

#include "core/formats/text_util.h"
#include "core/formats/warp_log_lines.h"
#include "core/util/utf8.h"

#include <map>
#include <string>
#include <vector>

namespace cs::ingest {

namespace {
using warp::LineKind;
using warp::WarpLine;

// The init banner spans several lines; this collects it until its last item. `section` tells a quoted
// line apart: under "Devices:" it names a device, under "CUDA peer access:" it is a row of the access
// matrix (both print `     "cuda:0"   : ...`).
struct Banner {
    enum class Section { Header, Devices, PeerAccess };
    bool open = false;
    bool awaitingCachePath = false;
    Section section = Section::Header;
    std::string title;
    std::vector<std::pair<std::string, std::string>> args;
};

// Banner items, every release (warp/_src/context.py `Runtime.__init__`, the `greeting` list):
//   "Warp 1.9.1 initialized:" (or "Warp initialized:" before 0.6)
//   "Git commit: <sha>"                                  (development builds)
//   "CUDA Toolkit 12.8, Driver 12.9" (0.9-1.0: "CUDA Toolkit: 11.5, Driver: 12.0"), or instead one of
//   "CUDA not enabled in this build" / "CUDA driver not found or failed to initialize" /
//   "CUDA devices not available" / "CUDA Toolkit 12.8, CUDA driver not available (NVRTC ...)"
//   "Devices:" then `"cuda:0"   : "NVIDIA H100" (80 GiB, sm_90, mempool enabled)`
//       (0.9: `"cuda:0" | NVIDIA H100 (sm_90)`; a non-primary context: `: Non-primary context on ...`)
//   "CUDA peer access:" (two or more GPUs) then "Supported fully (all-directional)" / "Not supported" /
//       "Supported partially (see access matrix)" followed by one `"cuda:0"   : [1, 1, 0]` row per GPU
//   "Kernel cache:" + path on the next line (older: on the same line).
// Returns false when the line is not part of the banner.
bool bannerLine(std::string_view body, Banner& b) {
    using Section = Banner::Section;
    if (startsWith(body, "Warp ") && body.size() > 13 && body.substr(body.size() - 13) == " initialized:") {
        b = Banner{};
        b.open = true;
        b.title = std::string(body.substr(0, body.size() - 1));
        if (body.size() > 18) b.args.emplace_back("version", std::string(body.substr(5, body.size() - 18)));
        return true;
    }
    if (!b.open) return false;
    if (b.awaitingCachePath) {
        b.args.emplace_back("kernel_cache", std::string(body));
        b.awaitingCachePath = false;
        b.open = false;  // the cache path is the banner's last item
        return true;
    }
    if (startsWith(body, "Git commit:")) {
        b.args.emplace_back("git_commit", std::string(trim(body.substr(11))));
        return true;
    }
    if (startsWith(body, "CUDA Toolkit")) {
        auto f = splitTrimmed(body.substr(12), ',');
        auto value = [](std::string_view s) {
            s = trim(s);
            if (!s.empty() && s.front() == ':') s = trim(s.substr(1));
            return std::string(s);
        };
        b.args.emplace_back("cuda_toolkit", value(f[0]));
        if (f.size() > 1 && startsWith(f[1], "Driver")) b.args.emplace_back("driver", value(f[1].substr(6)));
        else if (f.size() > 1) b.args.emplace_back("cuda", std::string(f[1]));
        return true;
    }
    if (startsWith(body, "Kernel cache:")) {
        auto path = trim(body.substr(13));
        if (path.empty()) {
            b.awaitingCachePath = true;
        } else {
            b.args.emplace_back("kernel_cache", std::string(path));
            b.open = false;
        }
        return true;
    }
    if (body == "Devices:") {
        b.section = Section::Devices;
        return true;
    }
    if (body == "CUDA peer access:") {
        b.section = Section::PeerAccess;
        return true;
    }
    if (b.section == Section::PeerAccess && (startsWith(body, "Supported") || startsWith(body, "Not supported"))) {
        b.args.emplace_back("peer_access", std::string(body));
        return true;
    }
    if (startsWith(body, "CUDA ")) {  // no usable CUDA: the reason replaces the toolkit line
        b.args.emplace_back("cuda", std::string(body));
        return true;
    }
    if (startsWith(body, "\"")) {
        auto close = body.find('"', 1);
        // `"cuda:0"   : "<name>" (...)`; before 1.0 `"cuda:0" | <name> (sm_86)`
        auto colon = body.find_first_of(":|", close == std::string_view::npos ? 0 : close);
        if (close != std::string_view::npos && colon != std::string_view::npos) {
            std::string alias(body.substr(1, close - 1));
            b.args.emplace_back((b.section == Section::PeerAccess ? "peer_access " : "device ") + alias,
                                std::string(trim(body.substr(colon + 1))));
            return true;
        }
    }
    b.open = false;
    return false;
}

struct LoadRef {
    std::int64_t id;
    std::string name, hash;
};

struct KernelChange {
    std::string key, oldHash, newHash;
    bool generic;
};
}  // namespace

int WarpLogImporter::sniff(std::string_view head, std::string_view) const {
    std::string clean = stripAnsi(head);
    if (clean.find(" load on device '") != std::string::npos && clean.find("Module ") != std::string::npos) return 80;
    if (clean.find(" initialized:") != std::string::npos && clean.find("Warp ") != std::string::npos) return 70;
    if (clean.find("[Module.load] ") != std::string::npos || clean.find("Compile CUDA (arch=") != std::string::npos) return 60;
    return 0;
}

ImportSummary WarpLogImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    auto& w = ctx.writer;
    const std::int64_t track = w.addTrack({.sessionId = ctx.sessionId, .kind = CS_TRACK_RUNTIME,
                                           .name = w.intern("warp modules")});
    std::int64_t clock = ctx.baseNs;  // synthetic: loads laid end to end (see the header)
    std::int64_t unrecognised = 0;
    std::string firstUnrecognised;
    std::int64_t entryMarkers = 0;
    std::map<std::string, std::int64_t> openEntries;  // "name hash device block_dim" -> start
    std::vector<WarpLine> pendingCompiles;
    std::vector<KernelChange> pendingKernelChanges;
    std::map<std::string, std::vector<KernelChange>> changesByModule;
    std::vector<LoadRef> loads;
    Banner banner;
    auto entryKey = [](const WarpLine& l) {
        return l.name + ' ' + l.hash + ' ' + l.device + ' ' + (l.blockDim ? std::to_string(*l.blockDim) : "-");
    };
    auto flushBanner = [&](const Banner& b) {
        auto span = w.addSpan({.trackId = track, .startNs = clock, .durNs = 0, .category = CS_CAT_INIT,
                               .name = w.intern(b.title)});
        for (const auto& [k, v] : b.args) w.addSpanArg(span, w.intern(k), std::string_view(v));
        ++summary.records;
    };
    auto addKernel = [&](std::int64_t loadId, const KernelChange& c, const std::string& digest) {
        w.addModuleKernel({.loadId = loadId, .kernel = w.intern(c.key), .digest = w.intern(digest),
                           .generic = c.generic ? w.intern(c.key) : 0});
    };

    std::string line;
    std::int64_t lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        auto where = "line " + std::to_string(lineNo);
        if (banner.open || line.find(" initialized:") != std::string::npos) {
            std::string clean = stripAnsi(line);
            Banner before = banner;
            if (bannerLine(trim(clean), banner)) {
                if (!banner.open) flushBanner(banner);
                continue;
            }
            if (before.open) flushBanner(before);  // a banner cut short by other output
        }
        WarpLine l = warp::parseWarpLine(line);
        switch (l.kind) {
        case LineKind::Other:
            if (ctx.forced && !trim(line).empty()) {
                if (unrecognised++ == 0)
                    firstUnrecognised = where + ": not a Warp line (\"" + std::string(util::utf8Prefix(trim(line), 60)) + "\")";
            }
            break;
        case LineKind::Malformed:
            ctx.malformed(where, l.error, id());
            ++summary.malformed;
            break;
        case LineKind::ModuleEntry:
            ++entryMarkers;
            openEntries[entryKey(l)] = clock;
            break;
        case LineKind::Compile: pendingCompiles.push_back(std::move(l)); break;
        case LineKind::KernelLookupFailed: {
            auto span = w.addSpan({.trackId = track, .startNs = clock, .durNs = 0, .category = CS_CAT_LAUNCH,
                                   .name = w.intern("Failed to find " + l.mode + " kernel")});
            w.addSpanArg(span, w.intern("module"), std::string_view(l.name));
            w.addSpanArg(span, w.intern("kernel"), std::string_view(l.kernel));
            w.addSpanArg(span, w.intern("device"), std::string_view(l.device));
            w.addSpanArg(span, w.intern("origin"), std::string_view(ctx.sourceName + ":" + std::to_string(lineNo)));
            ++summary.records;
            break;
        }
        case LineKind::KernelHashChanged:
            pendingKernelChanges.push_back({l.name, l.oldHash, l.hash, l.generic});
            break;
        case LineKind::ModuleHashChanged: {
            // Warp logs the kernel changes while re-hashing, then this line, then the load: the pending
            // kernel changes belong to this module and to its next load.
            auto& changes = changesByModule[l.name];
            for (auto& c : pendingKernelChanges) changes.push_back(std::move(c));
            pendingKernelChanges.clear();
            // The superseded load keeps the kernels' old hashes, so the identities can be diffed.
            for (auto it = loads.rbegin(); it != loads.rend(); ++it) {
                if (it->name != l.name || it->hash.empty() || !startsWith(l.oldHash, it->hash)) continue;
                for (const auto& c : changes) addKernel(it->id, c, c.oldHash);
                break;
            }
            break;
        }
        case LineKind::ModuleLoad: {
            // Start at the entry marker when the log has one (overlap becomes visible), else at the end
            // of everything so far (serial, Warp's default).
            std::int64_t start = clock;
            if (auto e = openEntries.find(entryKey(l)); e != openEntries.end()) {
                start = e->second;
                openEntries.erase(e);
            }
            // Compile timers printed since the last shallower record are this load's children.
            std::int64_t compileNs = 0;
            bool anyCompile = false;
            std::vector<WarpLine> children;
            for (auto it = pendingCompiles.begin(); it != pendingCompiles.end();) {
                if (it->indent > l.indent) {
                    compileNs += it->durNs;
                    anyCompile = true;
                    children.push_back(std::move(*it));
                    it = pendingCompiles.erase(it);
                } else {
                    ++it;
                }
            }
            auto loadId = w.addModuleLoad({.sessionId = ctx.sessionId, .trackId = track, .startNs = start,
                                           .durNs = l.durNs, .name = w.intern(l.name),
                                           .hash = l.hash.empty() ? 0 : w.intern(l.hash),
                                           .device = l.device.empty() ? 0 : w.intern(l.device),
                                           .blockDim = l.blockDim, .result = l.result,
                                           .compileNs = anyCompile ? std::optional<std::int64_t>(compileNs) : std::nullopt,
                                           .origin = w.intern(ctx.sourceName + ":" + std::to_string(lineNo))});
            ++summary.records;
            for (const auto& c : children) {
                w.addPhaseTiming({.sessionId = ctx.sessionId, .tool = CS_PHASE_TOOL_OTHER, .input = w.intern(l.name),
                                  .phase = w.intern("warp Compile " + c.compiler),
                                  .arch = c.arch.empty() ? 0 : w.intern(c.arch), .startNs = std::nullopt,
                                  .durNs = c.durNs, .parentId = std::nullopt});
                ++summary.records;
            }
            if (auto ch = changesByModule.find(l.name); ch != changesByModule.end()) {
                for (const auto& c : ch->second) addKernel(loadId, c, c.newHash);
                changesByModule.erase(ch);
            }
            loads.push_back({loadId, l.name, l.hash});
            if (start + l.durNs > clock) clock = start + l.durNs;
            break;
        }
        }
    }
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    if (banner.open) flushBanner(banner);
    // Compile timers no Module line claimed (the run died mid-load) still cost time: keep them.
    for (const auto& c : pendingCompiles) {
        w.addPhaseTiming({.sessionId = ctx.sessionId, .tool = CS_PHASE_TOOL_OTHER,
                          .phase = w.intern("warp Compile " + c.compiler), .arch = c.arch.empty() ? 0 : w.intern(c.arch),
                          .durNs = c.durNs});
        ++summary.records;
    }
    ctx.unrecognised(unrecognised, firstUnrecognised, id());
    summary.unrecognised = unrecognised;
    summary.firstNs = ctx.baseNs;
    w.addCounter({.sessionId = ctx.sessionId, .tsNs = clock, .scope = w.intern("warp.log"),
                  .name = w.intern("timer_entry_markers"), .value = entryMarkers});
    summary.lastNs = clock;
    return summary;
}

}  // namespace cs::ingest
