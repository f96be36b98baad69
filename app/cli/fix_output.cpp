// Text and files of a fix plan (fix_output.h).
#include "fix_output.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace cs::cli {

namespace {
std::string commented(const std::string& prefix, const std::string& text) {
    std::string out;
    size_t start = 0;
    while (start <= text.size()) {
        auto end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        if (end > start || start < text.size()) out += prefix + text.substr(start, end - start) + "\n";
        start = end + 1;
    }
    return out;
}

bool traceWide(const engine::fix::FixChange& c) { return c.finding == engine::fix::kNoFinding; }

std::string fileName(const engine::fix::FixChange& c) {
    auto base = traceWide(c) ? "trace-" + c.runtime : "finding-" + std::to_string(c.finding + 1) + "-" + c.runtime;
    if (!c.diff.empty()) return base + ".patch";
    return base + (c.language == "julia" ? ".snippet.jl" : ".snippet.py");
}

// "finding 2 jit.shape_churn: TITLE" (the files: "finding 2 (jit.shape_churn): TITLE"), or "trace KIND"
// for a trace-wide change (the Julia workload).
std::string heading(const engine::TraceAnalysis& a, const engine::fix::FixChange& c, bool file = false) {
    if (traceWide(c)) return "trace " + (file ? "(" + c.kind + ")" : c.kind) + ": every compile the log lists";
    return "finding " + std::to_string(c.finding + 1) + " " + (file ? "(" + c.kind + ")" : c.kind) + ": " +
           a.findings[c.finding].title;
}

// What each file starts with: the finding, the saving, how to verify; `#` comments in every language
// we write (patch skips text before the first ---).
std::string header(const engine::TraceAnalysis& a, const engine::fix::FixChange& c) {
    std::string h = heading(a, c, true) + "\n";
    h += "change: " + c.summary + "\nsaving: " + c.saving + "\nverify: " + c.verify + "\n";
    if (!c.file.empty()) h += "file: " + c.file + (c.line ? ":" + std::to_string(c.line) : "") + "\n";
    if (!c.where.empty() && c.diff.empty()) h += "where: " + c.where + "\n";
    for (const auto& n : c.notes) h += "note: " + n + "\n";
    if (!c.diff.empty()) h += "apply: patch " + c.file + " < " + fileName(c) + "\n";
    return commented("# ", h);
}
}  // namespace

void printFixPlan(std::ostream& out, const std::string& label, const engine::TraceAnalysis& a,
                  const engine::fix::FixPlan& plan) {
    out << "fix " << label << ": " << plan.changes.size() << " change(s), " << plan.none.size()
        << " finding(s) without a mechanical fix\n";
    for (const auto& c : plan.changes) {
        out << "\n" << heading(a, c) << "\n";
        out << "  change: " << c.summary << "\n  saving: " << c.saving << "\n  verify: " << c.verify << "\n";
        if (!c.file.empty()) out << "  file: " << c.file << (c.line ? ":" + std::to_string(c.line) : "") << "\n";
        for (const auto& n : c.notes) out << "  note: " << n << "\n";
        if (!c.diff.empty()) {
            out << commented("  | ", c.diff);
        } else {
            out << "  where: " << c.where << "\n" << commented("  | ", c.snippet);
        }
    }
    for (const auto& n : plan.none)
        out << "\nfinding " << n.finding + 1 << " " << n.kind << ": no mechanical fix: " << n.reason << "\n";
}

std::vector<std::string> writeFixFiles(const std::string& dir, const engine::TraceAnalysis& a,
                                       const engine::fix::FixPlan& plan) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot create " + dir + ": " + ec.message());
    std::vector<std::string> written;
    for (const auto& c : plan.changes) {
        auto path = (std::filesystem::path(dir) / fileName(c)).string();
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f << header(a, c) << (c.diff.empty() ? c.snippet : c.diff);
        if (!f) throw std::runtime_error("cannot write " + path);
        written.push_back(path);
    }
    return written;
}

}  // namespace cs::cli
