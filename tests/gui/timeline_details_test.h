// The fixture of the timeline's details and interaction tests (test_timeline_details.cpp,
// test_timeline_interaction.cpp): a window on one trace, with ways to select a span or a lookup mark
// and wait for its details, and a small NVRTC trace.
#pragma once

#include "timeline_window_test.h"

#include "core/trace/writer.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace cs::test {

class TimelineDetailsTest : public TimelineWindowTest {
protected:
    const cs::engine::TimelineData& data() const { return *plot()->sources()[0].data; }
    int laneFrom(cs::engine::LaneSource source) const {
        for (std::size_t l = 0; l < data().lanes.size(); ++l)
            if (data().lanes[l].source == source) return static_cast<int>(l);
        return -1;
    }
    // Selects span `index` (in row then time order) of lane `lane` and waits for the details read
    // from the trace; its row id in `rowId`.
    QString detailsOfSpan(int lane, std::size_t index, std::int64_t* rowId = nullptr) {
        std::vector<cs::engine::TimelineItem> items;
        data().lanes[static_cast<std::size_t>(lane)].spans.query(data().minNs, data().maxNs + 1, 1, items);
        if (items.size() <= index) return QStringLiteral("(no span %1)").arg(index);
        cs::gui::TimelineSelection s;
        s.source = 0;
        s.lane = lane;
        s.item = items[index];
        if (rowId) *rowId = s.item.rowId;
        plot()->select(s, false);
        if (!cs::test::waitFor([&] { return window->timeline()->detailsComplete(); }, 10000)) return QStringLiteral("(timed out)");
        return window->timeline()->details();
    }
    // An NVRTC program saxpy.cu (250 ms, three options, 4 KiB of output) and an nvJitLink link of its PTX.
    void openNvrtcTrace() {
        using namespace cs::trace;
        const std::string path = dir.file("nvrtc.cstrace");
        {
            TraceWriter w(path);
            auto ses = w.addSession({.pid = 7, .runtime = w.intern("nvrtc"), .clock = w.intern("CLOCK_MONOTONIC"), .startNs = 0});
            auto prog = w.addCudaProgram({.sessionId = ses, .api = CS_CUDA_NVRTC, .startNs = 1000, .durNs = 250'000'000,
                                          .name = w.intern("saxpy.cu"), .sourceDigest = w.intern("d41d8cd9"), .result = 0,
                                          .logBytes = 0, .outputBytes = 4096});
            const char* options[] = {"--gpu-architecture=compute_90", "-default-device", "--std=c++17"};
            for (int i = 0; i < 3; ++i) w.addCudaProgramOption({.programId = prog, .ordinal = i, .option = w.intern(options[i])});
            auto link = w.addCudaProgram({.sessionId = ses, .api = CS_CUDA_NVJITLINK, .startNs = 300'000'000, .durNs = 50'000'000,
                                          .name = w.intern("link")});
            w.addCudaProgramInput({.programId = link, .ordinal = 0, .kind = w.intern("ptx"), .name = w.intern("saxpy.ptx"), .bytes = 2048});
            w.finalize();
        }
        open(path);
    }
    // Selects the single cache-lookup mark at `tsNs` (trace time) and waits for its details.
    QString detailsOfLookupAt(std::int64_t tsNs, cs::gui::TimelineSelection* out = nullptr) {
        for (std::size_t m = 0; m < data().marks.size(); ++m) {
            std::vector<cs::engine::MarkItem> marks;
            data().marks[m].lookups.query(data().minNs, data().maxNs + 1, 1, marks);
            for (const cs::engine::MarkItem& it : marks) {
                if (it.tsNs != tsNs || it.count != 1) continue;
                cs::gui::TimelineSelection s;
                s.source = 0;
                s.marks = static_cast<int>(m);
                s.mark = it;
                if (out) *out = s;
                plot()->select(s, false);
                if (!cs::test::waitFor([&] { return window->timeline()->detailsComplete(); }, 10000)) return QStringLiteral("(timed out)");
                return window->timeline()->details();
            }
        }
        return QStringLiteral("(no lookup at %1)").arg(tsNs);
    }
};

}  // namespace cs::test
