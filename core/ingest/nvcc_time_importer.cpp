#include "core/ingest/nvcc_time_importer.h"

#include "core/ingest/import_lines.h"
#include "core/formats/text_util.h"

#include <cmath>
#include <string>
#include <vector>

namespace cs::ingest {

namespace {
enum class Layout { Unknown, Nvcc, Nvrtc };

Layout headerLayout(std::string_view line) {
    auto f = splitTrimmed(line, ',');
    if (f.size() == 8 && f[0] == "source file name" && f[1] == "phase name") return Layout::Nvcc;
    if (f.size() == 4 && f[0] == "File name" && f[1] == "phase name" && f[2] == "metric") return Layout::Nvrtc;
    return Layout::Unknown;
}

// Milliseconds-or-other into nanoseconds; false for an unknown unit or a bad number.
bool toNs(std::string_view metric, std::string_view unit, std::int64_t& ns) {
    double v = 0;
    if (!parseDouble(metric, v) || !std::isfinite(v) || v < 0 || v > 1e12) return false;
    double scale = 0;
    if (unit == "ms") scale = 1e6;
    else if (unit == "us") scale = 1e3;
    else if (unit == "s") scale = 1e9;
    else if (unit == "ns") scale = 1;
    else return false;
    ns = static_cast<std::int64_t>(std::llround(v * scale));
    return true;
}
}  // namespace

int NvccTimeImporter::sniff(std::string_view head, std::string_view) const {
    auto firstLine = head.substr(0, head.find('\n'));
    if (!firstLine.empty() && firstLine.back() == '\r') firstLine.remove_suffix(1);
    return headerLayout(firstLine) != Layout::Unknown ? 95 : 0;
}

ImportSummary NvccTimeImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    auto& w = ctx.writer;
    Layout layout = Layout::Unknown;
    std::string line;
    std::int64_t lineNo = 0;
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (trim(line).empty()) continue;
        if (auto h = headerLayout(line); h != Layout::Unknown) {
            layout = h;
            continue;
        }
        auto where = "line " + std::to_string(lineNo);
        if (layout == Layout::Unknown) {
            ctx.malformed(where, "row before any header", id());
            ++summary.malformed;
            continue;
        }
        auto f = splitTrimmed(line, ',');
        size_t want = layout == Layout::Nvcc ? 8 : 4;
        if (f.size() != want) {
            ctx.malformed(where, "expected " + std::to_string(want) + " fields, found " + std::to_string(f.size()), id());
            ++summary.malformed;
            continue;
        }
        std::int64_t ns = 0;
        std::string_view metric = f[want - 2], unit = f[want - 1];
        if (!toNs(metric, unit, ns)) {
            ctx.malformed(where, "bad duration \"" + std::string(metric) + " " + std::string(unit) + "\"", id());
            ++summary.malformed;
            continue;
        }
        trace::PhaseTimingRecord r{.sessionId = ctx.sessionId,
                                   .tool = layout == Layout::Nvcc ? CS_PHASE_TOOL_NVCC : CS_PHASE_TOOL_NVRTC,
                                   .input = f[0].empty() ? 0 : w.intern(f[0]),
                                   .phase = w.intern(f[1]),
                                   .arch = layout == Layout::Nvcc && !f[4].empty() ? w.intern(f[4]) : 0,
                                   .startNs = std::nullopt,
                                   .durNs = ns,
                                   .parentId = std::nullopt};
        w.addPhaseTiming(r);
        ++summary.records;
        summary.lastNs += ns;
    }
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    return summary;
}

}  // namespace cs::ingest
