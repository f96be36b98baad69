// The cache engine below the goldens: exit codes of `check`, byte-identical results, and rules the
// goldens do not pin down (world ordering of poisoning, the memoized scan, the nearest entry, the
// expected-count arithmetic, what-if figures, rank divergence, findings --json).
#include "cli_process.h"
#include "engine/scenario.h"
#include "test_util.h"

#include "core/engine/cache/cache_analysis.h"
#include "core/engine/cache/rank_divergence.h"
#include "core/engine/cache/whatif.h"
#include "core/trace/page_seal.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "core/util/json_reader.h"

#include <gtest/gtest.h>

#include <sqlite3.h>

#include <filesystem>

using cs::test::process::runCli;  // the CLI as a process: this test links the engine

namespace {

// Builds one scenario text into a trace and returns its path.
std::string build(const cs::test::TempDir& dir, const std::string& text, const std::string& sub = "s") {
    auto d = dir.path() / sub;
    std::filesystem::create_directories(d);
    return cs::test::buildScenario(text, sub + ".scn", d.string()).tracePaths.at(0);
}

// A trace with one session and no cache facts at all.
std::string emptyTrace(const cs::test::TempDir& dir, const std::string& name) {
    auto path = dir.file(name);
    cs::trace::TraceWriter w(path);
    w.addSession({.startNs = 0});
    w.finalize();
    return path;
}

std::shared_ptr<const cs::engine::CacheAnalysis> analyse(const std::string& path) {
    auto r = cs::trace::TraceReader::open(path);
    return cs::engine::analyseCache(*r);
}

const char* kTrainOnly = R"(
key gradient shape[arg 2]=128x64 graphconst=h1 world[loss]=1
key optimizer shape[arg 2]=flat graphconst=h1
step 1
lookup gradient miss compile=496s
lookup optimizer miss compile=63s
step 2
lookup gradient hit
lookup optimizer hit
counters hits=2 misses=2 entries=2
)";

const char* kShapeChange = R"(
key gradient shape[arg 2]=128x64
key optimizer shape[arg 2]=flat
step 1
lookup gradient miss compile=496s
lookup optimizer miss compile=63s
step 2
lookup gradient miss compile=496s shape[arg 2]=100x64
lookup optimizer hit
)";

}  // namespace

TEST(Check, ExitZeroOnPass) {
    cs::test::TempDir dir;
    auto r = runCli({"check", build(dir, kTrainOnly)});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find(": PASS"), std::string::npos);
}

TEST(Check, ExitOneOnFailWithReason) {
    cs::test::TempDir dir;
    auto r = runCli({"check", build(dir, kShapeChange)});
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("FAIL no miss after the first step: gradient missed at step 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("shape of arg 2: 128x64 -> 100x64"), std::string::npos) << r.out;
}

TEST(Check, ToleranceAndExpectedCountOptions) {
    cs::test::TempDir dir;
    auto path = build(dir, kShapeChange);
    EXPECT_EQ(runCli({"check", "--max-misses-after-step", "1", "--expect-programs", "3", path}).status, 0);
    EXPECT_EQ(runCli({"check", "--max-misses-after-step", "1", path}).status, 1);  // 3 compiled, seed rule 2
    EXPECT_EQ(runCli({"check", "--expect-programs", "3", path}).status, 1);       // the late miss remains
    auto bad = runCli({"check", "--expect-programs", "two", path});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--expect-programs needs a non-negative integer"), std::string::npos);
}

// --max-misses-after-step tolerates a late miss: its finding is then a warning, not an [error] that
// fails the check through the [error]-finding rule (core/engine/analysis/error_verdict.h).
TEST(Check, ToleratedLateMissIsNoErrorFinding) {
    cs::test::TempDir dir;
    const auto path = build(dir, kShapeChange);
    auto reader = cs::trace::TraceReader::open(path);
    auto severityOf = [&](std::int64_t tolerance) {
        auto a = cs::engine::analyseCache(*reader, {.expectPrograms = 3, .maxLateMisses = tolerance});
        for (const auto& f : cs::engine::cacheFindings(*a))
            if (f.kind == "cache.miss_after_first_step") return f.severity;
        ADD_FAILURE() << "no late-miss finding at tolerance " << tolerance;
        return cs::engine::Severity::Info;
    };
    EXPECT_EQ(severityOf(0), cs::engine::Severity::Error);
    EXPECT_EQ(severityOf(1), cs::engine::Severity::Warning);
    auto tolerated = runCli({"check", "--max-misses-after-step", "1", "--expect-programs", "3", path});
    EXPECT_EQ(tolerated.out.find("[error] findings"), std::string::npos) << tolerated.out;
    auto strict = runCli({"check", "--expect-programs", "3", path});
    EXPECT_NE(strict.out.find("FAIL no miss after the first step"), std::string::npos) << strict.out;
}

// ReactantNitro's own words stay ReactantNitro's: a process that used two handles is told that the
// acceptance run is one Nitro (the scenario's cache is ReactantNitro.CACHE).
TEST(Check, TwoNitroHandlesAreNamedInNitroWords) {
    cs::test::TempDir dir;
    auto r = runCli({"check", build(dir, std::string(kTrainOnly) + "handle n2\nstep 3\nlookup gradient miss compile=496s\n")});
    EXPECT_NE(r.out.find("used 2 handles; the acceptance run is one Nitro"), std::string::npos) << r.out;
}

TEST(Check, ExitTwoWhenUnreadable) {
    cs::test::TempDir dir;
    auto missing = runCli({"check", dir.file("nope.cstrace")});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("nope.cstrace"), std::string::npos) << missing.err;
    cs::test::writeFile(dir.file("junk.cstrace"), "not a trace at all, just text\n");
    EXPECT_EQ(runCli({"check", dir.file("junk.cstrace")}).status, 2);
    // A truncated copy of a real trace.
    auto good = build(dir, kTrainOnly);
    auto bytes = cs::test::readFile(good);
    cs::test::writeFile(dir.file("cut.cstrace"), bytes.substr(0, bytes.size() / 2));
    auto cut = runCli({"check", dir.file("cut.cstrace")});
    EXPECT_EQ(cut.status, 2) << cut.out;
    // One unreadable trace among good ones is still "unreadable", not a pass or a fail.
    EXPECT_EQ(runCli({"check", good, dir.file("junk.cstrace")}).status, 2);
    EXPECT_EQ(runCli({"check"}).status, 2);
}

TEST(Check, ResultsAreByteIdenticalAcrossRuns) {
    cs::test::TempDir dir;
    auto scenario = cs::test::readFile(cs::test::sourceDir() + "/tests/engine/scenarios/redefined_helper_poisons.scn");
    auto a = build(dir, scenario, "a"), b = build(dir, scenario, "b");
    for (std::vector<std::string> cmd : {std::vector<std::string>{"check"}, {"explain"}, {"findings"}, {"findings", "--json"},
                                         {"whatif", "--exclude", "world"}}) {
        auto argsA = cmd, argsB = cmd;
        argsA.push_back(a);
        argsB.push_back(b);
        auto first = runCli(argsA), second = runCli(argsA), rebuilt = runCli(argsB);
        EXPECT_EQ(first.out, second.out) << cmd[0];
        EXPECT_EQ(first.status, second.status);
        EXPECT_EQ(first.out, rebuilt.out) << cmd[0] << ": a rebuilt trace must give the same text";
    }
}

TEST(Poisoning, OnlyANewerWorldThanTheClosureSawPoisons) {
    cs::test::TempDir dir;
    // The entry was compiled against helper@5; a redefinition "at" world 5 is the one it already saw.
    auto a = analyse(build(dir, R"(
step 1
lookup g miss compile=1s other[x]=1
closure M.helper@5
redefine M.helper world=5
lookup g hit handle=n2 other[x]=1
)"));
    EXPECT_TRUE(a->replay.poisonEvents.empty());
    EXPECT_TRUE(a->replay.disagreements.empty());
}

TEST(Poisoning, ScanIsMemoizedPerBatchOfRedefinitions) {
    cs::test::TempDir dir;
    auto a = analyse(build(dir, R"(
step 1
lookup g miss other[x]=1
closure M.a@1 M.b@1
lookup h miss other[x]=1
closure M.b@1
redefine M.a world=2
redefine M.b world=3
lookup g miss handle=n2 other[x]=1
lookup h miss handle=n2 other[x]=1
lookup g miss handle=n3 other[x]=1
)"));
    ASSERT_EQ(a->replay.poisonEvents.size(), 1u);  // two redefinitions, one entry point, one message
    const auto& ev = a->replay.poisonEvents[0];
    EXPECT_EQ(ev.entries.size(), 2u);
    EXPECT_EQ(ev.drifted, (std::vector<std::string>{"M.a", "M.b"}));
    EXPECT_NE(ev.message.find("2 cached program(s)"), std::string::npos);
    // n3 after n2 recompiled: a hit on the fresh entry, so the runtime's "miss" is a disagreement.
    ASSERT_EQ(a->replay.disagreements.size(), 1u);
    EXPECT_EQ(a->facts.lookups[a->replay.disagreements[0]].id, 5);
}

TEST(Poisoning, OldHandleIsServedStaleUntilItIsRebuilt) {
    cs::test::TempDir dir;
    auto a = analyse(build(dir, R"(
step 1
lookup g miss other[x]=1
closure M.helper@1
redefine M.helper world=2
lookup g hit other[x]=1
lookup g hit other[x]=1
)"));
    ASSERT_EQ(a->replay.staleHandles.size(), 1u);
    EXPECT_EQ(a->facts.str(a->replay.staleHandles[0].handle), "n1");
    EXPECT_EQ(a->replay.staleHandles[0].staleLookups, 2u);
    EXPECT_EQ(a->replay.total.entries, 0);  // the entry was deleted from the cache
    EXPECT_TRUE(a->replay.disagreements.empty());
}

TEST(Attribution, NearestEntryHasFewestDifferences) {
    cs::test::TempDir dir;
    auto a = analyse(build(dir, R"(
step 1
lookup g miss shape[arg 1]=8 graphconst=A
lookup g miss shape[arg 1]=9 graphconst=B
lookup g miss shape[arg 1]=8 graphconst=C
)"));
    ASSERT_EQ(a->attribution.misses.size(), 3u);
    const auto& m = a->attribution.misses[2];
    EXPECT_EQ(m.cause, cs::engine::MissCause::KeyMoved);
    ASSERT_TRUE(m.against.has_value());
    EXPECT_EQ(a->facts.lookups[*m.against].id, 1);  // not the more recent lookup #2, which differs twice
    ASSERT_EQ(m.changes.size(), 1u);
    EXPECT_EQ(m.changes[0].text(), "GraphConst hash: A -> C");
    EXPECT_EQ(m.before.size(), 2u);
    EXPECT_EQ(m.after.size(), 2u);
}

TEST(Attribution, MissingStepIsTakenFromTheStepsTable) {
    cs::test::TempDir dir;
    auto path = dir.file("steps.cstrace");
    {
        cs::trace::TraceWriter w(path);
        auto s = w.addSession({.startNs = 0});
        w.addStep({.sessionId = s, .tsNs = 10, .step = 1});
        w.addStep({.sessionId = s, .tsNs = 20, .step = 2});
        auto p = w.intern("gradient");
        w.addCacheLookup({.sessionId = s, .tsNs = 15, .program = p, .verdict = CS_VERDICT_MISS});
        auto l = w.addCacheLookup({.sessionId = s, .tsNs = 25, .program = p, .verdict = CS_VERDICT_MISS});
        w.addKeyComponent({.lookupId = l, .name = w.intern("odd role"), .role = 99, .value = w.intern("v")});
        w.addKeyComponent({.lookupId = 999, .name = w.intern("orphan"), .value = w.intern("v")});
        w.finalize();
    }
    auto a = analyse(path);
    ASSERT_EQ(a->facts.lookups.size(), 2u);
    EXPECT_EQ(a->facts.lookups[1].step, 2);
    EXPECT_EQ(a->acceptance.lateMisses.size(), 1u);  // an unknown role still keys: when in doubt, miss
    EXPECT_EQ(a->attribution.misses[1].changes.at(0).text(), "odd role: (absent) -> v");
}

TEST(Acceptance, ExpectedCountFollowsTheSeed) {
    using cs::engine::expectedProgramCount;
    EXPECT_EQ(expectedProgramCount({.gradient = true, .optimizer = true}).count, 2);
    EXPECT_EQ(expectedProgramCount({.gradient = true, .optimizer = true, .validates = true}).count, 3);
    auto metric = expectedProgramCount({.gradient = true, .optimizer = true, .validates = true, .deviceMetricHooks = 1});
    EXPECT_EQ(metric.count, 4);
    auto ragged = expectedProgramCount(
        {.gradient = true, .optimizer = true, .validates = true, .deviceMetricHooks = 1, .raggedSplits = 1});
    EXPECT_EQ(ragged.count, 5);
    EXPECT_EQ(ragged.basis, "run that trains and validates: gradient + optimizer + evaluation forward + 1 :device "
                            "metric program + 1 ragged-split rebuild = 5");
}

TEST(Acceptance, PerStepSeriesForPlotting) {
    cs::test::TempDir dir;
    auto a = analyse(build(dir, kShapeChange));
    ASSERT_EQ(a->acceptance.series.size(), 2u);
    EXPECT_EQ(a->acceptance.series[0].misses, 2);
    EXPECT_EQ(a->acceptance.series[1].misses, 1);
    EXPECT_EQ(a->acceptance.series[1].cumulativeMisses, 3);
    EXPECT_EQ(a->acceptance.series[1].lookups, 2);
}

TEST(WhatIf, FiguresAndUnknownNames) {
    cs::test::TempDir dir;
    auto a = analyse(build(dir, kShapeChange));
    auto r = cs::engine::whatIf(a->facts, a->replay, {.exclude = {"shape of arg 2"}});
    EXPECT_EQ(r.compilesSaved, 1);
    EXPECT_EQ(r.nsSaved, 496000000000);
    EXPECT_EQ(r.unsafeHits, 0u);  // no fingerprints recorded: not provably unsafe
    auto u = cs::engine::whatIf(a->facts, a->replay, {.include = {"nothing-like-this"}});
    EXPECT_EQ(u.unknownNames, std::vector<std::string>{"nothing-like-this"});
}

TEST(RankDivergence, SameProgramsDoNotDiverge) {
    cs::test::TempDir dir;
    auto a = analyse(build(dir, kTrainOnly, "r0")), b = analyse(build(dir, kTrainOnly, "r1"));
    auto d = cs::engine::compareRanks({{"r0", &a->facts, &a->replay}, {"r1", &b->facts, &b->replay}});
    EXPECT_FALSE(d.diverges());
    auto c = analyse(build(dir, kShapeChange, "r2"));
    auto e = cs::engine::compareRanks({{"r0", &a->facts, &a->replay}, {"r2", &c->facts, &c->replay}});
    EXPECT_TRUE(e.diverges());
}

TEST(Findings, JsonCarriesKindEvidenceAndCost) {
    cs::test::TempDir dir;
    auto r = runCli({"findings", "--json", build(dir, kShapeChange)});
    ASSERT_EQ(r.status, 0) << r.err;
    auto doc = cs::util::parseJson(r.out);
    const auto* list = doc.get("findings");
    ASSERT_TRUE(list && list->isArray());
    ASSERT_FALSE(list->items.empty());
    const auto& f = list->items[0];
    EXPECT_EQ(f.get("kind")->str, "cache.miss_after_first_step");
    EXPECT_EQ(f.get("severity")->str, "error");
    EXPECT_EQ(f.get("cost_ns")->str, "496000000000");
    const auto& ev = f.get("evidence")->items.at(0);
    EXPECT_EQ(ev.get("table")->str, "cache_lookups");
    EXPECT_EQ(ev.get("row_id")->str, "3");
}

TEST(Findings, NoCacheLookupsNoCacheFindings) {
    cs::test::TempDir dir;
    auto r = runCli({"findings", emptyTrace(dir, "empty.cstrace")});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "findings empty.cstrace: 0\n");
}

TEST(CacheFacts, HostileCodesAndIdsAreHarmless) {
    cs::test::TempDir dir;
    auto path = build(dir, kTrainOnly);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    // A string id near INT64_MAX, a verdict code no format version defines, a method event likewise.
    const char* sql =
        "UPDATE key_components SET value_sid = 9000000000000000000, digest_sid = 9000000000000000000 "
        "WHERE lookup_id = 3 AND ordinal = 0;"
        "INSERT INTO strings VALUES (9000000000000000000, '256x64');"
        "UPDATE cache_lookups SET verdict = 7 WHERE id = 4;"
        "INSERT INTO methods (session_id, event, method_sid, world) VALUES (1, 42, 1, 5);";
    char* err = nullptr;
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_close(db);
    ASSERT_TRUE(cs::trace::sealPages(path));  // hostile, yet sealed: the codes are under test (issue 40)
    auto a = analyse(path);
    EXPECT_EQ(a->facts.lookups[3].verdict, CS_VERDICT_UNKNOWN);
    EXPECT_TRUE(a->facts.methods.empty());
    ASSERT_EQ(a->attribution.misses.size(), 3u);
    EXPECT_EQ(a->attribution.misses[2].reason, "shape of arg 2: 128x64 -> 256x64");
    auto r = runCli({"check", path});
    EXPECT_EQ(r.status, 1) << r.out;
}

TEST(RankDivergence, FindingNamesTheRankAndItsCompile) {
    cs::test::TempDir dir;
    auto a = analyse(build(dir, kTrainOnly, "r0"));
    auto c = analyse(build(dir, kShapeChange, "r1"));
    auto d = cs::engine::compareRanks({{"r0", &a->facts, &a->replay}, {"r1", &c->facts, &c->replay}});
    auto findings = cs::engine::rankDivergenceFindings(d);
    ASSERT_FALSE(findings.empty());
    bool found = false;
    for (const auto& f : findings)
        if (f.title.find("shape of arg 2=100x64") != std::string::npos) {
            found = true;
            EXPECT_EQ(f.costNs, 496000000000);
            ASSERT_EQ(f.evidence.size(), 1u);
            EXPECT_EQ(f.evidence[0].rowId, 3);
            EXPECT_EQ(f.evidence[0].note, "in r1");
        }
    EXPECT_TRUE(found);
}

TEST(Cli, HelpListsTheCacheCommands) {
    auto r = runCli({"--help"});
    ASSERT_EQ(r.status, 0);
    for (auto c : {"check", "explain", "whatif", "findings"}) EXPECT_NE(r.out.find(c), std::string::npos) << c;
    auto u = runCli({"explain"});
    EXPECT_EQ(u.status, 2);
    EXPECT_NE(u.err.find("expected exactly one TRACE argument"), std::string::npos);
    EXPECT_EQ(runCli({"whatif", "t.cstrace"}).status, 2);  // no rule given
    EXPECT_EQ(runCli({"findings", "--yaml", "t.cstrace"}).status, 2);
}

// Nothing to judge is not a failure: a CI gate on an import-only trace passes, as the report says.
TEST(Check, ATraceWithoutLookupsIsNotApplicable) {
    cs::test::TempDir dir;
    auto r = runCli({"check", emptyTrace(dir, "nothing.cstrace")});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("NOT APPLICABLE (nothing to judge"), std::string::npos) << r.out;
}

namespace {
// The training run of kTrainOnly on a rank whose gradient compile took three times as long.
std::string slowRankScenario() {
    std::string s = kTrainOnly;
    s.replace(s.find("compile=496s"), 12, "compile=1500s");
    return s;
}
}  // namespace

// The slow-rank rule: at least twice the median rank and 100 ms more, among three ranks or more.
TEST(RankDivergence, ARankFarAboveTheMedianIsSlow) {
    cs::test::TempDir dir;
    auto a = analyse(build(dir, kTrainOnly, "r0"));
    auto slow = analyse(build(dir, slowRankScenario(), "r2"));
    using cs::engine::RankTrace;
    auto rank = [](const char* label, const std::shared_ptr<const cs::engine::CacheAnalysis>& c, std::int64_t ns) {
        return RankTrace{label, &c->facts, &c->replay, ns};
    };
    constexpr std::int64_t s = 1'000'000'000;
    auto d = cs::engine::compareRanks({rank("r0", a, 10 * s), rank("r1", a, 11 * s), rank("r2", slow, 40 * s)});
    EXPECT_FALSE(d.diverges()) << "same programs, same steps: a slow rank alone is a warning";
    ASSERT_EQ(d.slow.size(), 1u);
    EXPECT_EQ(d.slow[0].rank, "r2");
    EXPECT_EQ(d.slow[0].medianNs, 11 * s);
    // Its longest compiles are the evidence, longest first.
    ASSERT_EQ(d.slow[0].longest.size(), 2u);
    EXPECT_EQ(d.slow[0].longest[0].compileNs, 1500 * s);
    EXPECT_EQ(d.slow[0].longest[1].compileNs, 63 * s);
    auto findings = cs::engine::rankDivergenceFindings(d);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].kind, "cache.rank_slow");
    EXPECT_EQ(findings[0].costNs, 29 * s) << "the time the others wait: its compile time less the median";
    EXPECT_EQ(findings[0].title, "rank r2 compiled for 40.0 s, 3.6x the median rank's 11.0 s");
    ASSERT_EQ(findings[0].evidence.size(), 2u);
    EXPECT_EQ(findings[0].evidence[0].note, "in r2");

    // Below twice the median, below 100 ms above it, with two ranks, or without a known time: no finding.
    EXPECT_TRUE(cs::engine::compareRanks({rank("r0", a, 10 * s), rank("r1", a, 11 * s), rank("r2", a, 21 * s)}).slow.empty());
    EXPECT_TRUE(cs::engine::compareRanks({rank("r0", a, 1'000'000), rank("r1", a, 1'000'000), rank("r2", a, 90'000'000)}).slow.empty());
    EXPECT_TRUE(cs::engine::compareRanks({rank("r0", a, 10 * s), rank("r1", a, 400 * s)}).slow.empty());
    EXPECT_TRUE(cs::engine::compareRanks({{"r0", &a->facts, &a->replay}, {"r1", &a->facts, &a->replay}, rank("r2", a, 400 * s)}).slow.empty());
}

// `check` over the ranks of one job: a slow rank is named with its time and the median, and does not
// fail the check on its own (the programs and steps agree).
TEST(Check, NamesASlowRankWithoutFailing) {
    cs::test::TempDir dir;
    auto r = runCli({"check", build(dir, kTrainOnly, "r0"), build(dir, kTrainOnly, "r1"), build(dir, slowRankScenario(), "r2")});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("ranks (3 traces): agree"), std::string::npos) << r.out;
    // Every rank wrote t.cstrace in a folder of its own: each is named by the path that tells it apart.
    EXPECT_NE(r.out.find("WARN rank r2/t.cstrace compiled for 1563 s, 2.8x the median rank's 559 s"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("WARN rank r0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("r1/t.cstrace: PASS"), std::string::npos) << r.out;
}

// The HTML report over the ranks of one job says what `check` says: the same slow rank, the same
// text, its row marked; a report over one trace has no Ranks section.
TEST(RankDivergence, ReportHasARanksSectionThatAgreesWithCheck) {
    cs::test::TempDir dir;
    const std::vector<std::string> traces{build(dir, kTrainOnly, "r0"), build(dir, kTrainOnly, "r1"), build(dir, slowRankScenario(), "r2")};
    auto check = runCli({"check", traces[0], traces[1], traces[2]});
    ASSERT_EQ(check.status, 0) << check.out << check.err;
    const auto warn = check.out.find("WARN rank ");
    ASSERT_NE(warn, std::string::npos) << check.out;
    // check names ranks by path, the report by its tags (A, B, C): compare the figures after the name.
    std::string figures = check.out.substr(check.out.find(" compiled for ", warn), check.out.find(" (the others", warn) - check.out.find(" compiled for ", warn));
    figures.replace(figures.find('\''), 1, "&#39;");  // as HTML escapes it

    const std::string out = dir.file("ranks.html");
    auto r = runCli({"report", traces[0], traces[1], traces[2], "-o", out});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string html = cs::test::readFile(out);
    const auto at = html.find("<section id=\"ranks\"");
    ASSERT_NE(at, std::string::npos);
    const std::string section = html.substr(at, html.find("</section>", at) - at);
    EXPECT_NE(section.find("data-count=\"1\""), std::string::npos) << "one finding: the slow rank";
    EXPECT_NE(section.find("Slow rank: </strong>rank C (r2/t.cstrace)" + figures), std::string::npos) << section;
    EXPECT_NE(section.find("compiled the same programs at the same steps"), std::string::npos);
    // Every rank listed, the slow one first and marked, with its folder in its name.
    const auto slowRow = section.find("<tr class=\"slow\">");
    ASSERT_NE(slowRow, std::string::npos);
    EXPECT_LT(slowRow, section.find("<tr class=\"rank\">"));
    EXPECT_NE(section.find("r2/t.cstrace", slowRow), std::string::npos);
    EXPECT_NE(html.find("href=\"#ranks\""), std::string::npos);

    auto one = runCli({"report", traces[0], "-o", dir.file("one.html")});
    ASSERT_EQ(one.status, 0) << one.err;
    const std::string single = cs::test::readFile(dir.file("one.html"));
    EXPECT_EQ(single.find("id=\"ranks\""), std::string::npos);
    EXPECT_EQ(single.find("href=\"#ranks\""), std::string::npos);
}

// A report over more traces than ReportOptions::detailedTraces (8): every rank is in Ranks and in
// the report's data, but only the first rank and the slow one are rendered section by section.
TEST(RankDivergence, ReportOverManyRanksDetailsTheFirstAndTheSlowOnly) {
    cs::test::TempDir dir;
    std::vector<std::string> args{"report"};
    for (int r = 0; r < 12; ++r) {
        const std::string name = "r" + std::to_string(r);
        args.push_back(build(dir, r == 9 ? slowRankScenario() : std::string(kTrainOnly), name));
    }
    const std::string out = dir.file("many.html");
    args.insert(args.end(), {"-o", out});
    auto r = runCli(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string html = cs::test::readFile(out);
    auto section = [&](const std::string& id) {
        const auto at = html.find("<section id=\"" + id + "\"");
        return at == std::string::npos ? std::string() : html.substr(at, html.find("</section>", at) - at);
    };
    auto count = [](const std::string& s, const std::string& what) {
        size_t n = 0;
        for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
        return n;
    };
    const std::string ranks = section("ranks");
    ASSERT_FALSE(ranks.empty());
    EXPECT_EQ(count(ranks, "<tr class=\"slow\">") + count(ranks, "<tr class=\"rank\">"), 12u) << "every rank is listed";
    EXPECT_NE(ranks.find("Detailed in the other sections: A, J "), std::string::npos) << ranks;
    EXPECT_NE(html.find("and 10 more traces, in Ranks"), std::string::npos);
    EXPECT_LT(html.find("<section id=\"ranks\""), html.find("<section id=\"summary\"")) << "a report on many ranks opens with them";
    const std::string summary = section("summary");
    EXPECT_EQ(count(summary, "class=\"trace-summary\""), 2u);
    EXPECT_NE(summary.find("data-trace=\"A\""), std::string::npos);
    EXPECT_NE(summary.find("data-trace=\"J\""), std::string::npos);
    // The machine-readable figures keep every trace.
    const auto data = html.find("id=\"report-data\"");
    ASSERT_NE(data, std::string::npos);
    EXPECT_EQ(count(html.substr(data, html.find("</script>", data) - data), "\"label\":"), 12u);
}
