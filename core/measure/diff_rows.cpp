#include "core/measure/diff_rows.h"

#include "core/engine/build/build_report.h"
#include "core/engine/analysis/compile_index.h"
#include "core/engine/julia/timing_findings.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

namespace cs::measure {

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

// The identity of a row that survives a new process: never a pointer, a handle or a world age.
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

void indexRows(const engine::TraceAnalysis& a, std::vector<DiffRow>& out) {
    // A collector that records a compile as a cache lookup also records its compile (or cache-load)
    // span at the same instant (Numba): one event, counted once, as the lookup. (A span whose name
    // merely starts a lookup's program, PyTorch's frame "norm" beside the lookup "norm (t.py:4)", is
    // its own compile: only the other way round is one event.)
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
        DiffRow r;
        r.kind = e.kind;
        r.name = withoutDirectories(e.name);
        r.identity = withoutDirectories(identityOf(e));
        r.runtime = e.runtime;
        r.table = e.table;
        r.rowId = e.rowId;
        r.compiled = isCompile(e.outcome);
        r.costNs = e.costNs.value_or(-1);
        r.startNs = e.startNs.value_or(-1);
        out.push_back(std::move(r));
    }
}

// "obj/alpha.o" or, without a ninja log, the time trace's own name: "alpha.json".
std::string fileName(const engine::build::BuildFile& f) {
    return withoutDirectories("/" + (f.output.empty() ? f.source : f.output));
}

void buildRows(const engine::build::BuildReport& b, std::vector<DiffRow>& out) {
    for (const auto& f : b.files) {
        DiffRow r;
        r.kind = "C++ file";
        r.name = fileName(f);
        r.runtime = "clang";
        r.table = "spans";
        r.rowId = f.spanId;
        r.costNs = f.totalNs;
        r.startNs = f.startNs;
        r.parts = {{"frontend", f.frontendNs}, {"backend", f.backendNs}};
        out.push_back(std::move(r));
    }
    auto costs = [&](const std::vector<engine::build::Cost>& list, const char* kind) {
        for (const auto& c : list) {
            DiffRow r;
            r.kind = kind;
            r.name = withoutDirectories(c.name);
            r.runtime = "clang";
            r.work = true;
            r.costNs = c.ns;
            out.push_back(std::move(r));
        }
    };
    costs(b.headers, "header");
    costs(b.templateSets, "template set");
}

void juliaRows(const engine::JuliaTimingReport& t, std::vector<DiffRow>& out) {
    auto add = [&](const engine::JuliaTimingReport::Row& row, const char* kind) {
        DiffRow r;
        r.kind = kind;
        r.name = row.expr.empty() ? row.name : row.expr;  // an @time names the expression it timed
        r.runtime = "julia";
        r.table = "spans";
        r.rowId = row.spanId;
        r.work = true;
        r.costNs = row.ns;
        r.startNs = row.startNs;
        r.parts = {{"compilation", row.compileNs}, {"recompilation", row.recompileNs}};
        out.push_back(std::move(r));
    };
    for (const auto& p : t.packages) add(p, "package load");
    for (const auto& p : t.times) add(p, "@time of");
}

}  // namespace

std::vector<DiffRow> diffRowsOf(const engine::TraceAnalysis& a) {
    std::vector<DiffRow> out;
    indexRows(a, out);
    if (a.build) buildRows(*a.build, out);
    if (a.juliaTiming) juliaRows(*a.juliaTiming, out);
    return out;
}

std::vector<SummedRow> sumDiffRows(const engine::TraceAnalysis& a) {
    std::vector<SummedRow> out;
    std::unordered_map<std::string, size_t> at;
    for (DiffRow& r : diffRowsOf(a)) {
        std::string key = r.kind + '\x1f' + r.name + '\x1f' + r.identity;
        auto [it, fresh] = at.emplace(std::move(key), out.size());
        if (fresh) out.push_back({r, 0, 0, 0, {}});
        SummedRow& s = out[it->second];
        if (s.first.table.empty() && !r.table.empty()) {
            s.first.table = r.table;
            s.first.rowId = r.rowId;
        }
        if (!r.compiled) {
            ++s.reuses;
            continue;
        }
        ++s.compiles;
        if (r.costNs > 0) s.costNs = util::satAdd(s.costNs, r.costNs);
        for (const auto& part : r.parts) {
            auto p = std::find_if(s.parts.begin(), s.parts.end(), [&](const auto& q) { return q.first == part.first; });
            if (p == s.parts.end()) p = s.parts.insert(s.parts.end(), {part.first, 0});
            p->second = util::satAdd(p->second, std::max<std::int64_t>(part.second, 0));
        }
    }
    return out;
}

}  // namespace cs::measure
