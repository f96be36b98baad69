#include "core/engine/warp/warp_run_patterns.h"

#include "core/engine/warp/warp_evidence.h"
#include "core/formats/text_util.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace cs::engine::warp {

namespace {
struct LoadRef {
    const ModuleSummary* m;
    const ModuleLoad* l;
};

std::string identityKey(const ModuleLoad& l) {
    return l.name + '\x1f' + l.hash + '\x1f' + l.device + '\x1f' +
           (l.blockDim ? std::to_string(*l.blockDim) : "");
}

// "12.8" -> (12, 8); nullopt when it is not "<major>.<minor>".
std::optional<std::pair<long long, long long>> version(const std::string& s) {
    auto dot = s.find('.');
    long long major = 0, minor = 0;
    if (dot == std::string::npos || !ingest::parseInt(std::string_view(s).substr(0, dot), major))
        return std::nullopt;
    auto rest = std::string_view(s).substr(dot + 1);
    rest = rest.substr(0, rest.find_first_not_of("0123456789"));
    if (!ingest::parseInt(rest, minor))
        return std::nullopt;
    return std::make_pair(major, minor);
}

struct Cause {
    std::string text, fix;
};

Cause likelyCause(const ModuleReport& r, const ModuleLoad& slow, std::int64_t threshold) {
    for (const auto& m : r.modules) {
        if (m.name != slow.name)
            continue;
        for (const auto& l : m.loads) {
            if (l.id == slow.id || l.result != CS_MODULE_CACHED || l.durNs.value_or(threshold) >= threshold)
                continue;
            if (identityKey(l) != identityKey(slow))
                continue;
            return {
                "the same identity loaded from cache in " + formatMs(*l.durNs) + " elsewhere (" + l.origin +
                    "), so the module is not slow to load by itself: what this load reads was cold (the CUDA "
                    "driver's compute cache, which compiles Warp's cached PTX, or the file system)",
                "Keep the driver's compute cache with the kernel cache (persist CUDA_CACHE_PATH beside "
                "WARP_CACHE_PATH, e.g. in CI caches and containers) and warm both before timing."};
        }
    }
    if (slow.device.rfind("cuda", 0) == 0) {
        std::string versions;
        bool ptx = true;
        if (auto b = r.banners.find(slow.sessionId);
            b != r.banners.end() && b->second.count("driver") && b->second.count("cuda_toolkit")) {
            auto d = version(b->second.at("driver")), t = version(b->second.at("cuda_toolkit"));
            if (d && t) {
                ptx = *d >= *t;
                versions = " (the banner: driver " + b->second.at("driver") + ", toolkit " +
                           b->second.at("cuda_toolkit") + ")";
            }
        }
        if (!ptx)
            return {"the driver is older than Warp's toolkit" + versions +
                        ", so Warp cached CUBIN and no driver "
                        "compile was needed: the module is very large or the load waited (file system, first "
                        "use of "
                        "the device)",
                    "Check the module's size (its cache directory) and whether this was the first CUDA work "
                    "of the "
                    "process; split very large modules."};
        return {
            "the CUDA driver compiling PTX at load" + versions +
                ": Warp caches PTX when the driver "
                "is at least as new as its toolkit, and a cached load hands that PTX to the driver, which "
                "compiles it for the GPU unless its own compute cache (~/.nv/ComputeCache) holds the result",
            "Persist the driver's compute cache with the kernel cache (CUDA_CACHE_PATH beside "
            "WARP_CACHE_PATH; "
            "never CUDA_CACHE_DISABLE; raise CUDA_CACHE_MAXSIZE if it is full), or set "
            "wp.config.cuda_output = \"cubin\" so the kernel cache holds binaries that need no driver "
            "compile."};
    }
    return {
        "the CPU module's object file is linked into the process at load: a very large module links slowly, "
        "or the file system was slow",
        "Check the module's size in the kernel cache; split very large CPU modules."};
}
} // namespace

void slowCacheHitFindings(const ModuleReport& r, std::int64_t session, std::vector<Finding>& out) {
    std::vector<LoadRef> cached;
    for (const auto& m : r.modules) {
        if (m.sessionId != session)
            continue;
        for (const auto& l : m.loads)
            if (l.result == CS_MODULE_CACHED && l.durNs)
                cached.push_back({&m, &l});
    }
    if (cached.size() < kSlowCacheHitMinLoads)
        return;
    std::vector<std::int64_t> ns;
    for (const auto& c : cached)
        ns.push_back(*c.l->durNs);
    std::sort(ns.begin(), ns.end());
    const size_t n = ns.size();
    const std::int64_t median = n % 2 ? ns[n / 2] : util::satAdd(ns[n / 2 - 1], ns[n / 2]) / 2;
    const std::int64_t threshold = std::max(
        kSlowCacheHitMinNs, static_cast<std::int64_t>(kSlowCacheHitFactor * static_cast<double>(median)));
    for (const auto& c : cached) {
        const std::int64_t d = *c.l->durNs;
        if (d < threshold)
            continue;
        Cause cause = likelyCause(r, *c.l, threshold);
        Finding f;
        f.kind = "warp.slow_cache_hit";
        std::string times = median > 0 ? std::to_string(d / median) + "x" : "far above";
        f.title = "module " + c.m->name + " loaded from cache in " + formatMs(d) + ", " + times +
                  " the median cached load (" + formatMs(median) + ")";
        f.mechanism =
            "A load Warp reports as (cached) still took far longer than the other cached loads of this run "
            "(median of " +
            std::to_string(n) + "): a cache hit should only read a binary. Likely cause: " + cause.text + ".";
        f.fix = cause.fix;
        f.costNs = d - median;
        f.evidence.push_back(loadEvidence(*c.m, c.l->id, "median cached load " + formatMs(median)));
        setRange(f, *c.m);
        out.push_back(std::move(f));
    }
}

void relatedRunsFindings(const ModuleReport& r, std::vector<Finding>& out) {
    if (r.sessions.size() < 2)
        return;
    auto runOf = [&](std::int64_t s) {
        return static_cast<size_t>(std::find(r.sessions.begin(), r.sessions.end(), s) - r.sessions.begin()) +
               1;
    };
    // The first compiled load of every identity, by the session that built it.
    std::map<std::string, LoadRef> builtAt;
    struct Pair {
        LoadRef cold, warm;
    };
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<Pair>> pairs; // (cold, warm session)
    std::map<std::string, std::int64_t> matched; // identity -> warm session already counted
    for (const auto& m : r.modules) {
        for (const auto& l : m.loads) {
            auto key = identityKey(l);
            if (l.result == CS_MODULE_COMPILED) {
                builtAt.try_emplace(key, LoadRef{&m, &l});
                continue;
            }
            if (l.result != CS_MODULE_CACHED)
                continue;
            auto b = builtAt.find(key);
            if (b == builtAt.end() || b->second.l->sessionId >= l.sessionId)
                continue;
            auto [it, fresh] = matched.try_emplace(key, l.sessionId);
            if (!fresh && it->second == l.sessionId)
                continue; // one pair per identity and warm run
            it->second = l.sessionId;
            pairs[{b->second.l->sessionId, l.sessionId}].push_back({b->second, {&m, &l}});
        }
    }
    for (const auto& [sessions, list] : pairs) {
        Finding f;
        f.kind = "warp.runs_related";
        f.severity = Severity::Info;
        std::int64_t built = 0, loaded = 0;
        for (const auto& p : list) {
            built = util::satAdd(built, p.cold.l->durNs.value_or(0));
            loaded = util::satAdd(loaded, p.warm.l->durNs.value_or(0));
        }
        const auto cold = runOf(sessions.first), warm = runOf(sessions.second);
        f.title = std::to_string(list.size()) + (list.size() == 1 ? " identity" : " identities") +
                  ", compiled in run " + std::to_string(cold) + ", loaded from cache in run " +
                  std::to_string(warm) + " (" + formatMs(built) + " of builds, " + formatMs(loaded) +
                  " of loads)";
        f.mechanism = "Run " + std::to_string(warm) +
                      " found these module identities (name, hash, device, block_dim) "
                      "in the kernel cache that run " +
                      std::to_string(cold) +
                      " filled: the two runs are the cold and "
                      "the warm start of the same program, and the difference is what the cache saves.";
        f.fix = "Nothing to fix: judge a change on the cold run's compile time (cold wall - warm wall), and "
                "keep the "
                "kernel cache between runs.";
        for (const auto& p : list) {
            f.evidence.push_back(loadEvidence(*p.cold.m, p.cold.l->id, "run " + std::to_string(cold)));
            f.evidence.push_back(loadEvidence(*p.warm.m, p.warm.l->id, "run " + std::to_string(warm)));
        }
        f.sessionId = sessions.second;
        out.push_back(std::move(f));
    }
}

} // namespace cs::engine::warp
