// Golden tests of the cache engine: one scenario per outcome sentence of the ReactantNitro guide (docs/cache-replay.md).
//
// Each tests/engine/scenarios/NAME.scn is built into real .cstrace files (scenario.h), every `run:`
// line is run through the CLI (as a process, cli_process.h), and the transcript is compared with
// tests/engine/golden/NAME.expected. On a mismatch the test prints `diff -u` and writes NAME.actual
// beside the expected file (gitignored). COMPILESCOPE_UPDATE_GOLDEN=1 rewrites the expected files;
// review every change with git diff before committing it.
#include "cli_process.h"
#include "engine/scenario.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;

namespace {

fs::path engineDir() { return fs::path(cs::test::sourceDir()) / "tests" / "engine"; }

std::vector<std::string> scenarioNames() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(engineDir() / "scenarios"))
        if (e.path().extension() == ".scn") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> splitArgs(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string a; in >> a;) out.push_back(a);
    return out;
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
    for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
}

// Runs each `run:` line with the traces appended; paths under `dir` print as file names.
std::string runAll(const std::vector<std::string>& runs, const std::vector<std::string>& traces, const std::string& dir) {
    std::string text;
    for (const auto& run : runs) {
        auto args = splitArgs(run);
        std::string shown = "$ compilescope";
        for (const auto& a : args) shown += " " + a;
        for (const auto& p : traces) {
            args.push_back(p);
            shown += " " + fs::path(p).filename().string();
        }
        auto r = cs::test::process::runCli(args);
        text += shown + "\n" + r.out;
        if (!r.err.empty()) text += "[stderr]\n" + r.err;
        text += "[exit " + std::to_string(r.status) + "]\n\n";
    }
    replaceAll(text, dir + "/", "");
    return text;
}

// A live collector stamps events with CLOCK_MONOTONIC, not the builder's clock from 0: this sink
// shifts every timestamp by a large offset, so the goldens are shown not to depend on absolute time.
class ShiftedClockSink final : public cs::test::TraceSink {
public:
    explicit ShiftedClockSink(const std::string& path) : m_inner(cs::test::makeWriterSink(path)) {}
    static constexpr std::int64_t kShift = 987654321000000;
    std::int64_t beginSession(const std::string& r, std::int64_t t) override { return m_inner->beginSession(r, t + kShift); }
    void endSession(std::int64_t s, std::int64_t t) override { m_inner->endSession(s, t + kShift); }
    void step(std::int64_t s, std::int64_t t, std::int64_t n, const std::string& l) override { m_inner->step(s, t + kShift, n, l); }
    std::int64_t lookup(const cs::test::SinkLookup& l) override {
        auto shifted = l;
        shifted.tsNs += kShift;
        return m_inner->lookup(shifted);
    }
    void closure(std::int64_t id, const std::string& m, std::optional<std::int64_t> w) override { m_inner->closure(id, m, w); }
    void method(std::int64_t s, std::int64_t t, int e, const std::string& n, std::optional<std::int64_t> w) override {
        m_inner->method(s, t + kShift, e, n, w);
    }
    void counter(std::int64_t s, std::int64_t t, const std::string& sc, const std::string& n, std::int64_t v) override {
        m_inner->counter(s, t + kShift, sc, n, v);
    }
    void finish() override { m_inner->finish(); }

private:
    std::unique_ptr<cs::test::TraceSink> m_inner;
};

// Runs every `run:` line of a scenario and returns the transcript; trace paths print as file names.
std::string transcript(const std::string& name, const cs::test::SinkFactory& sink = cs::test::makeWriterSink) {
    cs::test::TempDir dir;
    auto scn = engineDir() / "scenarios" / (name + ".scn");
    auto built = cs::test::buildScenario(cs::test::readFile(scn.string()), "scenarios/" + name + ".scn",
                                         dir.path().string(), sink);
    return runAll(built.runs, built.tracePaths, dir.path().string());
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, MatchesExpected) {
    const auto& name = GetParam();
    auto actual = transcript(name);
    auto expectedPath = engineDir() / "golden" / (name + ".expected");
    auto actualPath = engineDir() / "golden" / (name + ".actual");
    if (std::getenv("COMPILESCOPE_UPDATE_GOLDEN")) {
        cs::test::writeFile(expectedPath.string(), actual);
        fs::remove(actualPath);
        return;
    }
    ASSERT_TRUE(fs::exists(expectedPath)) << "no golden file " << expectedPath << "; actual output:\n" << actual;
    auto expected = cs::test::readFile(expectedPath.string());
    if (actual == expected) {
        fs::remove(actualPath);
        return;
    }
    cs::test::writeFile(actualPath.string(), actual);
    std::string cmd = "diff -u '" + expectedPath.string() + "' '" + actualPath.string() + "'";
    std::fflush(stdout);
    int rc = std::system(cmd.c_str());
    (void)rc;
    ADD_FAILURE() << name << ": output differs from " << expectedPath << " (diff above; wrote " << actualPath << ")";
}

// The scenario recorded by the real collector and recorder (`compilescope record -- scenario_record`),
// one process per trace, must give the golden transcript too: the input is "built through the
// collector API", and the WriterSink used above is only its fast stand-in.
std::string transcriptThroughCollector(const std::string& name) {
    cs::test::TempDir dir;
    auto scn = (engineDir() / "scenarios" / (name + ".scn")).string();
    auto built = cs::test::buildScenario(cs::test::readFile(scn), name, dir.path().string());  // names and runs
    std::vector<std::string> recorded;
    for (size_t k = 0; k < built.tracePaths.size(); ++k) {
        auto path = (dir.path() / "rec" / fs::path(built.tracePaths[k]).filename()).string();
        fs::create_directories(dir.path() / "rec");
        // One process per session, in order, each joining the recorder as its own session. The trace's
        // index comes in the environment, as a launcher gives each rank its own: the ranks of one job
        // run one command line, which is how check tells them from unrelated traces (rank_compare.h).
        std::string loop = std::string("s=0; while :; do \"") + SCENARIO_RECORD + "\" \"" + scn + "\" \"" +
                           dir.path().string() + "\" -" +
                           " $s; rc=$?; [ $rc = 4 ] && exit 0; [ $rc = 0 ] || exit $rc; s=$((s+1)); done";
        std::string cmd = "CS_SCENARIO_TRACE=" + std::to_string(k) + " " + COMPILESCOPE_CLI + " record -o " + path +
                          " -- sh -c '" + loop + "' >" + dir.file("log") + " 2>&1";
        int st = std::system(cmd.c_str());
        EXPECT_EQ(st, 0) << cmd << "\n" << cs::test::readFile(dir.file("log"));
        recorded.push_back(path);
    }
    return runAll(built.runs, recorded, (dir.path() / "rec").string());
}

TEST_P(Golden, ThroughTheCollector) {
    const auto& name = GetParam();
    auto expected = cs::test::readFile((engineDir() / "golden" / (name + ".expected")).string());
    EXPECT_EQ(transcriptThroughCollector(name), expected) << name << ": recorded through the collector";
}

TEST_P(Golden, IndependentOfTheClock) {
    const auto& name = GetParam();
    auto shifted = transcript(name, [](const std::string& p) { return std::make_unique<ShiftedClockSink>(p); });
    EXPECT_EQ(shifted, transcript(name)) << name << ": output depends on absolute timestamps";
}

INSTANTIATE_TEST_SUITE_P(Scenario, Golden, ::testing::ValuesIn(scenarioNames()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
