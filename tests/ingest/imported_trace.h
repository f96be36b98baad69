// One file imported through `compilescope import` into a fresh trace, for tests that query the rows
// an importer wrote and run the CLI's views on them. The CLI runs as a process (cli_process.h), so
// these tests link the ingest layer, not the CLI.
#pragma once

#include "cli_process.h"
#include "core/trace/reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace cs::test {

struct ImportedTrace {
    TempDir dir;
    std::string trace;
    std::unique_ptr<trace::TraceReader> reader;
    process::CliResult result;
    std::int64_t count(const std::string& sql) const { return scalar(*reader, sql); }
    std::string text(const std::string& sql) const { return textOf(*reader, sql); }
    std::string cli(const std::string& command) const { return process::runCli({command, trace}).out; }
};

// Imports `path`; expects success and, when `importer` is set, that importer to be the one chosen.
inline std::unique_ptr<ImportedTrace> importPath(const std::string& path, const std::string& importer = {}) {
    auto im = std::make_unique<ImportedTrace>();
    im->trace = im->dir.file("t.cstrace");
    im->result = process::runCli({"import", path, "-o", im->trace});
    EXPECT_EQ(im->result.status, 0) << im->result.err;
    if (!importer.empty()) {
        EXPECT_NE(im->result.out.find(importer), std::string::npos) << im->result.out;
    }
    im->reader = trace::TraceReader::open(im->trace);
    return im;
}

// `content` written to a file named `name` first.
inline std::unique_ptr<ImportedTrace> importContent(const std::string& name, const std::string& content,
                                                    const std::string& importer = {}) {
    TempDir keep;
    auto path = keep.file(name);
    writeFile(path, content);
    return importPath(path, importer);
}

// SQL text literal body: ' doubled.
inline std::string sqlQuoted(const std::string& s) {
    std::string out;
    for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out;
}

}  // namespace cs::test
