// Text output never splits a UTF-8 character (issue 14): `modules` shortened a non-hex hash to its
// first 7 bytes, cutting a two-byte character in half.
#include "cli_runner.h"
#include "core/trace/writer.h"
#include "core/util/utf8.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <compilescope/trace_constants.h>

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
