// JAX log import from public samples (tests/data/jax/README.md): jax_explain_cache_misses blocks
// (never seen function, different input types, different tracing context), persistent compilation
// cache hit / miss / write lines related by key although printed out of time order, and
// jax_log_compiles durations.
#include "imported_trace.h"

#include <compilescope/trace_constants.h>

namespace {
std::unique_ptr<cs::test::ImportedTrace> importText(const std::string& content) {
    return cs::test::importContent("jax.log", content, "jax-log");
}

std::string data(const std::string& name) { return cs::test::readFile(cs::test::sourceDir() + "/tests/data/jax/" + name); }

std::string componentsOf(int lookup) {
    return "SELECT group_concat(n.str || '=' || v.str, ';') FROM key_components k JOIN strings n ON n.id=k.name_sid JOIN "
           "strings v ON v.id=k.value_sid WHERE k.lookup_id=" + std::to_string(lookup);
}
std::string spanArgs(const std::string& prefix) {
    return "SELECT group_concat(a.value, '|') FROM span_args a JOIN strings k ON k.id=a.key_sid WHERE k.str LIKE '" + prefix + "%'";
}
}  // namespace

// jax-ml/jax PR #27980: two blocks behind pytest's own prefix.
TEST(JaxLogImport, ExplainCacheMissBlocks) {
    auto im = importText(data("explain_cache_misses_pr27980.log"));
    EXPECT_EQ(im->count("SELECT count(*) FROM cache_lookups WHERE verdict=2"), 2);
    EXPECT_EQ(im->text(componentsOf(1)), "function id=f id=5904421952");
    EXPECT_EQ(im->text(componentsOf(2)), "type of x=f32[8];tracing context [6]=raise");
    EXPECT_EQ(im->text("SELECT s.str FROM cache_lookups l JOIN strings s ON s.id=l.program_sid WHERE l.id=2"),
              "f (/Users/necula/Source/jax/tests/api_test.py:4662)");
    EXPECT_EQ(im->text("SELECT s.str FROM cache_lookups l JOIN strings s ON s.id=l.handle_sid WHERE l.id=1"),
              "/Users/necula/Source/jax/tests/api_test.py:4488:8 (APITest.test_cache_miss_explanations_first_miss)");
    EXPECT_EQ(im->text(spanArgs("reason")),
              "never seen function|different input types|different input types: x now f32[8] and before f32[4]|"
              "different tracing context|different tracing context: [6] now raise and before warn");
    // Times from the logging prefix: 17:56:45,045 and 17:56:45,098.
    EXPECT_EQ(im->count("SELECT max(ts_ns) - min(ts_ns) FROM cache_lookups"), 53000000);
}

// jax-ml/jax#22281: a block with no prefix after DEBUG lines; a persistent hit without a key.
TEST(JaxLogImport, NeverSeenFunctionRedefinedOnTheSameLine) {
    auto im = importText(data("explain_never_seen_issue22281.log"));
    EXPECT_EQ(im->count("SELECT count(*) FROM cache_lookups"), 2);
    EXPECT_EQ(im->count("SELECT count(*) FROM cache_lookups l JOIN strings c ON c.id=l.cache_sid WHERE "
                        "c.str='jax persistent compilation cache' AND l.verdict=1"),
              1);
    EXPECT_NE(im->text(spanArgs("reason")).find("seen another function defined on the same line"), std::string::npos);
    EXPECT_EQ(im->text(componentsOf(2)), "function id=broadcast_in_dim id=140717638216544");
}

// jax-ml/jax PR #22556, "example log lines (not in chronological order)": the write, the miss and the
// hit of jit_matrix_multiply's key are related by key, and listed in time order.
TEST(JaxLogImport, PersistentCacheKeyRelatedAcrossOutOfOrderLines) {
    auto im = importText(data("persistent_cache_pr22556.log"));
    EXPECT_EQ(im->count("SELECT count(*) FROM cache_lookups"), 3);
    EXPECT_EQ(im->count("SELECT count(*) FROM spans s JOIN span_args a ON a.span_id=s.id WHERE a.value='persistent_cache_write'"), 1);
    auto explain = im->cli("explain");
    EXPECT_NE(explain.find("jax persistent compilation cache key "
                           "jit_matrix_multiply-fa478e4ead6882a4c14cc1366d30f8efc783165c9cb16536e025357428373990: write, "
                           "hit lookup #3, miss lookup #2"),
              std::string::npos)
        << explain;
    // The hit was not compiled in this trace (it came from the persistent cache), so no hit is
    // related to a miss of this trace; in time order the miss follows the hit, which the replay reports.
    EXPECT_EQ(explain.find("hit(s) with the key of miss"), std::string::npos) << explain;
    EXPECT_NE(explain.find("disagreement: lookup #2"), std::string::npos) << explain;
    // Written and read back: not reported as an unread write.
    EXPECT_EQ(im->cli("findings").find("never read"), std::string::npos);
}

// The same sample's write alone: an entry written that no run in the trace read.
TEST(JaxLogImport, PersistentWriteNeverRead) {
    auto all = data("persistent_cache_pr22556.log");
    auto im = importText(all.substr(0, all.find('\n') + 1));
    auto findings = im->cli("findings");
    EXPECT_NE(findings.find("jit_matrix_multiply: persistent-cache entry written, never read"), std::string::npos) << findings;
}

// jax-ml/jax PR #8931: jax_log_compiles durations become spans that end at the line.
TEST(JaxLogImport, LogCompilesDurations) {
    auto im = importText(data("log_compiles_pr8931.log"));
    EXPECT_EQ(im->count("SELECT dur_ns FROM spans WHERE category=8"), 2244359255);
    EXPECT_EQ(im->count("SELECT dur_ns FROM spans WHERE category=1"), 1267568827);  // 1.267568826675415 s, rounded to the ns
    EXPECT_EQ(im->text("SELECT s.str FROM spans p JOIN strings s ON s.id=p.name_sid WHERE p.category=1"), "XLA compile f");
}

// JAX 0.10.2, captured (tests/data/jax/README.md): the header without "because:", one closest key per
// miss, the headings without "* key with", a static_argnums value, a pytree, a weak type whose line
// ends in JAX's documentation address, a tracing-context flag by name, "Finished tracing f for jit".
TEST(JaxLogImport, Jax0102ExplanationForms) {
    auto im = importText(data("jax_0_10_2_explain.stderr"));
    EXPECT_EQ(im->count("SELECT count(*) FROM cache_lookups WHERE verdict=2"), 7);
    EXPECT_EQ(im->text("SELECT s.str FROM cache_lookups l JOIN strings s ON s.id=l.handle_sid WHERE l.id=1"),
              "/tmp/jax_sample/explain.py:16 (<module>)");
    EXPECT_EQ(im->text(componentsOf(1)), "function id=pos id=140161427608320");
    EXPECT_EQ(im->text(componentsOf(2)), "static argument #1=3");
    EXPECT_EQ(im->text(componentsOf(4)), "pytree at [0][0]=<class 'list'>");
    EXPECT_EQ(im->text(componentsOf(6)), "type of x=f32[]{weak_type=False}");
    EXPECT_EQ(im->text(componentsOf(7)), "tracing context jax_enable_x64=True");
    EXPECT_EQ(im->count("SELECT role FROM key_components WHERE lookup_id=2"), CS_ROLE_KEYWORD);
    EXPECT_EQ(im->count("SELECT role FROM key_components WHERE lookup_id=7"), CS_ROLE_OPTION);
    EXPECT_EQ(im->text(spanArgs("reason")),
              "never seen function|different input pytree|different value of static argument #1: now 3 and before 2|"
              "never seen function|different input pytree|different input pytree: input path [0][0] now <class 'list'> "
              "and before <class 'tuple'>|never seen function|different input types|different input types: x now "
              "f32[]{weak_type=False} and before f32[]{weak_type=True}|different tracing context|different tracing "
              "context: jax_enable_x64 now True and before False");
    EXPECT_EQ(im->text("SELECT s.str FROM cache_lookups l JOIN strings s ON s.id=l.program_sid WHERE l.id=7"),
              "w (/tmp/jax_sample/explain.py:12)");
    // "Finished tracing pos for jit in 0.001949549 sec": the first of pos's two traces.
    EXPECT_EQ(im->count("SELECT count(*) FROM spans s JOIN strings n ON n.id=s.name_sid WHERE n.str='trace pos'"), 2);
    EXPECT_EQ(im->count("SELECT min(dur_ns) FROM spans s JOIN strings n ON n.id=s.name_sid WHERE n.str='trace pos'"), 909328);
    // The value before is the one JAX printed ("now 3 and before 2"), not "(absent)": the never-seen
    // miss before it printed no key (issue 35).
    const auto explain = im->cli("explain");
    EXPECT_NE(explain.find("key moved: static argument #1: 2 -> 3 (vs lookup #1)"), std::string::npos) << explain;
    EXPECT_NE(explain.find("key moved: type of x: f32[]{weak_type=True} -> f32[]{weak_type=False} (vs lookup #5)"),
              std::string::npos)
        << explain;
    EXPECT_NE(explain.find("key moved: tracing context jax_enable_x64: False -> True (vs lookup #6)"), std::string::npos)
        << explain;
    EXPECT_EQ(explain.find("(absent)"), std::string::npos) << explain;
}

// JAX 0.10.2, a second process on a filled persistent cache with JAX_LOGGING_LEVEL=DEBUG: hits with
// keys at DEBUG behind JAX's prefix, and XLA's C++ lines between them.
TEST(JaxLogImport, Jax0102WarmProcessDebugLog) {
    const auto log = data("jax_0_10_2_warm_debug.stderr");
    auto im = importText(log);
    EXPECT_EQ(im->count("SELECT count(*) FROM cache_lookups l JOIN strings c ON c.id=l.cache_sid WHERE "
                        "c.str='jax persistent compilation cache' AND l.verdict=1"),
              3);
    EXPECT_EQ(im->count("SELECT count(*) FROM cache_lookups WHERE verdict=2"), 1);
    EXPECT_EQ(im->text("SELECT s.str FROM cache_lookups l JOIN strings s ON s.id=l.handle_sid WHERE l.verdict=1 ORDER BY l.ts_ns "
                       "DESC LIMIT 1"),
              "jit_double-9829c202c482435a05dcd64fd916f66a8dce331eb07fe4b1da6b31c1d7ee3a67");
    // 09:09:43,823 (the first hit) to 09:09:43,853 (jit_double's hit).
    EXPECT_EQ(im->count("SELECT max(ts_ns) - min(ts_ns) FROM cache_lookups"), 30000000);
    // Cut so that an XLA C++ line (absl's yearless prefix, `I1203 09:09:43.801256   29226 pjrt_client.cc:579]`)
    // comes first: JAX's dated lines still set the clock.
    auto cut = importText(log.substr(log.find("I1203 ")));
    EXPECT_EQ(cut->count("SELECT max(ts_ns) - min(ts_ns) FROM cache_lookups"), 30000000);
    EXPECT_LT(cut->count("SELECT max(ts_ns) FROM cache_lookups"), 1000000000);
}

// Issue 35: the PR's lines out of time order get a note, and the verdict is the runtime's own lines'
// (one miss, one hit of each key as printed), not "the replay disagrees with the runtime" as an [error].
TEST(JaxLogImport, OutOfOrderLinesGetANoteAndTheRuntimesVerdict) {
    auto im = importText(data("persistent_cache_pr22556.log"));
    EXPECT_EQ(im->count("SELECT count FROM stats WHERE name='out_of_order_line'"), 1);
    auto check = cs::test::process::runCli({"check", im->trace});
    EXPECT_EQ(check.status, 0) << check.out;
    EXPECT_NE(check.out.find(": PASS\n"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find("note: the log's lines are out of time order"), std::string::npos) << check.out;
    EXPECT_EQ(check.out.find("replay agrees with the runtime"), std::string::npos) << check.out;
    auto findings = im->cli("findings");
    EXPECT_EQ(findings.find("[error]"), std::string::npos) << findings;
    EXPECT_NE(findings.find("[info] cache.lines_out_of_order"), std::string::npos) << findings;
    // Lines in time order stay judged by the replay: the same lines sorted give no note.
    auto sorted = importText(std::string() +
                             "2024-07-22 11:56:03,008 - DEBUG - Writing jit_f to persistent compilation cache with key 'jit_f-1'\n"
                             "2024-07-22 12:23:09,163 - DEBUG - Persistent compilation cache hit for 'jit_f' with key 'jit_f-1'\n");
    EXPECT_EQ(sorted->count("SELECT count(*) FROM stats WHERE name='out_of_order_line'"), 0);
}

// Issue 35: every line the importer does not use is counted (as information, not a loss), and JAX's
// DEBUG "Compiling jit(f) with global shapes and types ..." lines are read.
TEST(JaxLogImport, UnusedLinesCountedAndCompilingLinesRead) {
    auto never = importText(data("explain_never_seen_issue22281.log"));
    // get_compile_options twice, the lru_cache hit, and the explanation's wrapped second line.
    EXPECT_EQ(never->count("SELECT count FROM stats WHERE name='unused_line'"), 4);
    EXPECT_EQ(never->cli("findings").find("input items not read"), std::string::npos);
    for (const char* name : {"jax_0_10_2_explain.stderr", "jax_0_10_2_warm_debug.stderr"}) {
        const auto log = data(name);
        std::int64_t compiling = 0;
        for (size_t at = log.find("Compiling jit("); at != std::string::npos; at = log.find("Compiling jit(", at + 1)) ++compiling;
        ASSERT_GT(compiling, 0) << name;
        auto im = importText(log);
        EXPECT_EQ(im->count("SELECT count(*) FROM spans s JOIN strings n ON n.id=s.name_sid WHERE n.str LIKE 'Compiling jit(%'"),
                  compiling)
            << name;
        EXPECT_EQ(im->count("SELECT count(*) FROM span_args a JOIN strings k ON k.id=a.key_sid WHERE k.str='global shapes and "
                            "types' AND a.value LIKE '(ShapedArray(%'"),
                  compiling)
            << name;
    }
}

// Issue 35: JAX's own reasons for a miss whose earlier key is not in the log are shown by explain and
// the report, instead of "first compile: no earlier entry".
TEST(JaxLogImport, StoredMissReasonsShownByExplainAndReport) {
    auto im = importText(data("explain_cache_misses_pr27980.log"));
    const std::string said = "JAX says: different input types: x now f32[8] and before f32[4]; different tracing context: [6] "
                             "now raise and before warn";
    auto explain = im->cli("explain");
    EXPECT_NE(explain.find(said), std::string::npos) << explain;
    EXPECT_EQ(explain.find("no earlier entry of f (/Users/necula/Source/jax/tests/api_test.py:4662)"), std::string::npos)
        << explain;
    const auto html = im->dir.file("r.html");
    ASSERT_EQ(cs::test::process::runCli({"report", im->trace, "-o", html}).status, 0);
    EXPECT_NE(cs::test::readFile(html).find("JAX says: different input types: x now f32[8] and before f32[4]"), std::string::npos);
}
