#include "core/ingest/warp/warp_log_importer.h"

#include "core/ingest/import_lines.h"
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

// One run over a log: a flat switch over the kind of each line, one short handler per kind.
class WarpLogReader {
public:
    WarpLogReader(ImportContext& ctx, std::string_view importerId)
        : m_ctx(ctx), w(ctx.writer), m_id(importerId),
          m_track(w.addTrack({.sessionId = ctx.sessionId, .kind = CS_TRACK_RUNTIME, .name = w.intern("warp modules")})),
          m_clock(ctx.baseNs) {}

    void line(const std::string& text) {
        ++m_lineNo;
        if (bannerOwns(text)) return;
        WarpLine l = warp::parseWarpLine(text);
        switch (l.kind) {
        case LineKind::Other: return onOther(text);
        case LineKind::Malformed:
            m_ctx.malformed(where(), l.error, m_id);
            ++m_summary.malformed;
            return;
        case LineKind::ModuleEntry:
            ++m_entryMarkers;
            m_openEntries[entryKey(l)] = m_clock;
            return;
        case LineKind::Compile: m_pendingCompiles.push_back(std::move(l)); return;
        case LineKind::KernelLookupFailed: return onKernelLookupFailed(l);
        case LineKind::KernelHashChanged: m_pendingKernelChanges.push_back({l.name, l.oldHash, l.hash, l.generic}); return;
        case LineKind::ModuleHashChanged: return onModuleHashChanged(l);
        case LineKind::ModuleLoad: return onModuleLoad(l);
        }
    }

    ImportSummary finish();

private:
    std::string where() const { return "line " + std::to_string(m_lineNo); }

    static std::string entryKey(const WarpLine& l) {
        return l.name + ' ' + l.hash + ' ' + l.device + ' ' + (l.blockDim ? std::to_string(*l.blockDim) : "-");
    }

    // The init banner's lines; true when the line was one of them.
    bool bannerOwns(const std::string& text) {
        if (!m_banner.open && text.find(" initialized:") == std::string::npos) return false;
        std::string clean = stripAnsi(text);
        Banner before = m_banner;
        if (bannerLine(trim(clean), m_banner)) {
            if (!m_banner.open) flushBanner(m_banner);
            return true;
        }
        if (before.open) flushBanner(before);  // a banner cut short by other output
        return false;
    }

    void flushBanner(const Banner& b) {
        auto span = w.addSpan({.trackId = m_track, .startNs = m_clock, .durNs = 0, .category = CS_CAT_INIT,
                               .name = w.intern(b.title)});
        for (const auto& [k, v] : b.args) w.addSpanArg(span, w.intern(k), std::string_view(v));
        ++m_summary.records;
    }

    void addKernel(std::int64_t loadId, const KernelChange& c, const std::string& digest) {
        w.addModuleKernel({.loadId = loadId, .kernel = w.intern(c.key), .digest = w.intern(digest),
                           .generic = c.generic ? w.intern(c.key) : 0});
    }

    void onOther(const std::string& text) {
        if (!m_ctx.forced || trim(text).empty()) return;
        if (m_unrecognised++ == 0)
            m_firstUnrecognised = where() + ": not a Warp line (\"" + std::string(util::utf8Prefix(trim(text), 60)) + "\")";
    }

    void onKernelLookupFailed(const WarpLine& l) {
        auto span = w.addSpan({.trackId = m_track, .startNs = m_clock, .durNs = 0, .category = CS_CAT_LAUNCH,
                               .name = w.intern("Failed to find " + l.mode + " kernel")});
        w.addSpanArg(span, w.intern("module"), std::string_view(l.name));
        w.addSpanArg(span, w.intern("kernel"), std::string_view(l.kernel));
        w.addSpanArg(span, w.intern("device"), std::string_view(l.device));
        w.addSpanArg(span, w.intern("origin"), std::string_view(m_ctx.sourceName + ":" + std::to_string(m_lineNo)));
        ++m_summary.records;
    }

    // Warp logs the kernel changes while re-hashing, then this line, then the load: the pending kernel
    // changes belong to this module and to its next load.
    void onModuleHashChanged(const WarpLine& l) {
        auto& changes = m_changesByModule[l.name];
        for (auto& c : m_pendingKernelChanges) changes.push_back(std::move(c));
        m_pendingKernelChanges.clear();
        // The superseded load keeps the kernels' old hashes, so the identities can be diffed.
        for (auto it = m_loads.rbegin(); it != m_loads.rend(); ++it) {
            if (it->name != l.name || it->hash.empty() || !startsWith(l.oldHash, it->hash)) continue;
            for (const auto& c : changes) addKernel(it->id, c, c.oldHash);
            break;
        }
    }

    // Compile timers printed since the last shallower record are this load's children.
    std::vector<WarpLine> claimCompiles(int indent) {
        std::vector<WarpLine> children;
        for (auto it = m_pendingCompiles.begin(); it != m_pendingCompiles.end();) {
            if (it->indent > indent) {
                children.push_back(std::move(*it));
                it = m_pendingCompiles.erase(it);
            } else {
                ++it;
            }
        }
        return children;
    }

    void onModuleLoad(const WarpLine& l);

    ImportContext& m_ctx;
    trace::TraceWriter& w;
    std::string_view m_id;
    ImportSummary m_summary;
    const std::int64_t m_track;
    std::int64_t m_clock;  // synthetic: loads laid end to end (see the header)
    std::int64_t m_lineNo = 0;
    std::int64_t m_unrecognised = 0;
    std::string m_firstUnrecognised;
    std::int64_t m_entryMarkers = 0;
    std::map<std::string, std::int64_t> m_openEntries;  // "name hash device block_dim" -> start
    std::vector<WarpLine> m_pendingCompiles;
    std::vector<KernelChange> m_pendingKernelChanges;
    std::map<std::string, std::vector<KernelChange>> m_changesByModule;
    std::vector<LoadRef> m_loads;
    Banner m_banner;
};

void WarpLogReader::onModuleLoad(const WarpLine& l) {
    // Start at the entry marker when the log has one (overlap becomes visible), else at the end of
    // everything so far (serial, Warp's default).
    std::int64_t start = m_clock;
    if (auto e = m_openEntries.find(entryKey(l)); e != m_openEntries.end()) {
        start = e->second;
        m_openEntries.erase(e);
    }
    std::vector<WarpLine> children = claimCompiles(l.indent);
    std::int64_t compileNs = 0;
    for (const auto& c : children) compileNs += c.durNs;
    auto loadId = w.addModuleLoad({.sessionId = m_ctx.sessionId, .trackId = m_track, .startNs = start,
                                   .durNs = l.durNs, .name = w.intern(l.name),
                                   .hash = l.hash.empty() ? 0 : w.intern(l.hash),
                                   .device = l.device.empty() ? 0 : w.intern(l.device),
                                   .blockDim = l.blockDim, .result = l.result,
                                   .compileNs = !children.empty() ? std::optional<std::int64_t>(compileNs) : std::nullopt,
                                   .origin = w.intern(m_ctx.sourceName + ":" + std::to_string(m_lineNo))});
    ++m_summary.records;
    for (const auto& c : children) {
        w.addPhaseTiming({.sessionId = m_ctx.sessionId, .tool = CS_PHASE_TOOL_OTHER, .input = w.intern(l.name),
                          .phase = w.intern("warp Compile " + c.compiler),
                          .arch = c.arch.empty() ? 0 : w.intern(c.arch), .startNs = std::nullopt,
                          .durNs = c.durNs, .parentId = std::nullopt});
        ++m_summary.records;
    }
    if (auto ch = m_changesByModule.find(l.name); ch != m_changesByModule.end()) {
        for (const auto& c : ch->second) addKernel(loadId, c, c.newHash);
        m_changesByModule.erase(ch);
    }
    m_loads.push_back({loadId, l.name, l.hash});
    if (start + l.durNs > m_clock) m_clock = start + l.durNs;
}

ImportSummary WarpLogReader::finish() {
    if (m_banner.open) flushBanner(m_banner);
    // Compile timers no Module line claimed (the run died mid-load) still cost time: keep them.
    for (const auto& c : m_pendingCompiles) {
        w.addPhaseTiming({.sessionId = m_ctx.sessionId, .tool = CS_PHASE_TOOL_OTHER,
                          .phase = w.intern("warp Compile " + c.compiler), .arch = c.arch.empty() ? 0 : w.intern(c.arch),
                          .durNs = c.durNs});
        ++m_summary.records;
    }
    m_ctx.unrecognised(m_unrecognised, m_firstUnrecognised, m_id);
    m_summary.unrecognised = m_unrecognised;
    m_summary.firstNs = m_ctx.baseNs;
    w.addCounter({.sessionId = m_ctx.sessionId, .tsNs = m_clock, .scope = w.intern("warp.log"),
                  .name = w.intern("timer_entry_markers"), .value = m_entryMarkers});
    m_summary.lastNs = m_clock;
    return m_summary;
}
}  // namespace

int WarpLogImporter::sniff(std::string_view head, std::string_view) const {
    std::string clean = stripAnsi(head);
    if (clean.find(" load on device '") != std::string::npos && clean.find("Module ") != std::string::npos) return 80;
    if (clean.find(" initialized:") != std::string::npos && clean.find("Warp ") != std::string::npos) return 70;
    if (clean.find("[Module.load] ") != std::string::npos || clean.find("Compile CUDA (arch=") != std::string::npos) return 60;
    return 0;
}

ImportSummary WarpLogImporter::run(std::istream& in, ImportContext& ctx) const {
    WarpLogReader reader(ctx, id());
    std::string line;
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) reader.line(line);
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    return reader.finish();
}

}  // namespace cs::ingest
