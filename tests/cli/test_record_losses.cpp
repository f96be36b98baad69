// `record`'s closing loss line says the engine's figure (issue 38): the same number `info`'s banner
// and the report show, including counters record once left out (discarded_bytes) and the counts of a
// write failure kept beside the trace (<trace>.note, core/trace/write_note.h).
#include "app/cli/record_losses.h"
#include "cli_runner.h"
#include "core/engine/accounting/trace_facts.h"
#include "core/engine/accounting/trace_losses.h"
#include "core/trace/reader.h"
#include "core/trace/write_note.h"
#include "core/trace/writer.h"
#include "core/util/units.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <sstream>

namespace {

cs::trace::SessionRecord process(std::int64_t pid) {
    cs::trace::SessionRecord s;
    s.pid = pid;
    return s;
}

std::string writeLossyTrace(const cs::test::TempDir& dir) {
    const std::string path = dir.file("lossy.cstrace");
    cs::trace::TraceWriter w(path);
    const std::int64_t a = w.addSession(process(11));
    const std::int64_t b = w.addSession(process(12));
    w.addStat(a, "dropped_buffer_full", "collector", 1200);
    w.addStat(b, "dropped_buffer_full", "collector", 34);
    w.addStat(a, "discarded_bytes", "recorder", 500, "bytes after a bad header");
    w.addStat(std::nullopt, "malformed_line", "import:x", 7);  // unread input, not a dropped event
    w.finalize();
    return path;
}

std::string lossLine(const std::string& path) {
    std::ostringstream err;
    cs::cli::reportRecordingLosses(path, err);
    return err.str();
}

std::int64_t engineFigure(const std::string& path) {
    return cs::engine::lossesOf(cs::engine::readTraceFacts(*cs::trace::TraceReader::open(path))).droppedEvents;
}

TEST(RecordLosses, PrintsTheEnginesFigureWithDiscardedBytes) {
    cs::test::TempDir dir;
    const std::string path = writeLossyTrace(dir);
    const std::int64_t figure = engineFigure(path);
    ASSERT_EQ(figure, 1200 + 34 + 500);
    const std::string line = lossLine(path);
    EXPECT_NE(line.find("compilescope: " + cs::util::formatCount(figure) + " events dropped ("), std::string::npos) << line;
    EXPECT_NE(line.find("buffer full: 1,234 in 2 processes"), std::string::npos) << line;
    EXPECT_NE(line.find("bytes the recorder could not use: 500 in 1 process"), std::string::npos) << line;
    // `info` says the same number.
    const auto info = cs::test::runCli({"info", path});
    EXPECT_NE(info.out.find(cs::util::formatCount(figure) + " recorded events never reached the trace"), std::string::npos)
        << info.out;
}

TEST(RecordLosses, CountsWhatAWriteFailureNoteAdds) {
    cs::test::TempDir dir;
    const std::string path = writeLossyTrace(dir);
    cs::trace::WriteNote note{"disk full", {{"spans", 4000}}, 0, 0};
    ASSERT_TRUE(cs::trace::saveWriteNote(path, note));
    const std::int64_t figure = engineFigure(path);
    ASSERT_EQ(figure, 1200 + 34 + 500 + 4000);
    const std::string line = lossLine(path);
    EXPECT_NE(line.find("compilescope: " + cs::util::formatCount(figure) + " events dropped ("), std::string::npos) << line;
}

TEST(RecordLosses, AnIntactTraceGetsNoLine) {
    cs::test::TempDir dir;
    const std::string path = dir.file("clean.cstrace");
    {
        cs::trace::TraceWriter w(path);
        w.addSession(process(1));
        w.addStat(std::nullopt, "malformed_line", "import:x", 3);
        w.finalize();
    }
    EXPECT_EQ(lossLine(path), "");
}

}  // namespace
