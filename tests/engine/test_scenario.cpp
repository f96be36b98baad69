// The scenario DSL itself: what it writes, and that a malformed statement is a clear error.
#include "engine/scenario.h"
#include "test_util.h"

#include "core/trace/reader.h"

#include <gtest/gtest.h>


using cs::test::buildScenario;

TEST(Scenario, TokensKeepBracketedNames) {
    auto t = cs::test::scenarioTokens("lookup gradient miss  shape[arg 2]=128x64\tdevice[lr]=0.1");
    ASSERT_EQ(t.size(), 5u);
    EXPECT_EQ(t[3], "shape[arg 2]=128x64");
}

TEST(Scenario, WritesLookupsComponentsAndClosures) {
    cs::test::TempDir dir;
    auto built = buildScenario("run: explain\nkey g shape[arg 2]=128x64 device[lr]=0.1\nstep 1\n"
                               "lookup g miss compile=2s\nclosure M.f@7 M.g\n",
                               "x.scn", dir.path().string());
    ASSERT_EQ(built.tracePaths.size(), 1u);
    ASSERT_EQ(built.runs.size(), 1u);
    auto r = cs::trace::TraceReader::open(built.tracePaths[0]);
    EXPECT_EQ(r->rowCount("cache_lookups"), 1);
    EXPECT_EQ(r->rowCount("key_components"), 2);
    EXPECT_EQ(r->rowCount("closures"), 2);
    EXPECT_EQ(r->rowCount("steps"), 1);
    std::string names;
    r->query("SELECT s.str, k.role FROM key_components k JOIN strings s ON s.id = k.name_sid ORDER BY ordinal",
             [&](const cs::trace::Row& st) {
                 names += st.text(0);
                 names += "/" + std::to_string(static_cast<int>(st.integer(1))) + ";";
             });
    EXPECT_EQ(names, "shape of arg 2/3;lr/6;");
    std::int64_t compile = 0;
    r->query("SELECT compile_ns FROM cache_lookups", [&](const cs::trace::Row& st) { compile = st.integer(0); });
    EXPECT_EQ(compile, 2000000000);
}

TEST(Scenario, MalformedStatementNamesFileAndLine) {
    cs::test::TempDir dir;
    try {
        buildScenario("step 1\nlookup g maybe\n", "bad.scn", dir.path().string());
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "bad.scn:2: verdict must be hit, miss or unknown, not 'maybe'");
    }
}
