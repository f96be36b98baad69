// The "Done when": a small multi-file C++ project built with clang++ -ftime-trace and ninja,
// its time traces and .ninja_log imported, and the build report checked against sums computed here
// from the JSON files themselves (never against numbers written into the test).
#include "cli_runner.h"
#include "test_util.h"
#include "trace_query.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/ingest/import_files.h"
#include "core/report/report.h"
#include "core/trace/reader.h"
#include "core/util/json_reader.h"
#include "core/util/units.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <unistd.h>

namespace cs::test {
namespace {

namespace fs = std::filesystem;

// The first of `names` found on PATH, or "".
std::string onPath(std::initializer_list<const char*> names) {
    const char* path = std::getenv("PATH");
    if (!path) return {};
    for (const char* name : names) {
        std::string_view rest = path;
        while (!rest.empty()) {
            size_t colon = rest.find(':');
            fs::path candidate = fs::path(std::string(rest.substr(0, colon))) / name;
            std::error_code ec;
            if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return candidate.string();
            if (colon == std::string_view::npos) break;
            rest.remove_prefix(colon + 1);
        }
    }
    return {};
}

// Four files that share a header heavy enough to dominate the frontend, and one template
// instantiated in all of them; -O1 so that the backend has functions to optimise.
void writeProject(const fs::path& dir) {
    fs::create_directories(dir / "src");
    writeFile((dir / "src/shared.h").string(),
              "#pragma once\n#include <map>\n#include <string>\n#include <vector>\n#include <sstream>\n"
              "template <class T> struct Table {\n"
              "  std::map<std::string, std::vector<T>> rows;\n"
              "  void add(const std::string& k, T v) { rows[k].push_back(v); }\n"
              "  T sum() const { T s{}; for (auto& [k, v] : rows) for (auto& x : v) s += x; return s; }\n"
              "  std::string show() const { std::ostringstream o; o << sum(); return o.str(); }\n"
              "};\n");
    for (const char* name : {"alpha", "beta", "gamma"})
        writeFile((dir / "src" / (std::string(name) + ".cpp")).string(),
                  "#include \"shared.h\"\nstd::string " + std::string(name) +
                      "() { Table<double> t; t.add(\"" + name + "\", 1.5); Table<long> u; u.add(\"x\", 2); "
                      "return t.show() + u.show(); }\n");
    writeFile((dir / "src/main.cpp").string(),
              "#include \"shared.h\"\n#include <iostream>\nstd::string alpha(); std::string beta(); std::string gamma();\n"
              "int main() { Table<int> t; t.add(\"m\", 3); std::cout << alpha() << beta() << gamma() << t.show(); }\n");
}

void writeNinja(const fs::path& dir, const std::string& clang) {
    std::string n = "rule cxx\n  command = " + clang + " -std=c++17 -O1 -ftime-trace -c $in -o $out\n"
                    "rule link\n  command = " + clang + " $in -o $out\n";
    std::string objects;
    for (const char* name : {"alpha", "beta", "gamma", "main"}) {
        n += std::string("build obj/") + name + ".o: cxx src/" + name + ".cpp\n";
        objects += std::string(" obj/") + name + ".o";
    }
    n += "build app: link" + objects + "\n";
    writeFile((dir / "build.ninja").string(), n);
}

struct Expected {
    std::int64_t startNs = 0;  // beginningOfTime + ExecuteCompiler's ts, ns
    std::int64_t endNs = 0;
    std::int64_t frontendNs = 0, backendNs = 0;
    std::int64_t totalFrontendNs = -1;  // clang's own "Total Frontend"
    std::int64_t totals = 0;            // "Total " events in the file
    int frontendEvents = 0;
};

// Adds each span of `events` (name, detail, ts, dur) into `sums` by detail, a span nested in one of
// the same detail counted once: the rule the report states, recomputed here from the raw events.
void sumByDetail(const util::JsonValue& events, std::initializer_list<std::string_view> names,
                 std::map<std::string, std::int64_t>& sums) {
    struct Ev {
        double ts, dur;
        std::string detail;
    };
    std::vector<Ev> evs;
    for (const auto& e : events.items) {
        const auto* name = e.get("name");
        const auto* args = e.get("args");
        const auto* detail = args ? args->get("detail") : nullptr;
        if (!name || !detail || std::find(names.begin(), names.end(), name->str) == names.end()) continue;
        evs.push_back({e.get("ts")->num, e.get("dur")->num, detail->str});
    }
    std::stable_sort(evs.begin(), evs.end(), [](const Ev& a, const Ev& b) { return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur; });
    std::map<std::string, double> until;
    for (const Ev& e : evs) {
        auto it = until.find(e.detail);
        if (it != until.end() && it->second > e.ts) continue;
        until[e.detail] = e.ts + e.dur;
        sums[e.detail] += static_cast<std::int64_t>(e.dur) * 1000;
    }
}

// For each event name, whether its spans lie in a Frontend event (false) or a Backend one (true).
void stagesOf(const util::JsonValue& events, std::map<std::string, std::set<bool>>& out) {
    std::vector<std::tuple<double, double, bool>> stages;
    for (const auto& e : events.items)
        if (const auto* n = e.get("name"); n && (n->str == "Frontend" || n->str == "Backend") && e.get("dur"))
            stages.emplace_back(e.get("ts")->num, e.get("ts")->num + e.get("dur")->num, n->str == "Backend");
    for (const auto& e : events.items) {
        const auto* n = e.get("name");
        if (!n || !e.get("dur") || n->str == "Frontend" || n->str == "Backend") continue;
        const double ts = e.get("ts")->num, end = ts + e.get("dur")->num;
        for (const auto& [s, f, backend] : stages)
            if (s <= ts && end <= f) out[n->str].insert(backend);
    }
}

std::pair<std::string, std::int64_t> top(const std::map<std::string, std::int64_t>& sums) {
    std::pair<std::string, std::int64_t> best{"", -1};
    for (const auto& [k, v] : sums)
        if (v > best.second) best = {k, v};  // map order: ties go to the smaller name, as the report's
    return best;
}

// What the time traces say, read here from the JSON files: each file's figures, and the sums the
// report must show.
struct FromJson {
    std::vector<std::string> inputs;
    std::map<std::string, Expected> expected;  // by trace path
    std::map<std::string, std::int64_t> headers, templates;
    std::map<std::string, std::set<bool>> stageOf;  // event name -> in a Backend event (true) / Frontend one
    std::int64_t totalEvents = 0;
};

void readTimeTrace(const util::JsonValue& events, std::int64_t beginningOfTimeUs, Expected& x) {
    for (const auto& e : events.items) {
        const auto* n = e.get("name");
        if (!n || !e.get("dur")) continue;
        const std::int64_t ts = static_cast<std::int64_t>(e.get("ts")->num) * 1000;
        const std::int64_t dur = static_cast<std::int64_t>(e.get("dur")->num) * 1000;
        if (n->str == "ExecuteCompiler") {
            x.startNs = beginningOfTimeUs * 1000 + ts;
            x.endNs = x.startNs + dur;
        }
        if (n->str == "Frontend") x.frontendNs += dur, ++x.frontendEvents;  // clang 14-18: consecutive, never nested
        if (n->str == "Backend") x.backendNs += dur;
        if (n->str == "Total Frontend") x.totalFrontendNs = dur;
        if (n->str.starts_with("Total ")) ++x.totals;
    }
}

void readTimeTraces(const TempDir& tmp, FromJson& j) {
    for (const char* name : {"alpha", "beta", "gamma", "main"}) {
        const std::string path = tmp.file(std::string("obj/") + name + ".json");
        ASSERT_TRUE(fs::exists(path)) << "clang did not write " << path;
        j.inputs.push_back(path);
        util::JsonValue doc = util::parseJson(readFile(path));
        const auto* bot = doc.get("beginningOfTime");
        ASSERT_NE(bot, nullptr) << path << " has no beginningOfTime";
        const auto& events = *doc.get("traceEvents");
        Expected& x = j.expected[path];
        readTimeTrace(events, static_cast<std::int64_t>(bot->num), x);
        j.totalEvents += x.totals;
        stagesOf(events, j.stageOf);
        sumByDetail(events, {"Source"}, j.headers);
        sumByDetail(events, {"InstantiateClass", "InstantiateFunction"}, j.templates);
    }
}

// The four time traces and the ninja log imported by their own importers; no "Total" event is a
// span, nor a lane; each is a per-file phase total of tool clang.
void checkImport(const std::vector<ingest::ImportedFile>& imported, const trace::TraceReader& reader, const FromJson& j) {
    ASSERT_EQ(imported.size(), 5u);
    EXPECT_EQ(imported.back().importerId, "ninja-log");
    for (size_t i = 0; i + 1 < imported.size(); ++i) {
        EXPECT_EQ(imported[i].importerId, "tef");
        EXPECT_EQ(imported[i].summary.malformed, 0) << imported[i].path;
    }
    EXPECT_EQ(scalar(reader, "SELECT count(*) FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str LIKE 'Total %'"), 0);
    EXPECT_EQ(scalar(reader, "SELECT count(*) FROM phase_timings WHERE tool = 3"), j.totalEvents);
    EXPECT_EQ(scalar(reader, "SELECT count(*) FROM tracks WHERE session_id IN (SELECT id FROM sessions WHERE "
                             "runtime_sid = (SELECT id FROM strings WHERE str = 'import:tef')) AND kind = 0"), 4)
        << "one thread lane per time trace";
}

// Each file's offset, frontend and backend as the JSON says; returns the summed frontend / backend.
std::pair<std::int64_t, std::int64_t> checkFiles(const engine::build::BuildReport& r, const trace::TraceReader& reader,
                                                 FromJson& j) {
    std::int64_t earliest = INT64_MAX, frontend = 0, backend = 0;
    for (const auto& [path, x] : j.expected) earliest = std::min(earliest, x.startNs);
    for (const auto& f : r.files) {
        EXPECT_TRUE(j.expected.count(f.source)) << f.source;
        const Expected& x = j.expected[f.source];
        EXPECT_EQ(f.offsetNs, x.startNs - earliest) << f.label << ": start offset in the build";
        EXPECT_EQ(f.frontendNs, x.frontendNs) << f.label;
        EXPECT_EQ(f.backendNs, x.backendNs) << f.label;
        EXPECT_GT(f.backendNs, 0) << f.label << ": -O1 has a backend";
        // clang's own "Total Frontend" agrees, but for its rounding to whole microseconds per event.
        EXPECT_NEAR(static_cast<double>(f.frontendNs), static_cast<double>(x.totalFrontendNs), 1000.0 * x.frontendEvents)
            << f.label;
        EXPECT_TRUE(f.ninjaNs) << f.label << ": joined to the ninja command of the same output";
        EXPECT_EQ(f.output, "obj/" + fs::path(f.source).stem().string() + ".o");
        frontend += x.frontendNs;
        backend += x.backendNs;
        // The phase total stored for the file is clang's Total Frontend.
        EXPECT_EQ(scalar(reader, "SELECT dur_ns FROM phase_timings p JOIN strings ph ON ph.id = p.phase_sid "
                                 "JOIN strings i ON i.id = p.input_sid WHERE ph.str = 'Frontend' AND i.str = '" +
                                     fs::path(f.source).stem().string() + "' AND p.session_id = " +
                                     std::to_string(f.sessionId)),
                  x.totalFrontendNs);
    }
    EXPECT_EQ(r.frontendNs, frontend);
    EXPECT_EQ(r.backendNs, backend);
    // Labels name one file each.
    std::set<std::string> labels;
    for (const auto& f : r.files) labels.insert(f.label);
    EXPECT_EQ(labels.size(), r.files.size());
    return {frontend, backend};
}

// The most expensive header and template first; every event name in the frontend or the backend,
// as where its spans lie in the JSON decides.
void checkHeadersTemplatesAndPhases(const engine::build::BuildReport& r, FromJson& j) {
    ASSERT_FALSE(r.headers.empty());
    auto [topHeader, topHeaderNs] = top(j.headers);
    EXPECT_EQ(r.headers.front().name, topHeader);
    EXPECT_EQ(r.headers.front().ns, topHeaderNs);
    EXPECT_EQ(r.headers.front().files, 4) << "every file includes the most expensive header";
    ASSERT_FALSE(r.templates.empty());
    auto [topTemplate, topTemplateNs] = top(j.templates);
    EXPECT_EQ(r.templates.front().name, topTemplate);
    EXPECT_EQ(r.templates.front().ns, topTemplateNs);
    ASSERT_FALSE(r.phases.empty());
    std::set<std::string> sawBackendPass;
    for (const auto& p : r.phases) {
        ASSERT_TRUE(j.stageOf.count(p.name)) << p.name << " is in no Frontend / Backend event of the JSON";
        EXPECT_TRUE(j.stageOf[p.name].count(p.backend)) << p.name << (p.backend ? " backend" : " frontend");
        if (p.backend && p.name.ends_with("Pass")) sawBackendPass.insert(p.name);
    }
    EXPECT_FALSE(sawBackendPass.empty()) << "clang 14+ names backend events after LLVM passes";
}

// The CLI and the HTML report render the same report: a Build section with the four files, the
// frontend / backend split summed from the JSON, and the most expensive header first in its table.
void checkRenderings(const std::string& trace, const engine::build::BuildReport& r, std::int64_t frontend,
                     std::int64_t backend, const std::string& topHeader) {
    auto cli = runCli({"build-report", trace});
    EXPECT_EQ(cli.status, 0) << cli.err;
    EXPECT_NE(cli.out.find(topHeader), std::string::npos) << cli.out;
    std::ostringstream html;
    report::writeReport({trace}, {}, html);
    const std::string page = html.str();
    EXPECT_NE(page.find("<section id=\"build\" data-count=\"4\""), std::string::npos);
    // The split reads the same in the report and the CLI: one formatter for both.
    const std::string split = "frontend " + util::formatDuration(frontend) + " (" + util::formatShare(frontend, r.totalNs) +
                              "), backend " + util::formatDuration(backend) + " (" + util::formatShare(backend, r.totalNs) + ")";
    EXPECT_NE(page.find("4 files compiled in " + util::formatDuration(r.totalNs) + ": " + split), std::string::npos);
    EXPECT_NE(cli.out.find(split), std::string::npos) << cli.out;
    const auto headersAt = page.find("Most expensive headers");
    ASSERT_NE(headersAt, std::string::npos);
    const auto firstRow = page.find("<code title=\"", headersAt);
    ASSERT_NE(firstRow, std::string::npos);
    EXPECT_EQ(page.compare(firstRow + 13, topHeader.size(), topHeader), 0) << page.substr(firstRow, 200);
}

TEST(ClangBuild, TimeTracesAndNinjaLogGiveTheBuildReport) {
    const std::string clang = onPath({"clang++", "clang++-18", "clang++-17", "clang++-16", "clang++-15", "clang++-14"});
    const std::string ninja = onPath({"ninja", "ninja-build"});
    if (clang.empty()) GTEST_SKIP() << "clang++ (14 or later) not found on PATH: cannot build the project with -ftime-trace";
    if (ninja.empty()) GTEST_SKIP() << "ninja not found on PATH: cannot build the project and write its .ninja_log";

    TempDir tmp;
    writeProject(tmp.path());
    writeNinja(tmp.path(), clang);
    const std::string cmd = "cd '" + tmp.path().string() + "' && '" + ninja + "' -j 4 > ninja.out 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << readFile(tmp.file("ninja.out"));

    FromJson j;  // the expectations, from the JSON files
    ASSERT_NO_FATAL_FAILURE(readTimeTraces(tmp, j));
    j.inputs.push_back(tmp.file(".ninja_log"));
    ASSERT_TRUE(fs::exists(j.inputs.back()));

    ingest::ImportRequest req;
    req.inputs = j.inputs;
    req.output = tmp.file("build.cstrace");
    auto imported = ingest::importFiles(req);
    auto reader = trace::TraceReader::open(req.output);
    ASSERT_NO_FATAL_FAILURE(checkImport(imported, *reader, j));

    auto analysis = engine::analyseTrace(*reader);
    ASSERT_TRUE(analysis->build);
    const auto& r = *analysis->build;
    ASSERT_EQ(r.files.size(), 4u);
    const auto [frontend, backend] = checkFiles(r, *reader, j);
    ASSERT_NO_FATAL_FAILURE(checkHeadersTemplatesAndPhases(r, j));

    // The ninja log: the four compiles joined, the link not; the build placed on the traces' clock.
    EXPECT_EQ(r.ninjaTargets.size(), 5u);
    EXPECT_EQ(r.ninjaJoined, 4);
    EXPECT_GE(r.peakParallelism, 1);
    // The Overview's wall time is the build's span, not the sum of the files' times.
    std::int64_t earliest = INT64_MAX, latest = 0;
    for (const auto& [path, x] : j.expected) earliest = std::min(earliest, x.startNs), latest = std::max(latest, x.endNs);
    EXPECT_GE(analysis->summary.wallNs, latest - earliest);
    EXPECT_LE(analysis->summary.wallNs, r.spanEndNs - r.spanStartNs + 1'000'000'000);

    checkRenderings(req.output, r, frontend, backend, top(j.headers).first);
    // The demo trace holds one clang time trace (of writer.cpp): its report has the section too.
    std::ostringstream plain;
    report::writeReport({std::string(COMPILESCOPE_SOURCE_DIR) + "/resources/demo/demo.cstrace"}, {}, plain);
    EXPECT_NE(plain.str().find("<section id=\"build\""), std::string::npos) << "the demo holds a clang time trace";
}

TEST(ClangBuild, ReportLeavesTheBuildSectionOutWithoutABuild) {
    TempDir tmp;
    // A trace of cache lookups only, imported from a JAX log: no time trace, no ninja log.
    ingest::ImportRequest req;
    req.inputs = {std::string(COMPILESCOPE_SOURCE_DIR) + "/tests/data/jax/persistent_cache_pr22556.log"};
    req.output = tmp.file("jax.cstrace");
    ingest::importFiles(req);
    std::ostringstream html;
    report::writeReport({req.output}, {}, html);
    EXPECT_EQ(html.str().find("id=\"build\""), std::string::npos);
    EXPECT_EQ(html.str().find("href=\"#build\""), std::string::npos);
    EXPECT_NE(html.str().find("id=\"phases\""), std::string::npos) << "the other sections are still there";
}

}  // namespace
}  // namespace cs::test
