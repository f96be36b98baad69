#include "core/measure/trace_diff.h"

#include "core/engine/cache/verdict.h"
#include "core/engine/compile_index.h"
#include "core/measure/comparison.h"
#include "core/util/units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace cs::measure {

const char* changeKindName(ChangeKind k) {
    switch (k) {
    case ChangeKind::NewCompile: return "new-compile";
    case ChangeKind::GoneCompile: return "gone";
    case ChangeKind::NowReused: return "now-reused";
    case ChangeKind::NowCompiled: return "now-compiled";
    case ChangeKind::NewRecompile: return "new-recompile";
    case ChangeKind::FewerRecompiles: return "fewer-recompiles";
    case ChangeKind::Slower: return "slower";
    case ChangeKind::Faster: return "faster";
    case ChangeKind::InsideNoise: return "inside-noise";
    case ChangeKind::NewFinding: return "new-finding";
    case ChangeKind::ResolvedFinding: return "resolved-finding";
    case ChangeKind::VerdictChanged: return "verdict-changed";
    }
    return "?";
}

namespace {

bool isCompile(engine::CompileOutcome o) {
    using O = engine::CompileOutcome;
    return o == O::Miss || o == O::Compiled || o == O::Error;
}

// A value that names this process's memory, not the program: 0x followed by 6+ hex digits.
bool isAddress(const std::string& v) {
    if (v.size() < 8 || v[0] != '0' || (v[1] != 'x' && v[1] != 'X')) return false;
    return std::all_of(v.begin() + 2, v.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

// The identity of a row that survives a new process (see the header).
std::string identityOf(const engine::CompileEntry& e) {
    if (e.table != "cache_lookups") return e.identity;
    std::string cache = e.identity.substr(0, e.identity.find(", handle "));
    std::string key;
    for (const auto& c : e.key) {
        if (!c.inKey || c.role == "world" || isAddress(c.value)) continue;
        key += (key.empty() ? "" : "; ") + c.name + " = " + c.value;
    }
    return key.empty() ? cache : cache + ": " + key;
}

// "norm (/home/ci/repo/train.py:12)" -> "norm (train.py:12)": the base and the head of a diff often
// run from different checkouts, and a function is the same function there.
std::string withoutDirectories(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    size_t i = 0;
    while (i < s.size()) {
        if (s[i] == '/' && (i == 0 || s[i - 1] == '(' || s[i - 1] == ' ' || s[i - 1] == '"' || s[i - 1] == '\'')) {
            size_t end = i;  // the path runs to the next space, quote or parenthesis
            while (end < s.size() && s[end] != ' ' && s[end] != ')' && s[end] != '(' && s[end] != '"' && s[end] != '\'' &&
                   s[end] != ',')
                ++end;
            const size_t slash = s.rfind('/', end - 1);
            out.append(s, slash + 1, end - slash - 1);
            i = end;
            continue;
        }
        out += s[i++];
    }
    return out;
}

std::int64_t medianOf(const std::vector<std::int64_t>& v) {
    return v.empty() ? 0 : static_cast<std::int64_t>(std::llround(median(v)));
}

std::string subjectOf(const DiffIdentity& id) {
    std::string s = id.kind + " " + id.name;
    if (!id.identity.empty()) {
        std::string what = id.identity.size() > 140 ? id.identity.substr(0, 137) + "..." : id.identity;
        s += " (" + what + ")";
    }
    return s;
}

std::string countText(std::int64_t base, std::int64_t head, const char* what) {
    return std::to_string(base) + " -> " + std::to_string(head) + " " + what;
}

struct Collector {
    std::vector<DiffIdentity> ids;
    std::map<std::string, size_t> byKey;

    void add(const Runs& runs, bool head) {
        for (size_t s = 0; s < runs.size(); ++s) {
            const auto& a = *runs[s];
            // A collector that records a compile as a cache lookup also records its compile (or
            // cache-load) span at the same instant (Numba): one event, counted once, as the lookup.
            // (A span whose name merely starts a lookup's program, PyTorch's frame "norm" beside the
            // lookup "norm (t.py:4)", is its own compile: only the other way round is one event.)
            std::multimap<std::int64_t, const std::string*> lookupStarts;
            for (const auto& e : a.compileIndex.entries)
                if (e.table == "cache_lookups" && e.startNs) lookupStarts.emplace(*e.startNs, &e.name);
            auto sameEvent = [&](const engine::CompileEntry& e) {
                if (e.table != "spans" || !e.startNs) return false;
                auto [lo, hi] = lookupStarts.equal_range(*e.startNs);
                for (auto it = lo; it != hi; ++it)
                    if (e.name.rfind(*it->second, 0) == 0) return true;
                return false;
            };
            for (const auto& e : a.compileIndex.entries) {
                if (sameEvent(e)) continue;
                const std::string ident = withoutDirectories(identityOf(e));
                const std::string name = withoutDirectories(e.name);
                const std::string k = e.kind + '\x1f' + name + '\x1f' + ident;
                auto [it, fresh] = byKey.emplace(k, ids.size());
                if (fresh) {
                    DiffIdentity d;
                    d.kind = e.kind;
                    d.name = name;
                    d.identity = ident;
                    d.runtime = e.runtime;
                    ids.push_back(std::move(d));
                }
                DiffIdentity& d = ids[it->second];
                auto& compiles = head ? d.headCompiles : d.baseCompiles;
                auto& reuses = head ? d.headReuses : d.baseReuses;
                auto& cost = head ? d.headCostNs : d.baseCostNs;
                for (auto* v : {&compiles, &reuses, &cost})
                    if (v->size() < runs.size()) v->resize(runs.size(), 0);
                if (isCompile(e.outcome)) {
                    ++compiles[s];
                    if (e.costNs) cost[s] += *e.costNs;
                } else {
                    ++reuses[s];
                }
                std::string& anchor = head ? d.headAnchor : d.baseAnchor;
                if (anchor.empty()) {
                    anchor = engine::compileAnchor(e.table, e.rowId);
                    (head ? d.headTrace : d.baseTrace) = a.path;
                    (head ? d.headTable : d.baseTable) = e.table;
                    (head ? d.headRow : d.baseRow) = e.rowId;
                }
            }
        }
    }
    // Identities a sample never met (or a side never met): zeros there.
    void finish(size_t baseSamples, size_t headSamples) {
        for (auto& d : ids) {
            for (auto* v : {&d.baseCompiles, &d.baseReuses, &d.baseCostNs}) v->resize(baseSamples, 0);
            for (auto* v : {&d.headCompiles, &d.headReuses, &d.headCostNs}) v->resize(headSamples, 0);
        }
    }
};

void addCostChange(TraceDiff& diff, size_t index) {
    const DiffIdentity& d = diff.identities[index];
    const MetricComparison m = compareSamples(d.name, d.baseCostNs, d.headCostNs);
    if (m.baseMedian <= 0 && m.candMedian <= 0) return;
    if (m.delta == 0) return;
    DiffChange c;
    c.kind = m.verdict == CompareVerdict::Worse    ? ChangeKind::Slower
             : m.verdict == CompareVerdict::Better ? ChangeKind::Faster
                                                   : ChangeKind::InsideNoise;
    c.subject = subjectOf(d);
    c.baseMedianNs = m.baseMedian;
    c.headMedianNs = m.candMedian;
    c.bandNs = m.band;
    c.percent = m.baseMedian > 0 ? m.delta / m.baseMedian * 100.0 : 0;
    c.detail = util::formatDuration(static_cast<std::int64_t>(m.baseMedian)) + " -> " +
               util::formatDuration(static_cast<std::int64_t>(m.candMedian)) + " (" + (c.percent >= 0 ? "+" : "") +
               std::to_string(static_cast<long long>(std::llround(c.percent))) + " %, noise band " +
               util::formatDuration(static_cast<std::int64_t>(m.band)) +
               (m.baseSamples < 2 ? "; one base sample: its spread is unknown, give several traces a side to judge" : "") +
               ")";
    c.identity = index;
    diff.changes.push_back(std::move(c));
}

// GCC warns on designated initializers that leave members out: changes are built field by field.
DiffChange change(ChangeKind kind, std::string subject, std::string detail, std::int64_t baseCount = 0, std::int64_t headCount = 0,
                  std::optional<size_t> identity = std::nullopt) {
    DiffChange c;
    c.kind = kind;
    c.subject = std::move(subject);
    c.detail = std::move(detail);
    c.baseCount = baseCount;
    c.headCount = headCount;
    c.identity = identity;
    return c;
}

DiffChange findingChange(ChangeKind kind, const std::pair<std::string, std::string>& f) {
    DiffChange c = change(kind, f.second, f.first);
    c.findingKind = f.first;
    return c;
}

std::vector<std::pair<std::string, std::string>> findingsOf(const engine::TraceAnalysis& a) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& f : a.findings) out.emplace_back(f.kind, f.title);
    return out;
}

}  // namespace

TraceDiff diffRuns(const Runs& base, const Runs& head) {
    if (base.empty() || head.empty()) throw std::invalid_argument("diff needs at least one trace on each side");
    TraceDiff diff;
    for (const auto& a : base) diff.basePaths.push_back(a->path);
    for (const auto& a : head) diff.headPaths.push_back(a->path);
    Collector col;
    col.add(base, false);
    col.add(head, true);
    col.finish(base.size(), head.size());
    diff.identities = std::move(col.ids);

    std::vector<std::int64_t> baseAll(base.size()), headAll(head.size()), baseCost(base.size()), headCost(head.size());
    // Compiles per program / module / function name, for recompiles.
    std::map<std::pair<std::string, std::string>, std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> byName;
    for (const auto& d : diff.identities) {
        auto& [bn, hn] = byName[{d.kind, d.name}];
        bn.resize(base.size(), 0);
        hn.resize(head.size(), 0);
        for (size_t s = 0; s < base.size(); ++s) {
            baseAll[s] += d.baseCompiles[s];
            baseCost[s] += d.baseCostNs[s];
            bn[s] += d.baseCompiles[s];
        }
        for (size_t s = 0; s < head.size(); ++s) {
            headAll[s] += d.headCompiles[s];
            headCost[s] += d.headCostNs[s];
            hn[s] += d.headCompiles[s];
        }
    }
    diff.baseCompiles = medianOf(baseAll);
    diff.headCompiles = medianOf(headAll);
    diff.baseCostNs = medianOf(baseCost);
    diff.headCostNs = medianOf(headCost);

    // New and gone identities: compiled on one side in any sample, never seen on the other.
    for (size_t i = 0; i < diff.identities.size(); ++i) {
        const DiffIdentity& d = diff.identities[i];
        const std::int64_t bc = medianOf(d.baseCompiles), hc = medianOf(d.headCompiles);
        const bool inBase = std::any_of(d.baseCompiles.begin(), d.baseCompiles.end(), [](auto v) { return v > 0; }) ||
                            std::any_of(d.baseReuses.begin(), d.baseReuses.end(), [](auto v) { return v > 0; });
        const bool inHead = std::any_of(d.headCompiles.begin(), d.headCompiles.end(), [](auto v) { return v > 0; }) ||
                            std::any_of(d.headReuses.begin(), d.headReuses.end(), [](auto v) { return v > 0; });
        const std::int64_t br = medianOf(d.baseReuses), hr = medianOf(d.headReuses);
        const std::int64_t saved = medianOf(d.baseCostNs);
        const std::string savedText = saved > 0 ? ", saves " + util::formatDuration(saved) : "";
        if (inHead && !inBase && hc > 0)
            diff.changes.push_back(
                change(ChangeKind::NewCompile, subjectOf(d), countText(0, hc, hc == 1 ? "compile" : "compiles"), 0, hc, i));
        else if (inBase && !inHead && bc > 0)
            diff.changes.push_back(change(ChangeKind::GoneCompile, subjectOf(d), countText(bc, 0, "compiles") + savedText, bc, 0, i));
        else if (bc > 0 && hc == 0 && hr > 0)
            diff.changes.push_back(change(ChangeKind::NowReused, subjectOf(d),
                                          "compiled " + std::to_string(bc) + " -> served from the cache " + std::to_string(hr) +
                                              savedText,
                                          bc, 0, i));
        else if (bc == 0 && br > 0 && hc > 0)
            diff.changes.push_back(change(ChangeKind::NowCompiled, subjectOf(d),
                                          "served from the cache " + std::to_string(br) + " -> compiled " + std::to_string(hc), 0,
                                          hc, i));
    }
    // Recompiles: a name compiled more (or fewer) times per run than before.
    for (const auto& [key, counts] : byName) {
        const std::int64_t bc = medianOf(counts.first), hc = medianOf(counts.second);
        // A plain new or gone compile, or a warm run (nothing compiled): said per identity above.
        if (bc == hc || (bc == 0 && hc <= 1) || hc == 0) continue;
        diff.changes.push_back(change(hc > bc ? ChangeKind::NewRecompile : ChangeKind::FewerRecompiles,
                                      key.first + " " + key.second, countText(bc, hc, "compiles per run"), bc, hc));
    }
    // Cost of what both sides compiled.
    for (size_t i = 0; i < diff.identities.size(); ++i)
        if (const auto& d = diff.identities[i]; medianOf(d.baseCompiles) > 0 && medianOf(d.headCompiles) > 0) addCostChange(diff, i);

    // Findings (by kind and title) and the verdict, of the first sample of each side.
    diff.baseFindings = findingsOf(*base.front());
    diff.headFindings = findingsOf(*head.front());
    const std::set<std::pair<std::string, std::string>> b(diff.baseFindings.begin(), diff.baseFindings.end()),
        h(diff.headFindings.begin(), diff.headFindings.end());
    for (const auto& f : h)
        if (!b.count(f)) diff.changes.push_back(findingChange(ChangeKind::NewFinding, f));
    for (const auto& f : b)
        if (!h.count(f))
            diff.changes.push_back(findingChange(ChangeKind::ResolvedFinding, f));
    diff.baseVerdict = engine::verdictName(base.front()->verdict.state);
    diff.headVerdict = engine::verdictName(head.front()->verdict.state);
    if (diff.baseVerdict != diff.headVerdict)
        diff.changes.push_back(change(ChangeKind::VerdictChanged, "check verdict", diff.baseVerdict + " -> " + diff.headVerdict));
    std::stable_sort(diff.changes.begin(), diff.changes.end(),
                     [](const DiffChange& x, const DiffChange& y) { return static_cast<int>(x.kind) < static_cast<int>(y.kind); });
    return diff;
}

std::pair<Runs, Runs> analyseSides(const std::vector<std::string>& base, const std::vector<std::string>& head) {
    // One trace after the other: two 1M-event analyses side by side on this 2-core VM took 64.6 s
    // against 37.9 s in turn (bench_diff), the analyses already using the cores they can.
    const engine::AnalysisOptions options{.compileIndexRows = kDiffIndexRows};
    std::pair<Runs, Runs> out;
    for (const auto& p : base) out.first.push_back(engine::analyseTraceFile(p, options));
    for (const auto& p : head) out.second.push_back(engine::analyseTraceFile(p, options));
    return out;
}

FailOn parseFailOn(const std::string& spec) {
    FailOn f;
    size_t pos = 0;
    while (pos <= spec.size()) {
        size_t end = spec.find(',', pos);
        std::string part = spec.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (part == "new-compile") f.newCompile = true;
        else if (part == "new-recompile") f.newRecompile = true;
        else if (part == "new-finding") f.newFinding = true;
        else if (part.rfind("slower:", 0) == 0) {
            const std::string pct = part.substr(7);
            size_t used = 0;
            double v = -1;
            try {
                v = std::stod(pct, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != pct.size() || !(v >= 0) || !std::isfinite(v))
                throw std::invalid_argument("slower:PCT needs a percentage >= 0, got \"" + pct + "\"");
            f.slowerPercent = v;
        } else {
            throw std::invalid_argument("unknown --fail-on condition \"" + part +
                                        "\" (known: new-compile, new-recompile, new-finding, slower:PCT)");
        }
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return f;
}

bool gates(const DiffChange& c, const FailOn& f) {
    switch (c.kind) {
    case ChangeKind::NewCompile:
    case ChangeKind::NowCompiled: return f.newCompile;  // a compile the base did not pay
    case ChangeKind::NewRecompile: return f.newRecompile;
    case ChangeKind::NewFinding: return f.newFinding;
    case ChangeKind::Slower: return f.slowerPercent && c.percent >= *f.slowerPercent;
    default: return false;
    }
}

}  // namespace cs::measure
