#include "diff_output.h"

#include "core/report/html_builder.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"

#include <map>
#include <set>

namespace cs::cli {

using measure::ChangeKind;
using measure::DiffChange;
using measure::TraceDiff;

namespace {
std::string sides(const std::vector<std::string>& paths) {
    std::string s;
    for (const auto& p : paths) s += (s.empty() ? "" : ", ") + p;
    return s;
}

const char* heading(ChangeKind k) {
    switch (k) {
    case ChangeKind::NewCompile: return "New compiles";
    case ChangeKind::GoneCompile: return "Gone";
    case ChangeKind::NowReused: return "Now served from a cache";
    case ChangeKind::NowCompiled: return "Now compiled (was served from a cache)";
    case ChangeKind::NewRecompile: return "More recompiles";
    case ChangeKind::FewerRecompiles: return "Fewer recompiles";
    case ChangeKind::Slower: return "Slower";
    case ChangeKind::Faster: return "Faster";
    case ChangeKind::InsideNoise: return "Inside noise";
    case ChangeKind::NewFinding: return "New findings";
    case ChangeKind::ResolvedFinding: return "Resolved findings";
    case ChangeKind::VerdictChanged: return "Verdict";
    }
    return "?";
}

size_t gatedCount(const TraceDiff& d, const measure::FailOn& gate) {
    size_t n = 0;
    for (const auto& c : d.changes) n += measure::gates(c, gate);
    return n;
}

std::string totals(const TraceDiff& d) {
    return std::to_string(d.baseCompiles) + " -> " + std::to_string(d.headCompiles) + " compiles, " +
           util::formatDuration(d.baseCostNs) + " -> " + util::formatDuration(d.headCostNs) + " compiling; check " +
           d.baseVerdict + " -> " + d.headVerdict;
}
}  // namespace

void printDiffText(std::ostream& out, const TraceDiff& d, const measure::FailOn& gate) {
    out << "base: " << sides(d.basePaths) << "\nhead: " << sides(d.headPaths) << "\n" << totals(d) << "\n";
    if (d.changes.empty()) {
        out << "\nno change: the same compiles, findings and verdict\n";
        return;
    }
    int last = -1;
    for (const auto& c : d.changes) {
        if (static_cast<int>(c.kind) != last) {
            last = static_cast<int>(c.kind);
            out << "\n" << heading(c.kind) << ":\n";
        }
        out << (measure::gates(c, gate) ? "  ! " : "    ") << c.subject << ": " << c.detail << "\n";
    }
    if (!d.notes.empty()) out << "\nAlso:\n";
    for (const auto& n : d.notes) out << "    " << n << "\n";
    if (const size_t n = gatedCount(d, gate)) out << "\n" << n << " change(s) fail the gate (marked !)\n";
}

void printDiffJson(std::ostream& out, const TraceDiff& d, const measure::FailOn& gate) {
    util::JsonWriter w(out, true);
    w.beginObject();
    w.key("base").beginArray();
    for (const auto& p : d.basePaths) w.value(p);
    w.endArray().key("head").beginArray();
    for (const auto& p : d.headPaths) w.value(p);
    w.endArray();
    w.key("compiles").beginObject().key("base").value(d.baseCompiles).key("head").value(d.headCompiles).endObject();
    w.key("compile_ns").beginObject().key("base").value(d.baseCostNs).key("head").value(d.headCostNs).endObject();
    w.key("verdict").beginObject().key("base").value(d.baseVerdict).key("head").value(d.headVerdict).endObject();
    w.key("gated").value(static_cast<std::int64_t>(gatedCount(d, gate)));
    w.key("changes").beginArray();
    for (const auto& c : d.changes) {
        w.beginObject().key("kind").value(measure::changeKindName(c.kind)).key("subject").value(c.subject);
        w.key("detail").value(c.detail).key("gated").value(measure::gates(c, gate));
        if (c.identity) {
            const auto& id = d.identities[*c.identity];
            w.key("identity").beginObject().key("kind").value(id.kind).key("name").value(id.name);
            w.key("key").value(id.identity).key("runtime").value(id.runtime);
            if (!id.baseAnchor.empty()) w.key("base_row").value(id.baseTrace + "#" + id.baseAnchor);
            if (!id.headAnchor.empty()) w.key("head_row").value(id.headTrace + "#" + id.headAnchor);
            w.endObject();
        }
        if (c.kind == ChangeKind::Slower || c.kind == ChangeKind::Faster || c.kind == ChangeKind::InsideNoise) {
            w.key("base_median_ns").value(static_cast<std::int64_t>(c.baseMedianNs));
            w.key("head_median_ns").value(static_cast<std::int64_t>(c.headMedianNs));
            w.key("noise_band_ns").value(static_cast<std::int64_t>(c.bandNs)).key("percent").value(c.percent);
        }
        if (c.kind == ChangeKind::NewCompile || c.kind == ChangeKind::GoneCompile || c.kind == ChangeKind::NowReused ||
            c.kind == ChangeKind::NowCompiled || c.kind == ChangeKind::NewRecompile ||
            c.kind == ChangeKind::FewerRecompiles)
            w.key("base_compiles").value(c.baseCount).key("head_compiles").value(c.headCount);
        if (!c.findingKind.empty()) w.key("finding").value(c.findingKind);
        w.endObject();
    }
    w.endArray().key("notes").beginArray();
    for (const auto& n : d.notes) w.value(n);
    w.endArray().endObject();
    out << "\n";
}

void printDiffMarkdown(std::ostream& out, const TraceDiff& d, const measure::FailOn& gate) {
    auto cell = [](std::string s) {
        std::string o;
        for (char ch : s) o += ch == '|' ? std::string("\\|") : ch == '\n' ? std::string(" ") : std::string(1, ch);
        return o;
    };
    const size_t gated = gatedCount(d, gate);
    out << "### CompileScope diff: " << (gated ? "❌ " + std::to_string(gated) + " gated change(s)" : std::string("✅ no gated change"))
        << "\n\n" << cell(totals(d)) << "\n\n";
    if (d.changes.empty()) {
        out << "No change: the same compiles, findings and verdict.\n";
        return;
    }
    out << "| | change | what | numbers |\n| --- | --- | --- | --- |\n";
    for (const auto& c : d.changes)
        out << "| " << (measure::gates(c, gate) ? "❌" : "") << " | " << measure::changeKindName(c.kind) << " | "
            << cell(c.subject) << " | " << cell(c.detail) << " |\n";
    for (const auto& n : d.notes) out << "\n" << cell(n) << "\n";
}

void printDiffJunit(std::ostream& out, const TraceDiff& d, const measure::FailOn& gate) {
    using report::escapeHtml;
    // Every identity and every finding kind is a test case; a gated change is its failure.
    std::map<size_t, std::vector<const DiffChange*>> byIdentity;
    std::map<std::string, std::vector<const DiffChange*>> byRule, other;
    for (const auto& c : d.changes) {
        if (c.identity) byIdentity[*c.identity].push_back(&c);
        else if (!c.findingKind.empty()) byRule[c.findingKind].push_back(&c);
        else other[c.subject].push_back(&c);
    }
    std::set<std::string> rules;
    for (const auto& f : d.baseFindings) rules.insert(f.first);
    for (const auto& f : d.headFindings) rules.insert(f.first);
    size_t failures = 0;
    std::string body;
    auto testCase = [&](const std::string& cls, const std::string& name, const std::vector<const DiffChange*>& changes) {
        body += "  <testcase classname=\"" + escapeHtml(cls) + "\" name=\"" + escapeHtml(name) + "\">\n";
        for (const auto* c : changes) {
            if (measure::gates(*c, gate)) {
                ++failures;
                body += "    <failure type=\"" + std::string(measure::changeKindName(c->kind)) + "\" message=\"" +
                        escapeHtml(c->detail) + "\">" + escapeHtml(c->subject + ": " + c->detail) + "</failure>\n";
            } else {
                body += "    <system-out>" + escapeHtml(std::string(measure::changeKindName(c->kind)) + ": " + c->detail) +
                        "</system-out>\n";
            }
        }
        body += "  </testcase>\n";
    };
    size_t cases = 0;
    for (size_t i = 0; i < d.identities.size(); ++i, ++cases) {
        const auto& id = d.identities[i];
        auto it = byIdentity.find(i);
        testCase("compiles." + (id.runtime.empty() ? std::string("trace") : id.runtime), id.kind + " " + id.name +
                     (id.identity.empty() ? "" : " (" + id.identity + ")"),
                 it == byIdentity.end() ? std::vector<const DiffChange*>{} : it->second);
    }
    for (const auto& r : rules) {
        ++cases;
        auto it = byRule.find(r);
        testCase("findings", r, it == byRule.end() ? std::vector<const DiffChange*>{} : it->second);
    }
    for (const auto& [subject, changes] : other) {
        ++cases;
        testCase("compiles", subject, changes);
    }
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"compilescope diff\" tests=\"" << cases
        << "\" failures=\"" << failures << "\">\n" << body << "</testsuite>\n";
}

}  // namespace cs::cli
