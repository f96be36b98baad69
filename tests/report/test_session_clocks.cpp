// Clock domains on one display axis: recorded sessions (CLOCK_MONOTONIC) keep their distances,
// imported ones (each from its own zero) start at zero, and the report's timeline and time span
// cover the work, not the machine's uptime.
#include "test_util.h"

#include "core/engine/timeline/timeline_digest.h"
#include "core/engine/accounting/session_clocks.h"
#include "core/report/report.h"
#include "core/report/sections.h"
#include "core/trace/reader.h"
#include "core/trace/writer.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace cs;

namespace {
constexpr std::int64_t kUptime = 12'900'000'000'000;  // 3.6 hours of CLOCK_MONOTONIC

// Two recorded sessions 5 s apart on CLOCK_MONOTONIC, and two imports counting from zero.
std::string writeMixedClocks(const test::TempDir& dir) {
    auto path = dir.file("mixed.cstrace");
    trace::TraceWriter w(path);
    auto mono = w.intern("CLOCK_MONOTONIC"), rel = w.intern("relative");
    auto addSession = [&](trace::StringId clock, std::int64_t start, std::int64_t firstSpan, std::int64_t dur) {
        auto s = w.addSession({.clock = clock, .startNs = start, .endNs = firstSpan + dur});
        auto t = w.addTrack({.sessionId = s, .kind = CS_TRACK_THREAD, .tid = 1});
        w.addSpan({.trackId = t, .startNs = firstSpan, .durNs = dur, .category = CS_CAT_COMPILE});
        return s;
    };
    auto first = addSession(mono, kUptime, kUptime + 1'000'000, 2'000'000'000);
    w.addModuleLoad({.sessionId = first, .startNs = kUptime + 2'000'000, .durNs = 1'000'000, .name = w.intern("m"),
                     .result = CS_MODULE_COMPILED});
    addSession(mono, kUptime + 5'000'000'000, kUptime + 5'000'000'000, 1'000'000'000);
    addSession(rel, 0, 0, 3'000'000'000);
    addSession(0, 0, 7'000'000, 500'000'000);  // no clock named: its own zero too
    w.finalize();
    return path;
}
}  // namespace

TEST(SessionClocks, EachDomainStartsAtZeroAndSharedClocksKeepTheirDistances) {
    test::TempDir dir;
    auto reader = trace::TraceReader::open(writeMixedClocks(dir));
    auto clocks = engine::sessionClocks(*reader);
    EXPECT_EQ(clocks.domains, 3);
    EXPECT_EQ(clocks.sharedDomains, 1);
    EXPECT_TRUE(clocks.mixed());
    EXPECT_EQ(clocks.offsetOf(1), -kUptime);
    EXPECT_EQ(clocks.offsetOf(2), -kUptime);  // same clock: 5 s after session 1, still
    EXPECT_EQ(clocks.offsetOf(3), 0);
    EXPECT_EQ(clocks.offsetOf(4), 0);  // no clock named: counted from its own zero
    EXPECT_EQ(clocks.offsetOf(99), 0);          // unknown sessions are left alone
}

TEST(SessionClocks, ReportTimelineAndTimeSpanCoverTheWorkNotTheUptime) {
    test::TempDir dir;
    auto reader = trace::TraceReader::open(writeMixedClocks(dir));
    report::TraceReport r;
    r.timeline = engine::digestTimeline(*reader, engine::summarizeCompileTime(*reader), 100);  // as the analysis does
    EXPECT_EQ(r.timeline.startNs, 0);
    EXPECT_EQ(r.timeline.endNs, 6'000'000'000);  // session 2 ends 6 s after session 1 began
    std::int64_t events = 0;
    for (const auto& lane : r.timeline.lanes) events += lane.events;
    EXPECT_EQ(events, 5);
}

TEST(SessionClocks, LongLaneLabelsStayInsideTheSvg) {
    // "module loads: compiled - <session label>" is cut; an HTML <span> in SVG text would end the SVG.
    test::TempDir dir;
    std::ostringstream out;
    report::writeReport({writeMixedClocks(dir)}, {}, out);
    const std::string html = out.str();
    auto svg = html.find("<svg class=\"timeline\"");
    ASSERT_NE(svg, std::string::npos);
    auto end = html.find("</svg>", svg);
    ASSERT_NE(end, std::string::npos);
    const std::string inside = html.substr(svg, end - svg);
    EXPECT_EQ(inside.find("<span"), std::string::npos);
    EXPECT_NE(inside.find("<title>module loads: compiled - "), std::string::npos) << inside;
}
