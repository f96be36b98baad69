// One writer per trace file (issue 40): a second writer of the same output, even with overwrite, is
// refused while the first writes, and the first recording survives whole. Through the CLI, a second
// `record -o` of a file being recorded names the first recorder's pid.
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/writer.h"
#include "core/util/subprocess.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

using namespace cs::trace;

TEST(OutputLock, SecondWriterOfALiveTraceIsRefusedAndTheFirstSurvives) {
    cs::test::TempDir dir;
    const auto path = dir.file("t.cstrace");
    TraceWriter first(path);
    auto sess = first.addSession({.startNs = 0});
    first.addStep({.sessionId = sess, .tsNs = 1, .step = 1, .label = first.intern("kept")});
    first.commit();
    try {
        TraceWriter second(path, WriterOptions{.overwrite = true});
        FAIL() << "a second writer replaced a trace being written";
    } catch (const TraceError& e) {
        EXPECT_EQ(e.kind(), TraceErrorKind::Write);
        EXPECT_NE(std::string(e.what()).find("is being written by another recorder or import"), std::string::npos)
            << e.what();
    }
    first.finalize();
    auto r = TraceReader::open(path);
    EXPECT_EQ(cs::test::scalar(*r, "SELECT count(*) FROM steps"), 1);
    // Once the first is done, the file is an ordinary output again.
    r.reset();
    TraceWriter third(path, WriterOptions{.overwrite = true});
    third.finalize();
}

TEST(OutputLock, SecondRecordOfTheSameOutputNamesTheFirstRecorder) {
    cs::test::TempDir dir;
    const auto path = dir.file("rec.cstrace");
    const std::string cli = COMPILESCOPE_CLI;
    // The first recording runs a job that lasts until the second has tried.
    const std::string flag = dir.file("second-done");
    std::thread first([&] {
        const std::string cmd = cli + " record -o " + path + " -- sh -c 'while [ ! -e " + flag +
                                " ]; do sleep 0.05; done' > " + dir.file("first.log") + " 2>&1";
        EXPECT_EQ(std::system(cmd.c_str()), 0);
    });
    for (int i = 0; i < 200 && !std::filesystem::exists(path); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto log = dir.file("second.log");
    auto second = cs::util::runProcess({cli, "record", "-o", path, "--", "true"}, {}, log, std::chrono::seconds(60));
    cs::test::writeFile(flag, "");
    first.join();
    EXPECT_EQ(second.exitCode, 0);  // the job ran, unrecorded
    const auto err = cs::test::readFile(log);
    EXPECT_NE(err.find("is being written by another recorder or import (recorder pid "), std::string::npos) << err;
    EXPECT_NE(err.find("running the command without recording"), std::string::npos) << err;
    auto r = TraceReader::open(path);  // the first recording, sealed and whole
    EXPECT_EQ(cs::test::scalar(*r, "SELECT count(*) FROM sessions"), 0);
    EXPECT_EQ(r->meta("creator"), "compilescope-recorder");
}
