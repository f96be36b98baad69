// The fleet test (issue 22, docs/fleet.md): 100 traces that differ, each written by the real
// TraceWriter and exported by the real `compilescope export --format jsonl`, queried together by a
// real DuckDB (the `duckdb` Python package of the project's venv, pinned in packaging/python-requirements.txt,
// run by tests/fleet/run_fleet_queries.py) running the `sql name=...` blocks of docs/fleet.md as the page
// shows them. Every answer is checked against the engine's analysis of
// each trace (the cache replay's per-program tallies and late misses, the Warp module report): the
// numbers a fleet query gives must be the ones `compilescope check` and `findings` give per trace.
//
// How the traces differ: the traces' creation times are a permutation of their file order (the
// queries must order by time, not by name); gradient recompiles at every step from the 60th trace in
// time on, optimizer once (at step 3) in odd-numbered traces from the 30th on, a program with quotes,
// a tab and a control character in its name recompiles from the 50th on; step counts, programs and
// compile times vary per trace; warp.sim is built under a second hash from the 70th trace on. Text
// that is not UTF-8 (a command line, a span name) must still leave every file valid JSON.
//
// Exits 77 (ctest: skipped), saying why, when the interpreter COMPILESCOPE_PYTHON (CMake's cache variable,
// packaging/install-deps.sh's venv) cannot import duckdb; under COMPILESCOPE_REQUIRE_RUNTIMES=1 (packaging/
// test.sh, CI) that is a failure instead, so a broken install never turns this test into a silent skip.
#include "core/engine/export/jsonl_export.h"
#include "core/engine/analysis/trace_analysis.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "core/util/json_reader.h"
#include "core/util/subprocess.h"
#include "test_util.h"

#include <compilescope/trace_constants.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace fs = std::filesystem;
using cs::util::JsonValue;

constexpr int kTraces = 100;
constexpr std::int64_t kMs = 1'000'000, kS = 1000 * kMs, kDay = 86'400 * kS;
constexpr std::int64_t kFirstDay = 1'767'225'600 * kS;  // 2026-01-01T00:00:00Z
const std::string kHostileProgram = "loss \"fn\"\t\x01</script>";

std::string queryRunner() { return cs::test::sourceDir() + "/tests/fleet/run_fleet_queries.py"; }

// The position of trace k in time: 37 is prime to 100, so this is a permutation of 0..99.
int timeRank(int k) { return k * 37 % kTraces; }

// One trace of the fleet, written with the real writer. Verdicts are the runtime's as a cache would
// give them (a miss exactly when the key is new), so the engine's replay agrees with every one.
void writeFleetTrace(const std::string& path, int k) {
    using namespace cs::trace;
    const int rank = timeRank(k), steps = 4 + k % 3;
    TraceWriter w(path, {.overwrite = true});
    w.setMeta("created_unix_ns", std::to_string(kFirstDay + rank * kDay));
    const auto clock = w.intern("CLOCK_MONOTONIC");
    const auto julia = w.addSession({.pid = 1000 + k, .cmdline = w.intern("julia train.jl \xff\xfe --run=" + std::to_string(k)),
                                     .runtime = w.intern("julia"), .clock = clock, .startNs = 0, .endNs = 10 * kS});
    const auto main = w.addTrack({.sessionId = julia, .kind = CS_TRACK_THREAD, .tid = 1000 + k, .name = w.intern("main")});
    const auto cache = w.intern("ReactantNitro.CACHE"), handle = w.intern("n1");
    struct Program { std::string name; std::int64_t compileNs; bool used; };
    const std::vector<Program> programs = {{"gradient", 5 * kS, true},
                                           {"optimizer", 2 * kS, true},
                                           {"eval_forward", 1 * kS, k % 4 != 0},
                                           {kHostileProgram, 3 * kS, k % 10 == 3}};
    std::set<std::tuple<std::string, std::string, std::string>> keys;  // the cache's entries
    for (int s = 1; s <= steps; ++s) {
        w.addStep({.sessionId = julia, .trackId = main, .tsNs = s * kS, .step = s, .label = w.intern("train")});
        for (size_t p = 0; p < programs.size(); ++p) {
            const Program& prog = programs[p];
            if (!prog.used || (prog.name == "eval_forward" && s != 2 && s != steps)) continue;
            std::string shape = prog.name == "eval_forward" ? "32x64" : "128x64", accum = "1";
            if (prog.name == "gradient" && rank >= 60) shape = "128x" + std::to_string(64 + s);
            if (prog.name == "optimizer" && rank >= 30 && k % 2 == 1 && s >= 3) accum = "2";
            if (prog.name == kHostileProgram && rank >= 50 && s >= 2) shape = "256x64";
            const bool miss = keys.insert({prog.name, shape, accum}).second;
            const std::int64_t ts = s * kS + static_cast<std::int64_t>(p) * 10 * kMs;
            const std::int64_t compileNs = prog.compileNs + k * kMs + s;
            const auto id = w.addCacheLookup({.sessionId = julia, .trackId = main, .tsNs = ts, .cache = cache,
                                              .program = w.intern(prog.name), .handle = handle,
                                              .verdict = miss ? CS_VERDICT_MISS : CS_VERDICT_HIT,
                                              .compileNs = miss ? OptInt(compileNs) : OptInt{}, .step = s});
            std::int64_t ordinal = 0;
            for (auto [name, role, value] : {std::tuple{"function", CS_ROLE_FUNCTION, prog.name + "_program"},
                                             std::tuple{"shape of arg 2", CS_ROLE_SHAPE, shape},
                                             std::tuple{"accum", CS_ROLE_KEYWORD, accum}})
                w.addKeyComponent({.lookupId = id, .ordinal = ordinal++, .name = w.intern(name), .role = role,
                                   .digest = w.intern("#" + value), .value = w.intern(value)});
            if (miss)
                w.addSpan({.trackId = main, .startNs = ts, .durNs = compileNs, .category = CS_CAT_COMPILE,
                           .name = w.intern("compile " + prog.name), .detail = w.intern("bad \xc3\x28 utf-8\n\xe2\x80\xa8")});
        }
    }
    const auto warp = w.addSession({.pid = 2000 + k, .runtime = w.intern("warp"), .clock = clock, .startNs = 0, .endNs = 5 * kS});
    const auto cuda0 = w.intern("cuda:0");
    struct Load { const char* name; const char* hash; std::int64_t durNs; int result; };
    std::vector<Load> loads = {{"warp.sim", "sim-a", 1 * kS + k * kMs, CS_MODULE_COMPILED},
                               {"kernels", "kern-a", 100 * kMs, CS_MODULE_CACHED},
                               {"warp.fem", "fem-a", k % 7 == 0 ? 2500 * kMs + k : 50 * kMs,
                                k % 7 == 0 ? CS_MODULE_COMPILED : CS_MODULE_CACHED}};
    if (rank >= 70) loads.push_back({"warp.sim", "sim-b", 400 * kMs + k * 1000, CS_MODULE_COMPILED});
    std::int64_t start = 0;
    for (const Load& l : loads) {
        w.addModuleLoad({.sessionId = warp, .startNs = start, .durNs = l.durNs, .name = w.intern(l.name),
                         .hash = w.intern(l.hash), .device = cuda0, .blockDim = 256, .result = l.result});
        start += l.durNs;
    }
    w.finalize();
}

// What the engine says about one trace.
struct ProgramFacts {
    std::int64_t lookups = 0, compiles = 0, compileNs = 0, maxCompileNs = 0, lateMisses = 0;
};
struct ModuleFacts {
    std::int64_t builds = 0, buildNs = 0, maxBuildNs = 0;
};
struct EngineAnswer {
    std::string traceId;
    std::int64_t createdNs = 0;
    std::map<std::string, ProgramFacts> programs;
    std::map<std::string, ModuleFacts> modules;
};

EngineAnswer engineAnswer(const std::string& path, std::int64_t createdNs) {
    const auto reader = cs::trace::TraceReader::open(path);
    const auto analysis = cs::engine::analyseTrace(*reader);
    EngineAnswer a{cs::engine::traceId(*reader), createdNs, {}, {}};
    const auto& cache = *analysis->cache;
    EXPECT_TRUE(cache.replay.disagreements.empty()) << path << ": the replay disagrees with a recorded verdict";
    for (const auto& tally : cache.acceptance.programs) {
        a.programs[tally.program].lookups = tally.lookups;
        a.programs[tally.program].compiles = tally.compiles;
    }
    for (size_t i = 0; i < cache.facts.lookups.size(); ++i) {
        if (cache.replay.outcomes[i].hit) continue;
        const auto& l = cache.facts.lookups[i];
        auto& p = a.programs[cache.facts.str(l.program)];
        p.compileNs += l.compileNs.value_or(0);
        p.maxCompileNs = std::max(p.maxCompileNs, l.compileNs.value_or(0));
    }
    for (const auto& late : cache.acceptance.lateMisses)
        ++a.programs[cache.facts.str(cache.facts.lookups[late.lookup].program)].lateMisses;
    for (const auto& m : analysis->modules->modules) {
        if (m.compiled == 0) continue;
        auto& f = a.modules[m.name];
        f.builds += m.compiled;
        f.buildNs += m.compiledNs;
        for (const auto& load : m.loads)
            if (load.result == CS_MODULE_COMPILED) f.maxBuildNs = std::max(f.maxBuildNs, load.durNs.value_or(0));
    }
    return a;
}

// A DuckDB value as the query runner writes it: integers as strings, timestamps as ISO text.
std::string text(const JsonValue& row, std::string_view column) {
    const JsonValue* v = row.get(column);
    if (!v) ADD_FAILURE() << "no column " << column;
    return v && (v->isString() || v->isNumber()) ? v->str : "<missing>";
}
std::int64_t integer(const JsonValue& row, std::string_view column) { return std::stoll(text(row, column)); }

// What the query runner writes for a DuckDB TIMESTAMP of a Unix time in ns: 2026-01-01T00:00:00.000000.
std::string isoTime(std::int64_t ns) {
    const std::time_t secs = ns / kS;
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return std::string(buf) + "." + std::to_string(ns / 1000 % 1'000'000 + 1'000'000).substr(1);
}

const std::vector<JsonValue>& rowsOf(const JsonValue& answers, std::string_view query) {
    static const std::vector<JsonValue> none;
    const JsonValue* q = answers.get(query);
    if (!q || !q->isArray()) {
        ADD_FAILURE() << "docs/fleet.md has no query named " << query;
        return none;
    }
    return q->items;
}

class Fleet : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new cs::test::TempDir;
        fs::create_directories(s_dir->path() / "traces");
        for (int k = 0; k < kTraces; ++k) {
            const std::string name = "run-" + std::to_string(k + 1000).substr(1);
            const std::string trace = (s_dir->path() / "traces" / (name + ".cstrace")).string();
            writeFleetTrace(trace, k);
            s_answers.push_back(engineAnswer(trace, kFirstDay + timeRank(k) * kDay));
            const std::string log = s_dir->file(name + ".export.log");
            const auto run = cs::util::runProcess({COMPILESCOPE_CLI, "export", "--format", "jsonl", trace, "-o",
                                                   (s_dir->path() / "fleet" / name).string()},
                                                  {}, log, std::chrono::seconds(60));
            ASSERT_EQ(run.exitCode, 0) << cs::test::readFile(log);
        }
        const std::string out = s_dir->file("duckdb.json"), log = s_dir->file("duckdb.log");
        const auto run = cs::util::runProcess({COMPILESCOPE_PYTHON, queryRunner(), cs::test::sourceDir() + "/docs/fleet.md",
                                               s_dir->path().string(), out},
                                              {}, log, std::chrono::seconds(300));
        ASSERT_EQ(run.exitCode, 0) << cs::test::readFile(log);
        s_duck = cs::util::parseJson(cs::test::readFile(out));
    }
    static void TearDownTestSuite() {
        delete s_dir;
        s_dir = nullptr;
    }
    static inline cs::test::TempDir* s_dir = nullptr;
    static inline std::vector<EngineAnswer> s_answers;
    static inline JsonValue s_duck;
};

TEST_F(Fleet, EveryExportedLineIsJsonWithItsTraceId) {
    // Two whole folders line by line with our own reader: one with the hostile program, one without.
    for (const int k : {3, 4}) {
        const std::string name = "run-00" + std::to_string(k), id = s_answers[static_cast<size_t>(k)].traceId;
        std::int64_t lines = 0;
        for (const auto& file : fs::directory_iterator(s_dir->path() / "fleet" / name)) {
            ASSERT_EQ(file.path().extension(), ".jsonl") << file.path();
            std::ifstream in(file.path());
            for (std::string line; std::getline(in, line); ++lines) {
                const JsonValue row = cs::util::parseJson(line);  // throws on malformed JSON
                ASSERT_TRUE(row.isObject()) << line;
                ASSERT_EQ(row.members.front().first, "trace_id") << line;
                EXPECT_EQ(row.members.front().second.str, id) << line;
            }
        }
        EXPECT_GT(lines, 100) << name;
    }
}

TEST_F(Fleet, RecompilesPerProgramOverTime) {
    // Expected: one row per (program, trace) that looked the program up, by program, then time.
    std::vector<std::tuple<std::string, std::int64_t, std::string, std::int64_t, std::int64_t>> expected;
    for (const auto& a : s_answers)
        for (const auto& [program, f] : a.programs) expected.emplace_back(program, a.createdNs, a.traceId, f.lookups, f.compiles);
    std::sort(expected.begin(), expected.end());
    const auto& rows = rowsOf(s_duck, "recompiles-per-program");
    ASSERT_EQ(rows.size(), expected.size());
    std::set<std::string> regressed;  // programs whose misses rose above their first run's
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& [program, created, id, lookups, compiles] = expected[i];
        SCOPED_TRACE("row " + std::to_string(i) + ": " + program + " in " + id);
        EXPECT_EQ(text(rows[i], "program"), program);
        EXPECT_EQ(text(rows[i], "created"), isoTime(created));
        EXPECT_EQ(text(rows[i], "trace_id"), id);
        EXPECT_EQ(integer(rows[i], "lookups"), lookups);
        EXPECT_EQ(integer(rows[i], "misses"), compiles);
        if (i > 0 && std::get<0>(expected[i - 1]) == program && compiles > std::get<4>(expected[i - 1]))
            regressed.insert(program);
    }
    // The fleet is built so that these three programs start to recompile part-way through.
    EXPECT_EQ(regressed, (std::set<std::string>{"gradient", "optimizer", kHostileProgram}));
}

// Totals over the fleet of one program or module: runs that compiled it, compiles, their time, the longest.
struct Totals {
    std::int64_t runs = 0, compiles = 0, ns = 0, maxNs = 0;
    void add(std::int64_t n, std::int64_t totalNs, std::int64_t longestNs) {
        ++runs, compiles += n, ns += totalNs, maxNs = std::max(maxNs, longestNs);
    }
};

// A "slowest ... across runs" answer: the top 20 by time, each row equal to the engine's totals.
// `columns`: the name, runs, compiles, time and longest-time columns of the query.
void expectSlowest(const std::vector<JsonValue>& rows, const std::map<std::string, Totals>& totals,
                   const std::array<const char*, 5>& columns) {
    ASSERT_EQ(rows.size(), std::min<size_t>(totals.size(), 20));
    for (size_t i = 0; i < rows.size(); ++i) {
        const std::string name = text(rows[i], columns[0]);
        SCOPED_TRACE(name);
        const auto it = totals.find(name);
        ASSERT_NE(it, totals.end());
        EXPECT_EQ(integer(rows[i], columns[1]), it->second.runs);
        EXPECT_EQ(integer(rows[i], columns[2]), it->second.compiles);
        EXPECT_EQ(integer(rows[i], columns[3]), it->second.ns);
        EXPECT_EQ(integer(rows[i], columns[4]), it->second.maxNs);
        if (i > 0) {
            EXPECT_LE(it->second.ns, integer(rows[i - 1], columns[3]));
        }
    }
}

TEST_F(Fleet, SlowestProgramsAcrossRuns) {
    std::map<std::string, Totals> totals;
    for (const auto& a : s_answers)
        for (const auto& [program, f] : a.programs)
            if (f.compiles > 0) totals[program].add(f.compiles, f.compileNs, f.maxCompileNs);
    ASSERT_EQ(totals.size(), 4u);
    expectSlowest(rowsOf(s_duck, "slowest-programs"), totals,
                  {"program", "runs", "compiles", "compile_ns", "max_compile_ns"});
}

TEST_F(Fleet, SlowestModulesAcrossRuns) {
    std::map<std::string, Totals> totals;
    for (const auto& a : s_answers)
        for (const auto& [module, f] : a.modules) totals[module].add(f.builds, f.buildNs, f.maxBuildNs);
    ASSERT_EQ(totals.size(), 2u);  // warp.sim and warp.fem; "kernels" is always a cache hit
    expectSlowest(rowsOf(s_duck, "slowest-modules"), totals, {"module", "runs", "builds", "build_ns", "max_build_ns"});
}

TEST_F(Fleet, FirstTraceWhereAProgramRecompiles) {
    // The engine's late misses (the acceptance check's "miss after the first step"), per trace.
    struct First { std::int64_t createdNs = 0; std::string traceId; std::int64_t recompiles = 0, traces = 0; };
    std::map<std::string, First> first;
    for (const auto& a : s_answers)
        for (const auto& [program, f] : a.programs) {
            if (f.lateMisses == 0) continue;
            auto [it, fresh] = first.try_emplace(program);
            ++it->second.traces;
            if (fresh || std::tie(a.createdNs, a.traceId) < std::tie(it->second.createdNs, it->second.traceId))
                it->second = {a.createdNs, a.traceId, f.lateMisses, it->second.traces};
        }
    const auto& rows = rowsOf(s_duck, "first-recompile");
    ASSERT_EQ(rows.size(), first.size());
    ASSERT_EQ(first.size(), 3u);
    size_t i = 0;
    for (const auto& [program, f] : first) {
        SCOPED_TRACE(program);
        EXPECT_EQ(text(rows[i], "program"), program);
        EXPECT_EQ(text(rows[i], "trace_id"), f.traceId);
        EXPECT_EQ(text(rows[i], "created"), isoTime(f.createdNs));
        EXPECT_EQ(integer(rows[i], "recompiles"), f.recompiles);
        EXPECT_EQ(integer(rows[i], "recompiling_traces"), f.traces);
        EXPECT_GT(f.createdNs, kFirstDay) << "a program that recompiles from the first trace on tests no ordering";
        ++i;
    }
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    cs::util::ProcessResult probe;
    std::string why;
    {
        const cs::test::TempDir dir;
        probe = cs::util::runProcess({COMPILESCOPE_PYTHON, queryRunner(), "--probe"}, {}, dir.file("probe.log"),
                                     std::chrono::seconds(60));
        why = cs::test::readFile(dir.file("probe.log"));
    }
    if (!probe.started || probe.exitCode != 0) {
        const std::string where = std::string("DuckDB is not available to ") + COMPILESCOPE_PYTHON + " (" +
                                  (probe.started ? why.substr(0, why.find_last_not_of('\n') + 1) : "it does not run") +
                                  "); packaging/install-deps.sh installs it in the venv";
        const char* require = std::getenv("COMPILESCOPE_REQUIRE_RUNTIMES");
        if (require && *require && std::string(require) != "0") {
            std::cout << "FAILED: " << where << ", and COMPILESCOPE_REQUIRE_RUNTIMES=1 forbids skipping\n";
            return 1;
        }
        std::cout << "SKIPPED: " << where << "\n";
        return 77;
    }
    return RUN_ALL_TESTS();
}
