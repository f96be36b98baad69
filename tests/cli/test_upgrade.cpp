// `compilescope upgrade` (issue 41): a v1 trace gets its span pyramid once, through the real binary,
// and reads as v2 afterwards; a current trace and a file that is not a trace are told apart.
#include "cli_runner.h"
#include "core/trace/pyramid.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"
#include "test_util.h"

#include <gtest/gtest.h>

using cs::test::runCli;

TEST(Upgrade, AnOlderTraceGetsItsPyramidOnce) {
    cs::test::TempDir dir;
    const std::string path = dir.file("old.cstrace");
    std::int64_t track = 0;
    {
        cs::trace::WriterOptions v1;
        v1.spanPyramid = false;
        cs::trace::TraceWriter w(path, v1);
        cs::trace::SessionRecord s;
        s.pid = 1;
        cs::trace::TrackRecord t;
        t.sessionId = w.addSession(s);
        track = w.addTrack(t);
        for (int i = 0; i < 5000; ++i) {
            cs::trace::SpanRecord r;
            r.trackId = track;
            r.startNs = i * 100000;
            r.durNs = 50000;
            w.addSpan(r);
        }
        w.finalize();
    }
    EXPECT_EQ(cs::trace::TraceReader::open(path)->formatVersion(), 1);
    auto r = runCli({"upgrade", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("upgraded"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("100 % of the spans summed"), std::string::npos) << r.err;
    auto reader = cs::trace::TraceReader::open(path);
    EXPECT_EQ(reader->formatVersion(), 2);
    ASSERT_TRUE(cs::trace::hasPyramid(*reader));
    const auto level0 = cs::trace::readPyramidBuckets(*reader, track, 0, 0, INT64_MAX);
    std::int64_t spans = 0;
    for (const auto& b : level0) spans += b.count;
    EXPECT_EQ(spans, 5000);
    reader.reset();

    r = runCli({"upgrade", path});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("already current"), std::string::npos) << r.out;
    EXPECT_EQ(runCli({"info", path}).status, 0);

    const std::string notATrace = dir.file("notes.txt");
    cs::test::writeFile(notATrace, "hello");
    r = runCli({"upgrade", notATrace});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("not a CompileScope trace"), std::string::npos) << r.err;
}
