#include "core/measure/warp_compare.h"
#include "core/measure/noise_band.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace cs::engine::warp {

const char* verdictName(CompareVerdict v) {
    switch (v) {
    case CompareVerdict::Improved: return "better";
    case CompareVerdict::Regressed: return "worse";
    case CompareVerdict::Inconclusive: return "inconclusive";
    case CompareVerdict::TopologyChanged: return "refused: launch topology changed";
    case CompareVerdict::Invalid: return "invalid: candidate failed";
    }
    return "?";
}

namespace {
using util::JsonValue;

double requiredNumber(const JsonValue& doc, const char* key, const char* which) {
    const JsonValue* v = doc.get(key);
    if (!v || !v->isNumber() || !std::isfinite(v->num))
        throw std::runtime_error(std::string(which) + " report: \"" + key + "\" missing or not a number");
    return v->num;
}

std::optional<double> optionalNumber(const JsonValue& doc, const char* key) {
    const JsonValue* v = doc.get(key);
    if (!v || !v->isNumber() || !std::isfinite(v->num)) return std::nullopt;
    return v->num;
}

std::string text(const JsonValue* v) {
    if (!v || v->isNull()) return "-";
    if (v->isString()) return v->str;
    if (v->isNumber()) return v->str;
    if (v->type == JsonValue::Type::Bool) return v->boolean ? "true" : "false";
    std::string s = "[";
    for (const auto& i : v->items) s += (s.size() > 1 ? "," : "") + text(&i);
    return s + "]";
}

// A launch's structural signature: everything but the kernel's name. Moving a kernel out of a closure
// to module scope (the usual fix for identity churn) renames it; keying on the name would refuse the
// very change the guide recommends. What must not move is the work: order, shape, device, dtypes,
// block_dim and the adjoint flag.
std::string signature(const JsonValue& l) {
    return text(l.get("dim")) + " " + text(l.get("device")) + " " + text(l.get("dtypes")) + " bd=" +
           text(l.get("block_dim")) + " adj=" + text(l.get("adjoint"));
}

std::vector<const JsonValue*> launches(const JsonValue& doc) {
    std::vector<const JsonValue*> out;
    if (const JsonValue* l = doc.get("launches"); l && l->isArray())
        for (const auto& i : l->items) out.push_back(&i);
    return out;
}

std::set<std::string> compiledIdentities(const JsonValue& doc) {
    std::set<std::string> out;
    if (const JsonValue* e = doc.get("module_events"); e && e->isArray())
        for (const auto& ev : e->items)
            if (ev.isObject() && text(ev.get("status")) == "compiled")
                out.insert(text(ev.get("name")) + " " + text(ev.get("hash")) + " " + text(ev.get("device")) + " " +
                           text(ev.get("block_dim")));
    return out;
}

std::string f2(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}
}  // namespace

CompareResult compareReports(const JsonValue& base, const JsonValue& cand) {
    if (!base.isObject()) throw std::runtime_error("baseline report is not a JSON object");
    if (!cand.isObject()) throw std::runtime_error("candidate report is not a JSON object");
    CompareResult r;
    r.baseMedian = requiredNumber(base, "cold_module_ms_median", "baseline");
    r.baseMad = requiredNumber(base, "cold_module_ms_mad", "baseline");
    r.candMedian = requiredNumber(cand, "cold_module_ms_median", "candidate");
    r.candMad = optionalNumber(cand, "cold_module_ms_mad").value_or(0);
    auto count = [](const JsonValue& doc, const char* which) {
        double v = requiredNumber(doc, "samples", which);
        if (!(v >= 0 && v < 1e9)) throw std::runtime_error(std::string(which) + " report: \"samples\" out of range");
        return static_cast<std::int64_t>(v);
    };
    r.baseSamples = count(base, "baseline");
    r.candSamples = count(cand, "candidate");

    if (text(base.get("command")) != text(cand.get("command")))
        r.notes.push_back("the reports ran different commands: " + text(base.get("command")) + " vs " +
                          text(cand.get("command")));
    // Workload first: a faster run that does different work proves nothing.
    auto bl = launches(base), cl = launches(cand);
    r.workloadKnown = !bl.empty() || !cl.empty();
    r.workloadSame = bl.size() == cl.size();
    for (size_t i = 0; r.workloadSame && i < bl.size(); ++i) r.workloadSame = signature(*bl[i]) == signature(*cl[i]);
    if (r.workloadKnown && !r.workloadSame) {
        r.notes.push_back("baseline ran " + std::to_string(bl.size()) + " launches, candidate " + std::to_string(cl.size()));
        for (size_t i = 0; i < std::min(bl.size(), cl.size()); ++i) {
            if (signature(*bl[i]) == signature(*cl[i])) continue;
            r.notes.push_back("first difference at launch #" + std::to_string(i + 1) + ": " + text(bl[i]->get("kernel")) +
                              " " + signature(*bl[i]) + " -> " + text(cl[i]->get("kernel")) + " " + signature(*cl[i]));
            break;
        }
    } else if (r.workloadKnown) {
        std::set<std::pair<std::string, std::string>> renames;
        for (size_t i = 0; i < bl.size(); ++i) {
            auto a = text(bl[i]->get("kernel")), b = text(cl[i]->get("kernel"));
            if (a != b) renames.insert({a, b});
        }
        for (const auto& [a, b] : renames) r.notes.push_back("kernel renamed " + a + " -> " + b + " (same launch shape)");
    }

    r.band = measure::noiseBand(r.baseMedian, r.baseMad);
    r.delta = r.baseMedian - r.candMedian;
    r.percent = r.baseMedian > 0 ? r.delta / r.baseMedian * 100.0 : 0;
    CompareVerdict timing = std::fabs(r.delta) <= r.band ? CompareVerdict::Inconclusive
                            : r.delta > 0                ? CompareVerdict::Improved
                                                         : CompareVerdict::Regressed;

    r.baseElapsed = optionalNumber(base, "compile_elapsed_ms_median");
    r.candElapsed = optionalNumber(cand, "compile_elapsed_ms_median");
    std::optional<CompareVerdict> elapsedTiming;
    if (r.baseElapsed && r.candElapsed && *r.baseElapsed > 0) {
        r.elapsedBand = measure::noiseBand(*r.baseElapsed, optionalNumber(base, "compile_elapsed_ms_mad").value_or(0));
        double d = *r.baseElapsed - *r.candElapsed;
        elapsedTiming = std::fabs(d) <= *r.elapsedBand ? CompareVerdict::Inconclusive
                        : d > 0                        ? CompareVerdict::Improved
                                                       : CompareVerdict::Regressed;
    }
    // Same identities and same generated source bytes mean the same code was compiled; then a rise in
    // summed module timers can only be contention between builds that now overlap.
    auto bi = compiledIdentities(base), ci = compiledIdentities(cand);
    r.sameWork = bi == ci && optionalNumber(base, "generated_source_bytes") == optionalNumber(cand, "generated_source_bytes");
    for (const auto& id : bi)
        if (!ci.count(id)) r.notes.push_back("identity only in baseline: " + id);
    for (const auto& id : ci)
        if (!bi.count(id)) r.notes.push_back("identity only in candidate: " + id);

    // Precedence: a failing candidate proves nothing, a changed workload cannot be credited, and only
    // then does timing decide.
    if (optionalNumber(cand, "error_events").value_or(0) > 0 || optionalNumber(cand, "failed_samples").value_or(0) > 0)
        r.verdict = CompareVerdict::Invalid;
    else if (r.workloadKnown && !r.workloadSame)
        r.verdict = CompareVerdict::TopologyChanged;
    else if (timing == CompareVerdict::Regressed && r.sameWork && elapsedTiming)
        r.verdict = *elapsedTiming;  // same code compiled: the summed timers measured contention
    else
        r.verdict = timing;
    return r;
}


void printComparison(const CompareResult& r, const std::vector<measure::LedgerRow>& ledger, std::ostream& out) {
    out << "Workload\n";
    if (!r.workloadKnown)
        out << "  UNVERIFIED: neither report recorded launches; check the numeric output another way.\n";
    else if (r.workloadSame)
        out << "  preserved: same launches in the same order (dim, device, dtypes, block_dim, adjoint)\n";
    else
        out << "  CHANGED: the launch topology differs, so compile time cannot be credited\n";
    for (const auto& n : r.notes) out << "  " << n << "\n";

    out << "\nCold module work (median of samples)\n";
    out << "  baseline   " << f2(r.baseMedian) << " ms  (MAD " << f2(r.baseMad) << ", n=" << r.baseSamples << ")\n";
    out << "  candidate  " << f2(r.candMedian) << " ms  (MAD " << f2(r.candMad) << ", n=" << r.candSamples << ")\n";
    char pct[32];
    std::snprintf(pct, sizeof pct, "%+.1f%%", -r.percent);
    out << "  delta      " << f2(-r.delta) << " ms  (" << pct << ")\n";
    out << "  noise band +-" << f2(r.band) << " ms  (max of 1% of baseline, 2 x baseline MAD)\n";
    if (r.baseElapsed && r.candElapsed)
        out << "\nCompile elapsed (cold wall - warm wall)\n  baseline   " << f2(*r.baseElapsed) << " ms\n  candidate  "
            << f2(*r.candElapsed) << " ms\n  noise band +-" << f2(r.elapsedBand.value_or(0)) << " ms\n";

    out << "\nVerdict: " << verdictName(r.verdict) << "\n";
    switch (r.verdict) {
    case CompareVerdict::TopologyChanged:
        out << "  Refused: restore the missing or altered launches, then measure again.\n";
        break;
    case CompareVerdict::Invalid: out << "  The candidate reported build errors or failing samples.\n"; break;
    case CompareVerdict::Inconclusive: out << "  Inside the noise band: not a measured change.\n"; break;
    case CompareVerdict::Improved: out << "  Faster beyond the noise band.\n"; break;
    case CompareVerdict::Regressed: out << "  Slower beyond the noise band.\n"; break;
    }
    if (r.sameWork && r.delta < -r.band)
        out << "  Same identities and source were compiled: the rise in summed timers is contention between\n"
               "  overlapping builds, so the verdict follows compile elapsed.\n";

    if (!ledger.empty()) {
        out << "\nLedger\n| Option | Measured | Why not taken | To take it |\n| --- | ---: | --- | --- |\n";
        // A '|' inside a cell would split it: escape it as Markdown does.
        auto cell = [](const std::string& s) {
            std::string o;
            for (char ch : s) {
                if (ch == '|') o += '\\';
                o += ch == '\n' ? ' ' : ch;
            }
            return o;
        };
        for (const auto& row : ledger)
            out << "| " << cell(row.option) << " | " << cell(row.measured) << " | " << cell(row.whyNotTaken) << " | "
                << cell(row.toTakeIt) << " |\n";
    }
}

}  // namespace cs::engine::warp
