// Helpers of the Julia tests: import fixture files into a trace, load its trees, compare goldens.
#pragma once

#include "cli_runner.h"
#include "test_util.h"

#include "core/engine/julia/invalidation_load.h"
#include "core/engine/julia/invalidation_printed.h"
#include "core/trace/reader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace cs::test {

inline std::string juliaFixture(const std::string& name) { return sourceDir() + "/tests/data/julia/" + name; }

inline std::int64_t scalar(const trace::TraceReader& r, const std::string& sql) {
    std::int64_t v = -1;
    r.query(sql, [&](const cs::trace::Row& st) { v = st.integer(0); });
    return v;
}

// Imports `files` (paths) into dir/t.cstrace through the CLI; fails the test on a non-zero status.
inline std::string importInto(const TempDir& dir, const std::vector<std::string>& files) {
    auto out = dir.file("t.cstrace");
    std::vector<std::string> args{"import"};
    args.insert(args.end(), files.begin(), files.end());
    args.insert(args.end(), {"-o", out});
    auto res = runCli(args);
    EXPECT_EQ(res.status, 0) << res.err;
    return out;
}

inline std::shared_ptr<const engine::InvalidationForest> treesOf(const std::string& tracePath) {
    auto reader = trace::TraceReader::open(tracePath);
    return engine::loadInvalidationTrees(*reader);
}

inline std::string printed(const engine::InvalidationForest& f, bool nodes = false) {
    std::ostringstream out;
    engine::printTrees(out, f, {.vectorHeader = true, .costs = true, .nodes = nodes});
    return out.str();
}

// Golden comparison: on mismatch writes NAME.actual beside the expected file and prints a diff.
inline void expectGolden(const std::string& actual, const std::string& expectedName) {
    auto expectedPath = juliaFixture(expectedName);
    auto expected = readFile(expectedPath);
    if (actual == expected) return;
    auto actualPath = expectedPath + ".actual";
    writeFile(actualPath, actual);
    std::string cmd = "diff -u '" + expectedPath + "' '" + actualPath + "' 1>&2";
    [[maybe_unused]] int rc = std::system(cmd.c_str());
    ADD_FAILURE() << "golden mismatch: " << expectedName << " (actual output written to " << actualPath << ")";
}

}  // namespace cs::test
