#include "core/engine/cuda/cuda_programs.h"

#include "core/engine/cuda/device_link.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/util/saturating.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace cs::engine::cuda {

namespace {

// Evidence rows listed per finding; the note says how many more there were.
constexpr size_t kEvidenceRows = 25;

// 64-bit FNV-1a, each field followed by a NUL so ("ab","c") and ("a","bc") differ.
class Fnv {
public:
    void field(const std::string& s) {
        for (unsigned char c : s) mix(c);
        mix(0);
    }
    std::string hex() const {
        static const char* digits = "0123456789abcdef";
        std::string out(16, '0');
        for (int i = 0; i < 16; ++i) out[static_cast<size_t>(i)] = digits[(m_h >> ((15 - i) * 4)) & 0xf];
        return out;
    }

private:
    void mix(unsigned char c) {
        m_h ^= c;
        m_h *= 0x100000001b3ull;
    }
    std::uint64_t m_h = 0xcbf29ce484222325ull;
};

bool digitsAt(const std::string& s, size_t pos, size_t n) {
    if (pos + n > s.size()) return false;
    for (size_t i = pos; i < pos + n; ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}

// YYYY-MM-DD or YYYY/MM/DD, with a plausible year.
bool hasIsoDate(const std::string& s) {
    for (size_t i = 0; i + 10 <= s.size(); ++i) {
        if (!digitsAt(s, i, 4) || (s[i] != '1' && s[i] != '2')) continue;
        char sep = s[i + 4];
        if ((sep != '-' && sep != '/') || s[i + 7] != sep) continue;
        if (digitsAt(s, i + 5, 2) && digitsAt(s, i + 8, 2) && (i + 10 == s.size() || !std::isdigit(static_cast<unsigned char>(s[i + 10]))))
            return true;
    }
    return false;
}

// __DATE__'s form: "Mmm dd yyyy" (day padded with a space).
bool hasCDate(const std::string& s) {
    static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    for (const char* m : months) {
        for (size_t pos = s.find(m); pos != std::string::npos; pos = s.find(m, pos + 1)) {
            size_t i = pos + 3;
            if (i >= s.size() || s[i] != ' ') continue;
            ++i;
            if (i < s.size() && s[i] == ' ') ++i;
            size_t d = i;
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
            if (i == d || i - d > 2 || i >= s.size() || s[i] != ' ') continue;
            if (digitsAt(s, i + 1, 4)) return true;
        }
    }
    return false;
}

// __TIME__'s form: HH:MM:SS.
bool hasClockTime(const std::string& s) {
    for (size_t i = 0; i + 8 <= s.size(); ++i)
        if (digitsAt(s, i, 2) && s[i + 2] == ':' && digitsAt(s, i + 3, 2) && s[i + 5] == ':' && digitsAt(s, i + 6, 2) &&
            (i == 0 || !std::isdigit(static_cast<unsigned char>(s[i - 1]))))
            return true;
    return false;
}

bool hasTempPath(const std::string& s) {
    for (const char* dir : {"/tmp/", "/var/tmp/", "/dev/shm/", "\\Temp\\", "/private/var/folders/"})
        if (s.find(dir) != std::string::npos) return true;
    return false;
}

const char* apiName(int api) { return api == CS_CUDA_NVJITLINK ? "nvJitLink link" : api == CS_CUDA_NVCC ? "nvcc compile" : "NVRTC program"; }

void addEvidence(Finding& f, const std::string& table, std::int64_t id, std::string note, size_t total) {
    if (f.evidence.size() < kEvidenceRows)
        f.evidence.push_back({table, id, std::move(note)});
    else if (f.evidence.size() == kEvidenceRows)
        f.evidence.push_back({table, 0, "and " + std::to_string(total - kEvidenceRows) + " more"});
}

void widen(Finding& f, std::optional<std::int64_t> start, std::optional<std::int64_t> dur) {
    if (!start) return;
    std::int64_t end = util::satAdd(*start, std::max<std::int64_t>(dur.value_or(0), 0));
    f.startNs = f.startNs ? std::min(*f.startNs, *start) : *start;
    f.endNs = f.endNs ? std::max(*f.endNs, end) : end;
}

// The columns of a result row, read left to right.
struct Columns {
    const trace::Row& st;
    int next = 0;
    std::int64_t num() { return trace::colInt(st, next++); }
    std::optional<std::int64_t> opt() { return trace::colOpt(st, next++); }
};

// A compile that can count as a repeat: it produced output, and its source digest was recorded.
bool usable(const CudaProgram& p) { return p.succeeded() && !p.sourceDigest.empty(); }

std::int64_t durOf(const CudaProgram& p) { return p.durNs.value_or(0); }

}  // namespace

std::string programIdentity(int api, std::optional<std::int64_t> toolVersion, const std::string& sourceDigest,
                            const std::vector<std::string>& options) {
    Fnv h;
    h.field(std::to_string(api));
    h.field(toolVersion ? std::to_string(*toolVersion) : std::string());
    h.field(sourceDigest);
    h.field(std::to_string(options.size()));
    for (const auto& o : options) h.field(o);
    return h.hex();
}

std::optional<std::string> volatileValue(const std::string& option) {
    // The expanded value, as a build script pastes it: a literal -DX=__DATE__ keeps the options (and
    // the identity) the same from run to run.
    if (hasIsoDate(option) || hasCDate(option)) return "a date";
    if (hasClockTime(option)) return "a time of day";
    if (hasTempPath(option)) return "a temporary path";
    return std::nullopt;
}

std::string joinedOptions(const std::vector<std::string>& options) {
    std::string out;
    for (const auto& o : options) out += (out.empty() ? "" : " ") + o;
    return out.empty() ? "(no options)" : out;
}

CudaProgramReport loadCudaPrograms(const trace::TraceReader& reader) {
    CudaProgramReport report;
    // The compiler's version per session: the interposer's `nvrtc` / `nvjitlink` `version` counters.
    std::map<std::pair<std::int64_t, int>, std::int64_t> versions;
    reader.query("SELECT c.session_id, s.str, c.value FROM counters c JOIN strings s ON s.id = c.scope_sid "
                 "JOIN strings n ON n.id = c.name_sid WHERE n.str = 'version' AND s.str IN ('nvrtc', 'nvjitlink')",
                 [&](const trace::Row& st) {
                     int api = trace::colText(st, 1) == "nvrtc" ? CS_CUDA_NVRTC : CS_CUDA_NVJITLINK;
                     versions[{trace::colInt(st, 0), api}] = trace::colInt(st, 2);
                 });
    std::map<std::int64_t, size_t> index;
    reader.query("SELECT id, session_id, api, name_sid, source_digest_sid, start_ns, dur_ns, result FROM cuda_programs "
                 "ORDER BY start_ns, id",
                 [&](const trace::Row& st) {
                     Columns c{st};  // braced initialisers run in order: the columns are read left to right
                     CudaProgram p{.id = c.num(), .sessionId = c.num(), .api = static_cast<int>(c.num()),
                                   .name = reader.str(c.num()), .sourceDigest = reader.str(c.num()), .options = {},
                                   .startNs = c.num(), .durNs = c.opt(), .result = c.opt(), .toolVersion = {}, .identity = {},
                                   .inputs = {}};
                     if (p.durNs && *p.durNs < 0) p.durNs.reset();  // a negative stored duration is no duration
                     index[p.id] = report.programs.size();
                     report.programs.push_back(std::move(p));
                 });
    reader.query("SELECT program_id, option_sid FROM cuda_program_options ORDER BY program_id, ordinal", [&](const trace::Row& st) {
        auto it = index.find(trace::colInt(st, 0));
        if (it != index.end()) report.programs[it->second].options.push_back(reader.str(trace::colInt(st, 1)));
    });
    if (reader.rowCount("cuda_program_inputs") > 0)
        reader.query("SELECT program_id, kind_sid, name_sid, bytes FROM cuda_program_inputs ORDER BY program_id, ordinal",
                     [&](const trace::Row& st) {
                         auto it = index.find(trace::colInt(st, 0));
                         if (it == index.end()) return;
                         report.programs[it->second].inputs.push_back(
                             {reader.str(trace::colInt(st, 1)), reader.str(trace::colInt(st, 2)), trace::colOpt(st, 3)});
                     });
    std::map<std::pair<std::int64_t, std::string>, size_t> groupOf;
    for (size_t i = 0; i < report.programs.size(); ++i) {
        CudaProgram& p = report.programs[i];
        auto v = versions.find({p.sessionId, p.api});
        if (v != versions.end()) p.toolVersion = v->second;
        p.identity = programIdentity(p.api, p.toolVersion, p.sourceDigest, p.options);
        auto [it, fresh] = groupOf.try_emplace({p.sessionId, p.identity}, report.groups.size());
        if (fresh) report.groups.push_back({p.identity, p.sessionId, {}});
        report.groups[it->second].compiles.push_back(i);
    }
    if (reader.rowCount("cuda_jit") > 0)
        reader.query("SELECT id, session_id, start_ns, dur_ns, entry_type, operation, device, cache_path_sid, cache_bytes "
                     "FROM cuda_jit ORDER BY coalesce(start_ns, 0), id",
                     [&](const trace::Row& st) {
                         Columns c{st};
                         JitRecord j{.id = c.num(), .sessionId = c.num(), .startNs = c.opt(), .durNs = c.opt(),
                                     .entryType = static_cast<int>(c.num()), .operation = static_cast<int>(c.num()),
                                     .device = c.opt(), .cachePath = reader.str(c.num()), .cacheBytes = c.opt()};
                         if (j.durNs && *j.durNs < 0) j.durNs.reset();
                         report.jit.push_back(std::move(j));
                     });
    if (!slowLinks(report).empty()) report.deviceKernels = loadDeviceKernelCosts(reader);
    return report;
}

std::vector<Finding> cudaProgramFindings(const CudaProgramReport& report) {
    std::vector<Finding> out;
    const auto& programs = report.programs;

    // The same identity compiled several times in one process.
    for (const IdentityGroup& g : report.groups) {
        std::vector<size_t> ok;
        for (size_t i : g.compiles)
            if (usable(programs[i])) ok.push_back(i);
        if (ok.size() < 2) continue;
        const CudaProgram& first = programs[ok.front()];
        Finding f;
        f.kind = "cuda.repeated_compile";
        f.title = std::string(apiName(first.api)) + " " + (first.name.empty() ? "(unnamed)" : first.name) + " compiled " +
                  std::to_string(ok.size()) + " times with one identity";
        f.mechanism = "The same source, headers, options and compiler version were compiled " + std::to_string(ok.size()) +
                      " times in one process; each compile produced the output the first one had. Identity " +
                      g.identity + ", options: " + joinedOptions(first.options) + ".";
        std::int64_t cost = 0;
        for (size_t k = 0; k < ok.size(); ++k) {
            const CudaProgram& p = programs[ok[k]];
            if (k) cost = util::satAdd(cost, durOf(p));
            addEvidence(f, "cuda_programs", p.id,
                        k ? "compile " + std::to_string(k + 1) + " of " + std::to_string(ok.size()) + ", same identity"
                          : "first compile, identity " + g.identity,
                        ok.size());
            widen(f, p.startNs, p.durNs);
        }
        f.costNs = cost;
        f.fix = "Compile once and keep the PTX / CUBIN: cache it in memory, or on disk keyed by the identity "
                "(source and header digests, options, NVRTC version), and load it instead of compiling again.";
        f.sessionId = g.sessionId;
        out.push_back(std::move(f));
    }

    // The same identity compiled in several processes: nothing kept the result between runs.
    std::map<std::string, std::vector<const IdentityGroup*>> sessionsOf;
    for (const IdentityGroup& g : report.groups) {
        bool anyOk = std::any_of(g.compiles.begin(), g.compiles.end(), [&](size_t i) { return usable(programs[i]); });
        if (anyOk) sessionsOf[g.identity].push_back(&g);
    }
    for (const auto& [identity, groups] : sessionsOf) {
        if (groups.size() < 2) continue;
        const CudaProgram& first = programs[groups.front()->compiles.front()];
        Finding f;
        f.kind = "cuda.recompiled_every_run";
        f.title = std::string(apiName(first.api)) + " " + (first.name.empty() ? "(unnamed)" : first.name) + " compiled in " +
                  std::to_string(groups.size()) + " runs with one identity";
        f.mechanism = "Each run compiled the same source, headers, options and compiler version again (identity " +
                      identity + "); nothing kept the first run's output.";
        std::int64_t cost = 0;
        for (size_t k = 0; k < groups.size(); ++k) {
            const auto& list = groups[k]->compiles;
            const CudaProgram& p = programs[*std::find_if(list.begin(), list.end(), [&](size_t i) { return usable(programs[i]); })];
            if (k) cost = util::satAdd(cost, durOf(p));  // repeats inside a run are cuda.repeated_compile's cost, not counted twice
            addEvidence(f, "cuda_programs", p.id, "session " + std::to_string(p.sessionId) + (k ? ", compiled again" : ", first run"),
                        groups.size());
        }
        f.costNs = cost;
        f.fix = "Keep the PTX / CUBIN on disk between runs, keyed by the identity (source and header digests, options, "
                "compiler version), and load it when the identity matches.";
        out.push_back(std::move(f));
    }

    // Options holding a value that changes every run: the identity can never match a cached one.
    struct Volatile {
        std::string what, option;
        std::vector<size_t> compiles;
    };
    std::map<std::pair<std::int64_t, std::string>, Volatile> byProgram;  // (session, name)
    for (size_t i = 0; i < programs.size(); ++i) {
        for (const auto& o : programs[i].options) {
            auto what = volatileValue(o);
            if (!what) continue;
            Volatile& v = byProgram[{programs[i].sessionId, programs[i].name}];
            if (v.what.empty()) v.what = *what, v.option = o;
            v.compiles.push_back(i);
            break;
        }
    }
    for (const auto& [key, v] : byProgram) {
        const CudaProgram& first = programs[v.compiles.front()];
        Finding f;
        f.kind = "cuda.options_defeat_caching";
        f.title = std::string(apiName(first.api)) + " " + (key.second.empty() ? "(unnamed)" : key.second) +
                  ": an option holds " + v.what;
        f.mechanism = "The option " + v.option + " holds " + v.what +
                      ", which is different in every run, so the program's identity (source, options, compiler "
                      "version) changes every run and no cache keyed by it can ever hit.";
        std::int64_t cost = 0;
        std::set<std::string> identities;
        for (size_t i : v.compiles) {
            const CudaProgram& p = programs[i];
            cost = util::satAdd(cost, durOf(p));
            identities.insert(p.identity);
            addEvidence(f, "cuda_programs", p.id, "identity " + p.identity + ", option " + v.option, v.compiles.size());
            widen(f, p.startNs, p.durNs);
        }
        if (identities.size() > 1)
            f.mechanism += " This trace already holds " + std::to_string(identities.size()) + " identities of it.";
        f.costNs = cost;
        f.fix = "Take " + v.what + " out of the compile options (pass it to the kernel as an argument or a __constant__ "
                "value, or leave it out of the build), so identical programs keep one identity and a cache can serve them.";
        f.sessionId = key.first;
        out.push_back(std::move(f));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Finding& a, const Finding& b) { return a.costNs.value_or(0) > b.costNs.value_or(0); });
    return out;
}

std::vector<Finding> jitFindings(const CudaProgramReport& report) {
    std::vector<Finding> out;
    // The driver compiled PTX at load: per session and device.
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<const JitRecord*>> compiles;
    for (const JitRecord& j : report.jit)
        if (j.operation == CS_JIT_OP_COMPILE) compiles[{j.sessionId, j.device.value_or(-1)}].push_back(&j);
    for (const auto& [key, list] : compiles) {
        Finding f;
        f.kind = "cuda.jit_at_load";
        std::int64_t cost = 0;
        bool timed = false;
        for (const JitRecord* j : list) {
            cost = util::satAdd(cost, j->durNs.value_or(0));
            timed = timed || j->durNs.has_value();
            const char* entry = j->entryType == CS_JIT_ENTRY_NVVM_IR_TO_PTX ? "NVVM IR -> PTX" : "PTX -> CUBIN";
            addEvidence(f, "cuda_jit", j->id,
                        std::string("driver JIT compile ") + entry +
                            (j->durNs ? ", " + util::formatDuration(*j->durNs) : std::string(", time not recorded")),
                        list.size());
            widen(f, j->startNs, j->durNs);
        }
        f.title = "the driver JIT-compiled " + std::to_string(list.size()) + " module" + (list.size() == 1 ? "" : "s") +
                  " at load" + (key.second >= 0 ? " on device " + std::to_string(key.second) : std::string());
        f.mechanism = "The CUDA driver compiled PTX to machine code while loading a module: the fatbin carries no "
                      "SASS for this device's architecture, only PTX, so every load that misses the driver's compute "
                      "cache compiles again.";
        if (timed) f.costNs = cost;
        f.fix = "Build SASS for the device: add its architecture to -gencode (for example "
                "-gencode arch=compute_90,code=sm_90 for an H100), keeping a PTX target for newer devices.";
        f.sessionId = key.first;
        out.push_back(std::move(f));
    }

    // The compute cache not kept: an entry stored (or compiled) in an earlier session compiled again.
    std::map<std::string, std::int64_t> firstSession;  // cache path -> first session that stored or compiled it
    std::map<std::int64_t, std::vector<const JitRecord*>> again;  // session -> compiles of a known entry
    std::vector<const JitRecord*> tempPaths;
    for (const JitRecord& j : report.jit) {
        if (j.cachePath.empty()) continue;
        if (j.operation == CS_JIT_OP_COMPILE) {
            auto it = firstSession.find(j.cachePath);
            if (it != firstSession.end() && it->second != j.sessionId) again[j.sessionId].push_back(&j);
            if (hasTempPath(j.cachePath)) tempPaths.push_back(&j);
        }
        if (j.operation == CS_JIT_OP_COMPILE || j.operation == CS_JIT_OP_CACHE_STORE) firstSession.try_emplace(j.cachePath, j.sessionId);
    }
    std::set<std::int64_t> reported;
    auto cacheFinding = [&](const std::vector<const JitRecord*>& list, const std::string& why) {
        Finding f;
        f.kind = "cuda.jit_cache_not_kept";
        std::int64_t cost = 0;
        for (const JitRecord* j : list) {
            cost = util::satAdd(cost, j->durNs.value_or(0));
            reported.insert(j->id);
            addEvidence(f, "cuda_jit", j->id, "compiled again, cache entry " + j->cachePath, list.size());
            widen(f, j->startNs, j->durNs);
        }
        f.title = "the driver's JIT cache missed " + std::to_string(list.size()) + " module" + (list.size() == 1 ? "" : "s");
        f.mechanism = why;
        f.costNs = cost;
        f.fix = "Keep the compute cache between runs: set CUDA_CACHE_PATH to storage that survives the job and raise "
                "CUDA_CACHE_MAXSIZE above the size of the cached code (default 1 GiB on recent drivers); better, build "
                "SASS for the device so nothing is JIT-compiled.";
        f.sessionId = list.front()->sessionId;
        out.push_back(std::move(f));
    };
    for (const auto& [session, list] : again)
        cacheFinding(list, "A module the driver compiled and stored in its compute cache in an earlier run was compiled "
                           "again: the cache entry was evicted (cache size limit) or the cache directory was not kept.");
    std::vector<const JitRecord*> tempOnly;
    for (const JitRecord* j : tempPaths)
        if (!reported.count(j->id)) tempOnly.push_back(j);
    if (!tempOnly.empty())
        cacheFinding(tempOnly, "The driver's compute cache lives under a temporary directory, which is not kept "
                               "between jobs, so every new job compiles again.");
    return out;
}

}  // namespace cs::engine::cuda
