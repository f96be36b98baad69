// Text output never splits a UTF-8 character (issue 14): `modules` shortened a non-hex hash to its
// first 7 bytes, cutting a two-byte character in half.
#include "cli_runner.h"
#include "core/trace/writer.h"
#include "core/util/utf8.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <compilescope/trace_constants.h>

#include <filesystem>
#include <string>
#include <vector>

using cs::test::runCli;

namespace {
// Offset of the first byte that is not part of valid UTF-8, or npos.
size_t firstInvalid(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        size_t n = cs::util::utf8SequenceLength(s, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string::npos;
}
}  // namespace

TEST(Utf8Prefix, EndsOnACharacterBoundary) {
    using cs::util::utf8Prefix;
    EXPECT_EQ(utf8Prefix("abcdefgh", 7), "abcdefg");
    EXPECT_EQ(utf8Prefix("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 7), "\xC3\xA9\xC3\xA9\xC3\xA9");  // 3 x e-acute, not 3.5
    EXPECT_EQ(utf8Prefix("a\xF0\x9F\x98\x80z", 3), "a");
    EXPECT_EQ(utf8Prefix("short", 60), "short");
    EXPECT_EQ(utf8Prefix("\xFF\xFE", 1), "\xFF");  // invalid bytes count as one each
}

TEST(Utf8Output, ModulesNeverCutsAHashInsideACharacter) {
    cs::test::TempDir dir;
    std::string path = dir.file("m.cstrace");
    {
        cs::trace::TraceWriter w(path);
        auto s = w.addSession({.runtime = w.intern("warp"), .startNs = 0});
        for (const char* hash : {"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", "\xCE\xB1\xCE\xB2\xCE\xB3\xCE\xB4\xCE\xB5"}) {
            w.addModuleLoad({.sessionId = s, .startNs = 0, .durNs = 10, .name = w.intern("kernels"),
                             .hash = w.intern(hash), .result = CS_MODULE_COMPILED});
        }
        w.finalize();
    }
    for (std::vector<std::string> args : {std::vector<std::string>{"modules", path}, {"findings", path}, {"info", path}}) {
        auto r = runCli(args);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(firstInvalid(r.out), std::string::npos) << args[0] << ":\n" << r.out;
    }
    EXPECT_NE(runCli({"modules", path}).out.find("\xC3\xA9\xC3\xA9\xC3\xA9"), std::string::npos);
}

// Issue 40: a runtime name that is not UTF-8 (anyone who can reach the recorder's socket names a
// session; 1,000 random connections left "f\xC6zz") was printed by `info` as it was.
TEST(Utf8Output, NamesThatAreNotUtf8ArePrintedAsValidText) {
    cs::test::TempDir dir;
    std::string path = dir.file("n.cstrace");
    {
        cs::trace::TraceWriter w(path);
        w.addSession({.runtime = w.intern("f\xC6zz"), .startNs = 0});
        w.addSession({.runtime = w.intern("caf\xC3\xA9\xFF\xFE"), .startNs = 0});
        w.finalize();
    }
    auto r = runCli({"info", path});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(firstInvalid(r.out), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("f?zz"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("caf\xC3\xA9??"), std::string::npos) << r.out;  // valid UTF-8 kept
}

// Issue 40: a file name with a newline (or an escape sequence) was printed raw, so one error became
// two lines and a name could drive the terminal. Messages show it escaped; UTF-8 is kept.
TEST(PrintablePath, EscapesControlCharactersOnly) {
    using cs::util::printablePath;
    EXPECT_EQ(printablePath("/tmp/a\nb.cstrace"), "/tmp/a\\nb.cstrace");
    EXPECT_EQ(printablePath("x\ty\rz\x1b[2J\x7f"), "x\\ty\\rz\\x1b[2J\\x7f");
    EXPECT_EQ(printablePath("caf\xC3\xA9/tr\\ace"), "caf\xC3\xA9/tr\\\\ace");
}

TEST(PrintablePath, ErrorsNamingAFileStayOnOneLine) {
    cs::test::TempDir dir;
    const std::string name = dir.file("a\nb.cstrace");
    cs::test::writeFile(name, "");
    for (std::vector<std::string> args : {std::vector<std::string>{"info", name}, {"import", name, "-o", dir.file("o.cstrace")},
                                          {"info", dir.file("missing\n.cstrace")}}) {
        auto r = runCli(args);
        EXPECT_EQ(r.status, 2) << args[0];
        const bool missing = args[1].find("missing") != std::string::npos;
        EXPECT_NE(r.err.find(missing ? "missing\\n.cstrace" : "a\\nb.cstrace"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << args[0] << ": " << r.err;
    }
}

// Issue 40, the rest: not only errors; what a verb prints about a file named with a newline (the
// trace it read, the file it wrote, the label of a verdict) is escaped too, each on its own line.
TEST(PrintablePath, OutputNamingAFileKeepsItsLines) {
    cs::test::TempDir dir;
    const std::string trace = dir.file("a\nb.cstrace");
    std::filesystem::copy_file(cs::test::sourceDir() + "/resources/demo/demo.cstrace", trace);
    const std::string log = dir.file("x\ny.ninja_log"), out = dir.file("o\nut.cstrace");
    cs::test::writeFile(log, "# ninja log v5\n0\t300\t0\tobj/a.o\th1\n");
    struct Want {
        std::vector<std::string> args;
        std::string line;  // a line of the output, whole
    };
    for (const Want& w : std::vector<Want>{{{"info", trace}, "trace:   " + cs::util::printablePath(trace)},
                                           {{"import", log, "-o", out}, "wrote " + cs::util::printablePath(out)},
                                           {{"findings", trace}, "findings a\\nb.cstrace: "},
                                           {{"check", trace}, "check a\\nb.cstrace: FAIL"},
                                           {{"report", trace, "-o", dir.file("r\n.html")}, "wrote " + cs::util::printablePath(dir.file("r\n.html"))}}) {
        auto r = runCli(w.args);
        EXPECT_NE(r.out.find(w.line), std::string::npos) << w.args[0] << ":\n" << r.out;
        EXPECT_EQ(r.out.find("a\nb"), std::string::npos) << w.args[0] << ":\n" << r.out;
        EXPECT_EQ(r.out.find("o\nut"), std::string::npos) << w.args[0] << ":\n" << r.out;
    }
}
