#include "core/engine/warp/warp_diagnosis.h"

#include "core/engine/warp/warp_evidence.h"
#include "core/engine/warp/warp_hash_patterns.h"
#include "core/engine/warp/warp_run_patterns.h"
#include "core/engine/warp/warp_unique.h"

#include "core/formats/warp_log_lines.h"
#include "core/trace/reader.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace cs::engine::warp {

namespace {
using K = IdentityChange::Kind;

std::string ms(std::int64_t ns) { return formatMs(ns); }

std::string changeText(const IdentityChange& c) {
    std::string s = changeKindName(c.kind);
    s += ": " + c.subject;
    if (c.kind == K::OptionChanged) s += " " + c.before + " -> " + c.after;
    else if (c.kind == K::KernelChanged) s += " (" + c.before + " -> " + c.after + ")";
    return s;
}

// The mechanism a diff shows, by precedence: an option, a generic instance, the kernel set, a
// kernel's content; "" when the trace holds no facts that explain the new hash.
std::string diffMechanism(const IdentityDiff& d) {
    auto has = [&](std::initializer_list<K> kinds) {
        return std::any_of(d.changes.begin(), d.changes.end(), [&](const IdentityChange& c) {
            return std::find(kinds.begin(), kinds.end(), c.kind) != kinds.end();
        });
    };
    if (has({K::OptionChanged})) return "warp.option_set_after_load";
    if (has({K::GenericAdded, K::GenericRemoved})) return "warp.generic_instance_after_load";
    if (has({K::KernelAdded, K::KernelRemoved})) return "warp.kernel_defined_after_load";
    if (has({K::KernelChanged})) return "warp.kernel_changed_after_load";
    return "warp.identity_churn";
}

struct MechanismText {
    const char* mechanism;
    const char* fix;
};

MechanismText churnText(const std::string& kind) {
    if (kind == "warp.option_set_after_load")
        return {"A module option changed after the module had loaded. Options are part of the module's identity, so "
                "the change created a new hash and the whole module was built again.",
                "Set module options before the first load: wp.set_module_options({...}) at module scope, or "
                "wp.get_module(\"pkg.name\").options.update({...}) before any kernel of it launches; global "
                "wp.config.* options must be set before the library is imported. Confirm the hash moved once."};
    if (kind == "warp.generic_instance_after_load")
        return {"A generic kernel was instantiated for new argument types after the module had loaded. Each "
                "instance joins the module's identity, so the module was rebuilt with it.",
                "Register the routinely used overloads with wp.overload() before the first launch and keep the "
                "overload objects alive; do not register types that are never used (that doubles the build)."};
    if (kind == "warp.kernel_defined_after_load")
        return {"The module's live kernel set changed after its first load (a kernel defined later, e.g. inside a "
                "function or a factory, or one collected). The new set has a new hash, so the whole module was "
                "built again.",
                "Define kernels at module scope, or create every expected kernel before the first launch; give "
                "per-call kernels their own named module; module=\"unique\" only as a last resort."};
    if (kind == "warp.kernel_changed_after_load")
        return {"A kernel of the module changed its content after the module had loaded (a closure or captured "
                "constant re-created it with other values). Its new hash changed the module's hash, so the whole "
                "module was built again.",
                "Create the kernel once with its final values (module scope or a cached factory); pass changing "
                "values as kernel arguments instead of capturing them."};
    return {"One module name was built under several hashes on the same device and block_dim: its kernel set, "
            "options or generic instances changed after it first loaded, and every new identity is a full "
            "build of the module. This trace does not record which of the three moved.",
            "Record with the Warp collector or a debug-level log (wp.config.log_level = wp.LOG_DEBUG prints "
            "which kernel hash changed); then define kernels before the first load, set options before it, and "
            "register generic overloads before it."};
}

// "warp.kernel_changed_after_load" -> "kernel changed after load"
std::string readable(std::string kind) {
    kind = kind.substr(kind.find('.') + 1);
    std::replace(kind.begin(), kind.end(), '_', ' ');
    return kind;
}

// Several hashes of one name, device and block_dim. Each superseded identity's compiled time is the
// cost: had the final identity been built first, none of the earlier builds was needed. Findings are
// grouped per mechanism so one module can carry, say, both a late option and a late kernel.
// `churned`: names already reported in an earlier session. A later run that only loads the same hashes
// from cache repeats nothing new at 0 ns, so it is not reported again.
void churnFindings(const ModuleSummary& m, std::set<std::string>& churned, std::vector<Finding>& out) {
    std::map<std::string, Finding> byKind;
    for (const auto& d : m.diffs) {
        const Identity &from = m.identities[d.from], &to = m.identities[d.to];
        if (from.hash == to.hash || from.hash.empty() || to.hash.empty()) continue;
        std::string kind = diffMechanism(d);
        auto [it, fresh] = byKind.try_emplace(kind);
        Finding& f = it->second;
        if (fresh) {
            auto text = churnText(kind);
            f.kind = kind;
            f.mechanism = text.mechanism;
            f.fix = text.fix;
            f.costNs = 0;
        }
        *f.costNs = util::satAdd(*f.costNs, from.compiledNs);
        std::string changes;
        for (const auto& c : d.changes) changes += (changes.empty() ? "" : ", ") + changeText(c);
        if (f.evidence.empty() && !from.loadIds.empty()) f.evidence.push_back(loadEvidence(m, from.loadIds.front(), "first identity"));
        if (!to.loadIds.empty())
            f.evidence.push_back(loadEvidence(m, to.loadIds.front(),
                                              "new hash " + shortHash(from.hash) + " -> " + shortHash(to.hash) + (changes.empty() ? "" : ": " + changes)));
    }
    for (auto& [kind, f] : byKind) {
        std::set<std::string> hashes;
        for (const auto& d : m.diffs)
            if (diffMechanism(d) == kind) hashes.insert(m.identities[d.from].hash), hashes.insert(m.identities[d.to].hash);
        if (f.costNs.value_or(0) == 0 && churned.count(m.name)) continue;
        f.title = "module " + m.name + " built under " + std::to_string(hashes.size()) + " hashes (" +
                  readable(kind) + ")";
        setRange(f, m);
        out.push_back(std::move(f));
    }
    if (!byKind.empty()) churned.insert(m.name);
}

// Several block_dims of one name and device, each compiled. The first block_dim's build is needed;
// every further one rebuilt the whole live kernel set. CUDA only: the guide's fix (one module per
// stable block_dim) does not apply to CPU loads, whose block_dim Warp overrides.
void blockDimFindings(const ModuleSummary& m, std::vector<Finding>& out) {
    std::map<std::string, std::vector<const Identity*>> byDevice;
    for (const auto& id : m.identities)
        if (id.compiled && id.blockDim && id.device != "cpu") byDevice[id.device].push_back(&id);
    for (const auto& [device, ids] : byDevice) {
        std::set<std::int64_t> dims;
        for (auto* id : ids) dims.insert(*id->blockDim);
        if (dims.size() < 2) continue;
        Finding f;
        f.kind = "warp.block_dim_variants";
        std::string list;
        for (auto d : dims) list += (list.empty() ? "" : ", ") + std::to_string(d);
        f.title = "module " + m.name + " compiled at " + std::to_string(dims.size()) + " block_dims (" + list + ") on " + device;
        f.mechanism = "On CUDA the module's entire live kernel set is compiled once per requested block_dim, so one "
                      "module launched at several block dimensions builds every kernel several times.";
        f.fix = "Give kernels with a stable block_dim their own module per block_dim (or set the module's block_dim "
                "with wp.set_module_options({\"block_dim\": N})); keep kernels whose block_dim varies at runtime in "
                "their own module so they do not drag the shared module into extra variants.";
        std::int64_t first = *ids.front()->blockDim;
        f.costNs = 0;
        for (auto* id : ids) {
            if (*id->blockDim != first) *f.costNs = util::satAdd(*f.costNs, id->compiledNs);
            f.evidence.push_back(loadEvidence(m, id->loadIds.front(), "block_dim " + std::to_string(*id->blockDim)));
        }
        setRange(f, m);
        out.push_back(std::move(f));
    }
}

std::string identityKey(const std::string& name, const Identity& id) {
    return name + '\x1f' + id.hash + '\x1f' + id.device + '\x1f' + (id.blockDim ? std::to_string(*id.blockDim) : "");
}

// Cache reuse across sessions (a warm run) and within one (compiled twice), and repeated loads.
// "loaded twice" / "loaded 3 times"
std::string times(int n) { return n == 2 ? "twice" : std::to_string(n) + " times"; }

// The repeated-loads title counts per identity: "6 identities each loaded twice", never the sum of
// repeats as if they were one identity's.
std::string repeatsTitle(const std::string& name, const std::vector<int>& loadsPerIdentity) {
    const int first = loadsPerIdentity.front();
    bool uniform = std::all_of(loadsPerIdentity.begin(), loadsPerIdentity.end(), [&](int n) { return n == first; });
    if (loadsPerIdentity.size() == 1) return "module " + name + " loaded " + times(first) + " under one identity";
    std::string ids = std::to_string(loadsPerIdentity.size()) + " identities";
    if (uniform) return "module " + name + ": " + ids + " each loaded " + times(first);
    int repeats = 0, most = 0;
    for (int n : loadsPerIdentity) repeats += n - 1, most = std::max(most, n);
    return "module " + name + ": " + ids + " loaded again (" + std::to_string(repeats) + " repeat loads, up to " +
           times(most) + " each)";
}

void reuseFindings(const ModuleReport& r, const std::set<const ModuleSummary*>& cycling, std::vector<Finding>& out) {
    std::set<std::string> seenEarlier;  // identities of earlier sessions
    std::int64_t currentSession = -1;
    std::set<std::string> thisSession;
    for (const auto& m : r.modules) {
        if (m.sessionId != currentSession) {
            seenEarlier.insert(thisSession.begin(), thisSession.end());
            thisSession.clear();
            currentSession = m.sessionId;
        }
        Finding cache, repeats;
        cache.costNs = repeats.costNs = 0;
        std::vector<int> loadsPerIdentity;  // of identities loaded again
        for (const auto& id : m.identities) {
            int repeatsHere = 0;
            auto key = identityKey(m.name, id);
            thisSession.insert(key);
            bool warm = seenEarlier.count(key) > 0;
            int compiledSoFar = 0;
            bool firstLoad = true;
            for (auto loadId : id.loadIds) {
                const ModuleLoad* l = loadById(m, loadId);
                std::int64_t ns = l->durNs.value_or(0);
                if (l->result == CS_MODULE_COMPILED) {
                    ++compiledSoFar;
                    if (warm || compiledSoFar > 1) {
                        *cache.costNs = util::satAdd(*cache.costNs, ns);
                        cache.evidence.push_back(loadEvidence(
                            m, loadId, warm ? "compiled again in a later run" : "compiled again in the same run"));
                    }
                } else if (!firstLoad && l->result != CS_MODULE_ERROR) {
                    *repeats.costNs = util::satAdd(*repeats.costNs, ns);
                    repeats.evidence.push_back(loadEvidence(m, loadId, "same identity loaded again"));
                    ++repeatsHere;
                }
                firstLoad = false;
            }
            if (repeatsHere) loadsPerIdentity.push_back(repeatsHere + 1);
        }
        if (cycling.count(&m)) repeats.evidence.clear();  // the hash-cycle finding explains these reloads
        if (!cache.evidence.empty()) {
            cache.kind = "warp.cache_not_reused";
            cache.title = "module " + m.name + " compiled although its identity was built before (cache not reused)";
            cache.mechanism = "The same module identity (name, hash, device, block_dim) was compiled again instead of "
                              "being loaded from Warp's kernel cache: the compiled artifact was discarded between "
                              "loads or runs.";
            cache.fix = "Look for wp.clear_kernel_cache() or wp.clear_lto_cache() in application code, "
                        "wp.config.cache_kernels = False, a kernel_cache_dir that is a fresh temporary or timestamped "
                        "directory or is deleted at exit, or CUDA_CACHE_DISABLE; persist WARP_CACHE_PATH and "
                        "CUDA_CACHE_PATH between runs. Fix this before restructuring modules.";
            setRange(cache, m);
            out.push_back(std::move(cache));
        }
        if (!repeats.evidence.empty()) {
            repeats.kind = "warp.repeated_loads";
            repeats.title = repeatsTitle(m.name, loadsPerIdentity);
            repeats.mechanism = "The same identity was loaded more than once in one run. Warp keeps a loaded module "
                                "until it is unloaded, so each repeat means the module (or a module it references, "
                                "whose reload unloads its dependents) was unloaded and loaded again, or several "
                                "processes wrote to the same log.";
            repeats.fix = "Avoid unloading and reloading modules (wp.get_module(...).unload(), re-registering kernels "
                          "in a referenced module); load each module once at start-up. If several worker processes "
                          "each load it, that cost is per process: share one process or accept it.";
            setRange(repeats, m);
            out.push_back(std::move(repeats));
        }
    }
}

// A log does not list kernels, so an unknown kernel set counts as small: the rule then rests on the
// module count alone, and the finding says so.
bool oneKernelOrUnknown(const ModuleSummary& m) {
    return m.identities.size() == 1 && m.identities.front().kernels.size() <= 1;
}

void smallModuleFindings(const ModuleReport& r, std::int64_t session, std::vector<Finding>& out) {
    std::map<std::pair<std::string, std::string>, std::vector<const ModuleSummary*>> groups;  // (device, package)
    std::vector<const ModuleSummary*> unique;
    for (const auto& m : r.modules) {
        if (m.sessionId != session || m.compiled != 1) continue;
        if (isUniqueModule(m)) {
            unique.push_back(&m);
            continue;
        }
        auto dot = m.name.rfind('.');
        if (dot == std::string::npos || !oneKernelOrUnknown(m)) continue;
        groups[{m.devices.empty() ? "" : m.devices.front(), m.name.substr(0, dot)}].push_back(&m);
    }
    auto fixedCostFinding = [&](const std::vector<const ModuleSummary*>& mods, Finding f) {
        std::int64_t floor = -1;
        for (auto* m : mods) {
            floor = floor < 0 ? m->compiledNs : std::min(floor, m->compiledNs);
            f.evidence.push_back(loadEvidence(*m, m->loads.front().id));
        }
        f.costNs = floor * static_cast<std::int64_t>(mods.size() - 1);
        setRange(f, *mods.front());
        for (auto* m : mods) {
            for (const auto& l : m->loads) {
                if (!l.startNs) continue;
                f.startNs = std::min(f.startNs.value_or(*l.startNs), *l.startNs);
                f.endNs = std::max(f.endNs.value_or(0), util::satAdd(*l.startNs, l.durNs.value_or(0)));
            }
        }
        out.push_back(std::move(f));
    };
    for (const auto& [key, mods] : groups) {
        if (mods.size() < kManySmallModules) continue;
        bool kernelsKnown = std::all_of(mods.begin(), mods.end(),
                                        [](auto* m) { return !m->identities.front().kernels.empty(); });
        Finding f;
        f.kind = "warp.many_small_modules";
        f.title = std::to_string(mods.size()) + " modules of " + key.second + " each built once on " +
                  (key.first.empty() ? std::string("one device") : key.first);
        f.mechanism = std::string("Every module pays a fixed build cost (code generation, compiler start-up, headers, "
                                  "loading) however few kernels it holds; many small modules in one feature repeat "
                                  "that cost once per module. Estimated as (modules - 1) x the cheapest build.") +
                      (kernelsKnown ? "" : " This trace does not list kernels, so module size is judged by count alone.");
        f.fix = "Group kernels that share a lifecycle, option set and stable block_dim into one named module "
                "(@wp.kernel(module=\"pkg.name\")). First measure a one-kernel module with the same options: that "
                "fixed cost bounds what merging can save.";
        fixedCostFinding(mods, std::move(f));
    }
    if (unique.size() >= 2) {
        Finding f;
        f.kind = "warp.unique_modules";
        f.title = std::to_string(unique.size()) + " hash-named modules, one per kernel (module=\"unique\")";
        f.mechanism = "Kernels declared with module=\"unique\" each get a module of their own, named from the "
                      "kernel's hash, so every one of them pays the fixed per-module build cost. Estimated as "
                      "(modules - 1) x the cheapest build.";
        f.fix = "Let stable kernels share a named module (drop module=\"unique\", or use module=\"pkg.name\"); keep "
                "unique modules for kernels that really need their own options, and check factory defaults that "
                "set it.";
        fixedCostFinding(unique, std::move(f));
    }
}

// Serial CUDA builds. Evidence must show the schedule: the probe's overlap factor, or debug entry
// markers. A log of exit lines alone looks serial whether or not the loads overlapped, so it proves
// nothing and the rule stays silent. CPU loads are left out: overlapping them is unsafe (CS-8).
void overlapFinding(const ModuleReport& r, std::int64_t session, std::vector<Finding>& out) {
    const auto counters = r.counters.count(session) ? r.counters.at(session) : std::map<std::string, std::int64_t>{};
    struct Build {
        const ModuleSummary* m;
        const ModuleLoad* l;
    };
    std::vector<Build> builds;
    std::set<std::string> names;
    for (const auto& m : r.modules) {
        if (m.sessionId != session) continue;
        for (const auto& l : m.loads)
            if (l.result == CS_MODULE_COMPILED && l.device.rfind("cuda", 0) == 0) builds.push_back({&m, &l}), names.insert(m.name);
    }
    if (names.size() < 2) return;
    std::string evidenceOfSerial;
    if (auto it = counters.find("warp.probe/overlap_factor_milli"); it != counters.end()) {
        if (it->second > kOverlapLimitMilli) return;
        char buf[64];
        std::snprintf(buf, sizeof buf, "overlap_factor %.2f", static_cast<double>(it->second) / 1000);
        evidenceOfSerial = buf;
    } else if (auto em = counters.find("warp.log/timer_entry_markers"); em != counters.end() && em->second > 0) {
        for (size_t i = 0; i < builds.size(); ++i)
            for (size_t j = i + 1; j < builds.size(); ++j) {
                const auto *a = builds[i].l, *b = builds[j].l;
                if (!a->startNs || !b->startNs) return;
                if (*a->startNs < util::satAdd(*b->startNs, b->durNs.value_or(0)) && *b->startNs < util::satAdd(*a->startNs, a->durNs.value_or(0)))
                    return;  // two builds overlapped: loading is already concurrent
            }
        evidenceOfSerial = "timer entry markers show each build finished before the next began";
    } else {
        return;  // a log without entry markers cannot show whether builds overlapped
    }
    std::int64_t sum = 0, longest = 0;
    Finding f;
    f.kind = "warp.builds_not_overlapped";
    f.severity = Severity::Info;
    f.title = std::to_string(names.size()) + " CUDA modules built one at a time (" + evidenceOfSerial + ")";
    for (const auto& b : builds) {
        sum = util::satAdd(sum, b.l->durNs.value_or(0));
        longest = std::max(longest, b.l->durNs.value_or(0));
        f.evidence.push_back(loadEvidence(*b.m, b.l->id));
        if (b.l->startNs) {
            f.startNs = std::min(f.startNs.value_or(*b.l->startNs), *b.l->startNs);
            f.endNs = std::max(f.endNs.value_or(0), util::satAdd(*b.l->startNs, b.l->durNs.value_or(0)));
        }
    }
    f.sessionId = session;
    f.costNs = sum - longest;
    f.mechanism = "Independent CUDA modules were compiled one after another; Warp loads modules serially unless "
                  "asked otherwise. Overlapping them changes when the work happens, not how much is compiled; the "
                  "estimate is the ceiling (summed builds minus the longest one).";
    f.fix = "Preload at the entry point with wp.force_load(device=..., modules=[...], max_workers=min(cpu_count, 8)) "
            "(CUDA only; keep max_workers <= 1 whenever a load can target the CPU), then judge the change on compile "
            "elapsed (cold wall - warm wall), not on summed module time.";
    out.push_back(std::move(f));
}

// Rules that need the probe's medians: the warm pass (cache reuse) and native compile vs module time
// with LTO artifacts (link-dominated builds), with the probe's own thresholds.
void probeFindings(const ModuleReport& r, std::int64_t session, std::vector<Finding>& out) {
    if (!r.counters.count(session)) return;
    const auto& c = r.counters.at(session);
    auto get = [&](const char* name) -> std::optional<std::int64_t> {
        auto it = c.find(std::string("warp.probe/") + name);
        return it == c.end() ? std::nullopt : std::optional(it->second);
    };
    auto cold = get("cold_module_ns_median"), warm = get("warm_module_ns_median");
    if (cold && warm && *cold > 0 && static_cast<double>(*warm) > kWarmReuseLimit * static_cast<double>(*cold)) {
        Finding f;
        f.kind = "warp.cache_not_reused";
        f.sessionId = session;
        f.title = "warm run still pays " + std::to_string(*warm * 100 / *cold) + "% of the cold module work (cache not reused)";
        f.mechanism = "Re-running the command against the cache its cold run populated still compiled modules: "
                      "the application discards its own compiled kernels between runs.";
        f.fix = "Look for wp.clear_kernel_cache() or wp.clear_lto_cache(), wp.config.cache_kernels = False, a "
                "temporary or timestamped kernel_cache_dir, a cache deleted at exit, or CUDA_CACHE_DISABLE; persist "
                "WARP_CACHE_PATH and CUDA_CACHE_PATH. Fix this before restructuring modules.";
        f.evidence.push_back({"counters", 0, "warm_module_ms_median " + ms(*warm) + " vs cold_module_ms_median " + ms(*cold)});
        f.costNs = *warm;
        out.push_back(std::move(f));
    }
    auto lto = get("lto_artifacts"), native = get("native_compile_ns_median");
    if (lto && *lto > 0 && cold && native && *cold > 0 &&
        static_cast<double>(*cold - *native) > kLinkDominated * static_cast<double>(*cold)) {
        Finding f;
        f.kind = "warp.link_dominated";
        f.sessionId = session;
        f.title = "link-dominated builds: " + std::to_string((*cold - *native) * 100 / *cold) +
                  "% of module time outside the native compiler, " + std::to_string(*lto) + " LTO artifacts";
        f.mechanism = "MathDx / tile code is linked from LTO artifacts: most of the module time is device-code "
                      "linking, not compilation, so less source or fewer modules barely help.";
        f.fix = "Check enable_backward first (adjoint tile operations need their own links); measure with "
                "enable_mathdx_gemm / solver / fft toggled and benchmark steady-state runtime before keeping it; "
                "never clear the LTO cache between runs.";
        f.evidence.push_back({"counters", 0, "cold " + ms(*cold) + ", native compile " + ms(*native) + ", LTO artifacts " +
                                                 std::to_string(*lto)});
        f.costNs = *cold - *native;
        out.push_back(std::move(f));
    }
}

// LTO from per-load facts (a collector records lto_artifacts and compile_ns per load).
void linkFindings(const ModuleSummary& m, std::vector<Finding>& out) {
    for (const auto& l : m.loads) {
        if (!l.ltoArtifacts || *l.ltoArtifacts <= 0 || !l.compileNs || !l.durNs || *l.durNs <= 0) continue;
        std::int64_t outside = util::satSub(*l.durNs, *l.compileNs);
        if (static_cast<double>(outside) <= kLinkDominated * static_cast<double>(*l.durNs)) continue;
        Finding f;
        f.kind = "warp.link_dominated";
        f.title = "module " + m.name + " build is link-dominated (" + std::to_string(static_cast<std::int64_t>(100.0 * static_cast<double>(outside) / static_cast<double>(*l.durNs))) +
                  "% outside the native compiler, " + std::to_string(*l.ltoArtifacts) + " LTO artifacts)";
        f.mechanism = "MathDx / tile code is linked from LTO artifacts: most of this module's time is device-code "
                      "linking, not compilation.";
        f.fix = "Check enable_backward first; toggle enable_mathdx_* and benchmark runtime; keep the LTO cache.";
        f.evidence.push_back(loadEvidence(m, l.id, "native compile " + ms(*l.compileNs)));
        f.costNs = outside;
        setRange(f, m);
        out.push_back(std::move(f));
        return;
    }
}
// CS-8: a module loaded on the CPU, then a launch could not find its kernel in it. Concurrent first
// loads that target the CPU race the native JIT and can lose kernels; retries do not make them safe.
void lookupRaceFinding(const ModuleReport& r, std::int64_t session, std::vector<Finding>& out) {
    Finding f;
    for (const auto& lf : r.lookupFailures) {
        if (lf.sessionId != session || (lf.device != "cpu" && !lf.device.empty())) continue;
        auto m = std::find_if(r.modules.begin(), r.modules.end(), [&](const ModuleSummary& s) {
            return s.sessionId == session && s.name == lf.module;
        });
        if (m == r.modules.end()) continue;  // the module never loaded: a different problem
        if (f.evidence.empty()) f.evidence.push_back(loadEvidence(*m, m->loads.front().id, "module loaded"));
        f.evidence.push_back({"spans", lf.spanId,
                              "Failed to find " + lf.mode + " kernel '" + lf.kernel + "' from module '" + lf.module +
                                  "' for device '" + lf.device + "'" + (lf.origin.empty() ? "" : " (" + lf.origin + ")")});
    }
    if (f.evidence.empty()) return;
    f.kind = "warp.cpu_load_race";
    f.severity = Severity::Error;
    f.sessionId = session;
    f.title = "kernels missing from CPU modules that loaded (concurrent first CPU load)";
    f.mechanism = "A module loaded on the CPU, then a launch found no kernel in it. Concurrent first loads that "
                  "target the CPU race Warp's native JIT and can lose kernels; this is a correctness problem, not "
                  "a cost, and retries do not make it safe.";
    f.fix = "Keep max_workers <= 1 (wp.force_load / wp.load_module / warp.config.load_module_max_workers) for every "
            "load that can target the CPU, including device=None and mixed device lists; parallel loading is safe "
            "for CUDA-only loads.";
    out.push_back(std::move(f));
}
}  // namespace

std::vector<Finding> diagnoseModules(const ModuleReport& report) {
    std::vector<Finding> out;
    std::set<std::string> churned;
    std::set<const ModuleSummary*> cycling;
    for (const auto& m : report.modules) {
        // A cycle or a rise is the specific form of this module's churn: it replaces the churn finding.
        if (auto cycle = findHashCycle(m)) {
            hashCycleFinding(m, *cycle, out);
            cycling.insert(&m);
        } else if (auto rising = findRisingBuilds(m)) {
            risingBuildsFinding(m, *rising, out);
            churned.insert(m.name);
        } else {
            churnFindings(m, churned, out);
        }
        uniqueNameMismatchFinding(m, out);
        blockDimFindings(m, out);
        linkFindings(m, out);
    }
    reuseFindings(report, cycling, out);
    relatedRunsFindings(report, out);
    std::set<std::int64_t> sessions(report.sessions.begin(), report.sessions.end());
    for (const auto& [s, c] : report.counters) sessions.insert(s);
    for (const auto& lf : report.lookupFailures) sessions.insert(lf.sessionId);
    for (auto s : sessions) {
        smallModuleFindings(report, s, out);
        slowCacheHitFindings(report, s, out);
        overlapFinding(report, s, out);
        probeFindings(report, s, out);
        lookupRaceFinding(report, s, out);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Finding& a, const Finding& b) { return a.costNs.value_or(0) > b.costNs.value_or(0); });
    return out;
}

std::vector<Finding> analyseWarpModules(const trace::TraceReader& reader) {
    return diagnoseModules(buildModuleReport(reader));
}

}  // namespace cs::engine::warp
