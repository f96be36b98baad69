#include "core/measure/trace_diff.h"

#include "core/engine/cache/verdict.h"
#include "core/engine/build/build_report.h"
#include "core/engine/analysis/compile_index.h"
#include "core/engine/accounting/session_clocks.h"
#include "core/measure/diff_rows.h"
#include "core/measure/comparison.h"
#include "core/trace/reader.h"
#include "core/util/on_every_core.h"
#include "core/util/saturating.h"
#include "core/util/units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

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

    static void addPart(std::vector<std::pair<std::string, std::vector<std::int64_t>>>& parts, const std::string& name,
                        size_t sample, size_t samples, std::int64_t ns) {
        auto it = std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == name; });
        if (it == parts.end()) it = parts.insert(parts.end(), {name, {}});
        it->second.resize(samples, 0);
        it->second[sample] = util::satAdd(it->second[sample], ns);
    }

    // `sums[s]`: sample s of this side (sumDiffRows of runs[s]).
    void add(const Runs& runs, const std::vector<std::vector<SummedRow>>& sums, bool head) {
        for (size_t s = 0; s < runs.size(); ++s) {
            for (const SummedRow& r : sums[s]) {
                const std::string k = r.first.kind + '\x1f' + r.first.name + '\x1f' + r.first.identity;
                auto [it, fresh] = byKey.emplace(k, ids.size());
                if (fresh) {
                    DiffIdentity d;
                    d.kind = r.first.kind;
                    d.name = r.first.name;
                    d.identity = r.first.identity;
                    d.runtime = r.first.runtime;
                    d.work = r.first.work;
                    ids.push_back(std::move(d));
                }
                DiffIdentity& d = ids[it->second];
                auto& compiles = head ? d.headCompiles : d.baseCompiles;
                auto& reuses = head ? d.headReuses : d.baseReuses;
                auto& cost = head ? d.headCostNs : d.baseCostNs;
                for (auto* v : {&compiles, &reuses, &cost})
                    if (v->size() < runs.size()) v->resize(runs.size(), 0);
                compiles[s] += r.compiles;
                reuses[s] += r.reuses;
                cost[s] = util::satAdd(cost[s], r.costNs);
                for (const auto& [name, ns] : r.parts) addPart(head ? d.headParts : d.baseParts, name, s, runs.size(), ns);
                std::string& anchor = head ? d.headAnchor : d.baseAnchor;
                if (anchor.empty() && !r.first.table.empty()) {
                    anchor = engine::compileAnchor(r.first.table, r.first.rowId);
                    (head ? d.headTrace : d.baseTrace) = runs[s]->path;
                    (head ? d.headTable : d.baseTable) = r.first.table;
                    (head ? d.headRow : d.baseRow) = r.first.rowId;
                }
            }
        }
    }
    // Identities a sample never met (or a side never met): zeros there.
    void finish(size_t baseSamples, size_t headSamples) {
        for (auto& d : ids) {
            for (auto* v : {&d.baseCompiles, &d.baseReuses, &d.baseCostNs}) v->resize(baseSamples, 0);
            for (auto* v : {&d.headCompiles, &d.headReuses, &d.headCostNs}) v->resize(headSamples, 0);
            for (auto& [name, v] : d.baseParts) v.resize(baseSamples, 0);
            for (auto& [name, v] : d.headParts) v.resize(headSamples, 0);
        }
    }
};

// "; frontend 2.29 s -> 4.60 s, backend 6.76 s -> 6.17 s": which part of a time moved.
std::string partsText(const DiffIdentity& d) {
    std::string out;
    for (const auto& part : d.baseParts) {
        const std::string& name = part.first;
        const auto& base = part.second;
        auto h = std::find_if(d.headParts.begin(), d.headParts.end(), [&](const auto& p) { return p.first == name; });
        if (h == d.headParts.end()) continue;
        const std::int64_t b = medianOf(base), hd = medianOf(h->second);
        if (b == hd) continue;
        out += (out.empty() ? "; " : ", ") + name + " " + util::formatDuration(b) + " -> " + util::formatDuration(hd);
    }
    return out;
}

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
               ")" + partsText(d);
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

std::int64_t workDelta(const DiffIdentity& d) { return medianOf(d.headCostNs) - medianOf(d.baseCostNs); }

std::string signedDuration(std::int64_t ns) { return (ns >= 0 ? "+" : "-") + util::formatDuration(ns >= 0 ? ns : -ns); }

// A build's headers and template sets (and Julia's package loads) explain the changes of its files:
// each kind lists its largest moves, the rest are one note, and a C++ file that got slower or faster
// names the largest moves of the build beside its own frontend / backend split. (A clang time trace
// sums a header over every file; which file paid for it is in `build-report`.)
void explainWork(TraceDiff& diff) {
    std::map<std::string, std::vector<size_t>> byKind;  // change indexes of work identities
    for (size_t c = 0; c < diff.changes.size(); ++c)
        if (const auto& ch = diff.changes[c]; ch.identity && diff.identities[*ch.identity].work)
            byKind[diff.identities[*ch.identity].kind].push_back(c);
    std::vector<bool> drop(diff.changes.size(), false);
    std::vector<size_t> largest;  // of every work kind, for the files' "why"
    for (auto& [kind, list] : byKind) {
        std::stable_sort(list.begin(), list.end(), [&](size_t x, size_t y) {
            return std::llabs(workDelta(diff.identities[*diff.changes[x].identity])) >
                   std::llabs(workDelta(diff.identities[*diff.changes[y].identity]));
        });
        std::int64_t rest = 0;
        for (size_t k = kWorkChangesListed; k < list.size(); ++k) {
            drop[list[k]] = true;
            rest += workDelta(diff.identities[*diff.changes[list[k]].identity]);
        }
        if (list.size() > kWorkChangesListed)
            diff.notes.push_back("and " + std::to_string(list.size() - kWorkChangesListed) + " more " + kind + "s changed (" +
                                 signedDuration(rest) + ")");
        for (size_t k = 0; k < list.size() && k < 3; ++k) largest.push_back(list[k]);
    }
    std::stable_sort(largest.begin(), largest.end(), [&](size_t x, size_t y) {
        return std::llabs(workDelta(diff.identities[*diff.changes[x].identity])) >
               std::llabs(workDelta(diff.identities[*diff.changes[y].identity]));
    });
    std::string why;
    for (size_t k = 0; k < largest.size() && k < 3; ++k) {
        const DiffIdentity& d = diff.identities[*diff.changes[largest[k]].identity];
        why += (why.empty() ? "" : ", ") + d.kind + " " + d.name + " " + signedDuration(workDelta(d));
    }
    for (auto& c : diff.changes)
        if (c.identity && diff.identities[*c.identity].kind == "C++ file" && !why.empty() &&
            (c.kind == ChangeKind::Slower || c.kind == ChangeKind::Faster))
            c.detail += "; the build's largest moves: " + why;
    std::vector<DiffChange> kept;
    for (size_t c = 0; c < diff.changes.size(); ++c)
        if (!drop[c]) kept.push_back(std::move(diff.changes[c]));
    diff.changes = std::move(kept);
}

// "2.34 s of parsing in 2 files" -> "# of parsing in # files".
std::string withoutFigures(const std::string& title) {
    auto isWord = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    std::string out;
    for (size_t i = 0; i < title.size();) {
        size_t end = i;
        while (end < title.size() && (std::isdigit(static_cast<unsigned char>(title[end])) || (end > i && (title[end] == '.' || title[end] == ','))))
            ++end;
        // A figure stands alone: digits inside a name or a shape (mod_10, g10_3, 128x64) are the name.
        const bool figure = end > i && (i == 0 || !isWord(title[i - 1])) && (end == title.size() || !isWord(title[end]));
        if (!figure) {
            out.append(title, i, std::max(end, i + 1) - i);
            i = std::max(end, i + 1);
            continue;
        }
        out += '#';
        i = end;
        // and its unit: 769 ms and 2.34 s are one figure
        for (std::string_view unit : {" ns", " µs", " us", " ms", " s", " min", " h", " %", "%"})
            if (title.compare(i, unit.size(), unit) == 0 && (i + unit.size() == title.size() || !isWord(title[i + unit.size()]))) {
                i += unit.size();
                break;
            }
    }
    return out;
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
    // Each trace's rows summed on a core of its own; the merge below sees identities, not rows.
    std::vector<std::vector<SummedRow>> baseSums(base.size()), headSums(head.size());
    util::onEveryCore(base.size() + head.size(), [&](size_t i) {
        if (i < base.size()) baseSums[i] = sumDiffRows(*base[i]);
        else headSums[i - base.size()] = sumDiffRows(*head[i - base.size()]);
    });
    Collector col;
    col.add(base, baseSums, false);
    col.add(head, headSums, true);
    col.finish(base.size(), head.size());
    diff.identities = std::move(col.ids);

    std::vector<std::int64_t> baseAll(base.size()), headAll(head.size()), baseCost(base.size()), headCost(head.size());
    // Compiles per program / module / function name, for recompiles.
    std::map<std::pair<std::string, std::string>, std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> byName;
    for (const auto& d : diff.identities) {
        if (d.work) continue;  // time inside compiles or loads: neither a compile nor a recompile
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
        if (d.work) {
            const std::int64_t hcost = medianOf(d.headCostNs);
            if (inHead && !inBase && hc > 0)
                diff.changes.push_back(change(ChangeKind::NewCompile, subjectOf(d),
                                              "new" + (hcost > 0 ? ": " + util::formatDuration(hcost) : std::string()), 0, hc, i));
            else if (inBase && !inHead && bc > 0)
                diff.changes.push_back(change(ChangeKind::GoneCompile, subjectOf(d), "gone" + savedText, bc, 0, i));
            continue;
        }
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

    explainWork(diff);

    // Findings (by kind and title) and the verdict, of the first sample of each side.
    diff.baseFindings = findingsOf(*base.front());
    diff.headFindings = findingsOf(*head.front());
    // Matched by kind and title with its figures masked: "header shared.h: 769 ms of parsing in 2
    // files" is the same finding when it reads 2.34 s in head (its cost is compared above), not one
    // resolved and one new.
    std::map<std::pair<std::string, std::string>, const std::pair<std::string, std::string>*> b, h;
    for (const auto& f : diff.baseFindings) b.emplace(std::pair{f.first, withoutFigures(f.second)}, &f);
    for (const auto& f : diff.headFindings) h.emplace(std::pair{f.first, withoutFigures(f.second)}, &f);
    for (const auto& [key, f] : h)
        if (!b.count(key)) diff.changes.push_back(findingChange(ChangeKind::NewFinding, *f));
    for (const auto& [key, f] : b)
        if (!h.count(key)) diff.changes.push_back(findingChange(ChangeKind::ResolvedFinding, *f));
    diff.baseVerdict = engine::verdictName(base.front()->verdict.state);
    diff.headVerdict = engine::verdictName(head.front()->verdict.state);
    if (diff.baseVerdict != diff.headVerdict)
        diff.changes.push_back(change(ChangeKind::VerdictChanged, "check verdict", diff.baseVerdict + " -> " + diff.headVerdict));
    std::stable_sort(diff.changes.begin(), diff.changes.end(),
                     [](const DiffChange& x, const DiffChange& y) { return static_cast<int>(x.kind) < static_cast<int>(y.kind); });
    return diff;
}

namespace {
// One side's trace: the whole analysis (findings and verdict are diffed too), then the compile index
// with every compile listed but only what names it (IndexDetail::Identity): the full details cost a
// query per row, 30 s for a 1M-event trace, and a diff reads none of them.
std::shared_ptr<const engine::TraceAnalysis> analyseForDiff(const std::string& path) {
    auto reader = trace::TraceReader::open(path);
    engine::AnalysisOptions options;
    options.compileIndexRows = kDiffIndexRows;
    options.indexDetail = engine::IndexDetail::Identity;
    // A build's headers and template sets, every one: the analysis keeps the costliest 50, and one
    // that falls out of that list in head has not gone.
    options.buildRowsKept = std::numeric_limits<size_t>::max();
    options.comparisonSamples = false;  // diff matches compiles, not `compare`'s samples
    return engine::analyseTrace(*reader, options);
}
}  // namespace

std::pair<Runs, Runs> analyseSides(const std::vector<std::string>& base, const std::vector<std::string>& head) {
    // One trace per core; the first error in argument order is the one thrown.
    std::vector<std::string> paths(base);
    paths.insert(paths.end(), head.begin(), head.end());
    std::vector<std::shared_ptr<const engine::TraceAnalysis>> done(paths.size());
    util::onEveryCore(paths.size(), [&](size_t i) { done[i] = analyseForDiff(paths[i]); });
    std::pair<Runs, Runs> out;
    out.first.assign(done.begin(), done.begin() + static_cast<std::ptrdiff_t>(base.size()));
    out.second.assign(done.begin() + static_cast<std::ptrdiff_t>(base.size()), done.end());
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
