#include "core/engine/timeline/timeline_data.h"

#include "core/engine/accounting/session_labels.h"
#include "core/engine/common/session_time.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/table_readers.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace cs::engine {

std::size_t TimelineData::allocatedBytes() const {
    std::size_t bytes = strings.allocatedBytes() + lanes.capacity() * sizeof(TimelineLane) +
                        detailSpans.capacity() * sizeof(std::int64_t) + detailStrings.capacity() * sizeof(std::uint32_t) +
                        untimedSpans.capacity() * sizeof(std::int64_t) +
                        marks.capacity() * sizeof(SessionMarks);
    for (const TimelineLane& l : lanes) bytes += l.spans.allocatedBytes() + l.process.capacity() + l.name.capacity();
    for (const SessionMarks& m : marks) bytes += m.lookups.allocatedBytes() + m.steps.allocatedBytes();
    return bytes;
}

std::uint32_t TimelineData::detailOf(std::int64_t spanId) const {
    auto it = std::lower_bound(detailSpans.begin(), detailSpans.end(), spanId);
    if (it == detailSpans.end() || *it != spanId) return 0;
    return detailStrings[static_cast<std::size_t>(it - detailSpans.begin())];
}

bool TimelineData::untimed(std::int64_t spanId) const { return std::binary_search(untimedSpans.begin(), untimedSpans.end(), spanId); }

std::string sessionLabel(const trace::TraceReader& reader, std::int64_t sessionId) {
    auto labels = sessionLabels(reader);
    auto it = labels.find(sessionId);
    return it == labels.end() ? "session " + std::to_string(sessionId) : it->second;
}

namespace {

std::string trackName(int kind, const trace::Row& st, const std::string& name) {
    if (!name.empty()) return name;
    std::string id = st.isNull(2) ? std::string("?") : std::to_string(trace::colInt(st, 2));
    switch (kind) {
    case CS_TRACK_DEVICE: return "device " + id;
    case CS_TRACK_STREAM: return "stream " + id;
    case CS_TRACK_PROCESS: return "process";
    case CS_TRACK_RUNTIME: return "runtime";
    default: return "thread " + id;
    }
}

// Builds the lanes while rows stream in; knows sessions and tracks, creates runtime lanes lazily.
class Builder {
public:
    Builder(const trace::TraceReader& reader, const LoadControl& control, TimelineData& out)
        : m_reader(reader), m_control(control), m_out(out) {}

    void run(SpanTracks* keep) {
        m_control.report(0, "strings");
        // Only a trace that mixes clocks is shifted; any other keeps its timestamps as recorded.
        if (SessionClocks c = sessionClocks(m_reader); c.mixed()) m_out.clocks = std::move(c);
        loadStrings();
        loadSessions();
        loadTracks();
        loadDetails();
        m_control.report(5, "spans");
        // Each lane is only touched by the scan thread that reads its track.
        std::vector<std::int64_t> trackIds;
        std::vector<std::int64_t> endOfSession;  // per track: when its session ended, for never-ended spans
        std::vector<std::int64_t> offsetOf;      // per track: its session's display offset
        for (const TimelineLane& l : m_out.lanes) {
            trackIds.push_back(l.trackId);
            endOfSession.push_back(m_sessionEnd[l.sessionId]);
            offsetOf.push_back(m_out.clocks.offsetOf(l.sessionId));
        }
        LoadControl scanControl{.progress = [&](int p, std::string_view stage) { m_control.report(5 + p * 80 / 100, stage); },
                                .cancel = m_control.cancel};
        std::vector<std::vector<std::int64_t>> neverEnded(trackIds.size());  // per track: its own scan thread's
        scanSpansByTrack(m_reader, trackIds, scanControl, [&](std::size_t t, const TrackSpans& spans) {
            const std::int64_t sessionEnd = endOfSession[t], off = offsetOf[t];
            m_out.lanes[t].spans.buildSorted([&](const auto& f) {
                spans.forEach([&](const ScannedSpan& sp) {
                    std::int64_t end = sp.ended ? util::satAdd(sp.startNs, sp.durNs) : std::max(sp.startNs, sessionEnd);
                    f(util::satAdd(sp.startNs, off), util::satAdd(end, off), sp.name,
                      static_cast<std::uint8_t>(std::clamp<std::int16_t>(sp.category, 0, 255)), sp.id);
                });
            });
            spans.forEach([&](const ScannedSpan& sp) {
                if (!sp.ended) neverEnded[t].push_back(sp.id);
            });
        }, keep);
        loadUntimed(neverEnded);
        m_control.report(85, "module loads");
        // A module load reads "warp.sim aaaaaaa (cached)": its identity is in the label (so a pasted
        // hash finds it), and compiled and cached loads take the compile and cache-load colours.
        each("SELECT id, session_id, start_ns, dur_ns, name_sid, hash_sid, result FROM module_loads WHERE start_ns IS NOT NULL",
             [&](const trace::Row& st) {
                 const int result = static_cast<int>(trace::colInt(st, 6));
                 const int category = result == CS_MODULE_COMPILED ? CS_CAT_COMPILE : result == CS_MODULE_CACHED ? CS_CAT_CACHE_LOAD
                                                                                                                  : CS_CAT_MODULE_LOAD;
                 addSpan(runtimeLane(trace::colInt(st, 1), LaneSource::ModuleLoads), trace::colInt(st, 2),
                         util::satAdd(trace::colInt(st, 2), trace::colInt(st, 3)),
                         moduleLabel(trace::colInt(st, 4), trace::colInt(st, 5), result), category, trace::colInt(st, 0));
             });
        each("SELECT id, session_id, start_ns, dur_ns, name_sid, api FROM cuda_programs", [&](const trace::Row& st) {
            int cat = trace::colInt(st, 5) == CS_CUDA_NVJITLINK ? CS_CAT_LINK : CS_CAT_COMPILE;
            addSpan(runtimeLane(trace::colInt(st, 1), LaneSource::CudaPrograms), trace::colInt(st, 2),
                    util::satAdd(trace::colInt(st, 2), trace::colInt(st, 3)), trace::colInt(st, 4), cat, trace::colInt(st, 0));
        });
        each("SELECT id, session_id, start_ns, dur_ns, operation FROM cuda_jit WHERE start_ns IS NOT NULL",
             [&](const trace::Row& st) {
                 int cat = trace::colInt(st, 4) == CS_JIT_OP_COMPILE ? CS_CAT_COMPILE : CS_CAT_CACHE_LOAD;
                 addSpan(runtimeLane(trace::colInt(st, 1), LaneSource::CudaJit), trace::colInt(st, 2),
                         util::satAdd(trace::colInt(st, 2), trace::colInt(st, 3)), 0, cat, trace::colInt(st, 0));
             });
        m_control.report(88, "kernel launches");
        each("SELECT id, session_id, start_ns, dur_ns, name_sid FROM kernel_launches", [&](const trace::Row& st) {
            addSpan(runtimeLane(trace::colInt(st, 1), LaneSource::KernelLaunches), trace::colInt(st, 2),
                    util::satAdd(trace::colInt(st, 2), trace::colInt(st, 3)), trace::colInt(st, 4), CS_CAT_LAUNCH, trace::colInt(st, 0));
        });
        each("SELECT id, session_id, start_ns, dur_ns, phase_sid FROM phase_timings WHERE start_ns IS NOT NULL",
             [&](const trace::Row& st) {
                 addSpan(runtimeLane(trace::colInt(st, 1), LaneSource::PhaseTimings), trace::colInt(st, 2),
                         util::satAdd(trace::colInt(st, 2), trace::colInt(st, 3)), trace::colInt(st, 4), CS_CAT_PHASE, trace::colInt(st, 0));
             });
        m_control.report(91, "cache lookups");
        each("SELECT id, session_id, ts_ns, program_sid, verdict FROM cache_lookups", [&](const trace::Row& st) {
            marks(trace::colInt(st, 1)).lookups.add(util::satAdd(trace::colInt(st, 2), m_out.clocks.offsetOf(trace::colInt(st, 1))), static_cast<std::uint32_t>(trace::colInt(st, 3)),
                                          trace::colInt(st, 4) == CS_VERDICT_MISS, trace::colInt(st, 0));
        });
        loadLookupCompiles();
        each("SELECT id, session_id, ts_ns, step FROM steps", [&](const trace::Row& st) {
            marks(trace::colInt(st, 1)).steps.add(util::satAdd(trace::colInt(st, 2), m_out.clocks.offsetOf(trace::colInt(st, 1))),
                                        static_cast<std::uint32_t>(std::max<std::int64_t>(0, trace::colInt(st, 3))), false,
                                        trace::colInt(st, 0));
        });
        m_control.report(95, "indexing");
        finish();
        m_control.report(100, "done");
    }

    static std::string lookupCompilesWhere() {
        return " WHERE l.compile_ns > 0 AND NOT EXISTS (SELECT 1 FROM tracks t JOIN spans p ON p.track_id = t.id WHERE t.session_id = "
               "l.session_id AND p.category = " + std::to_string(CS_CAT_COMPILE) +
               " AND p.start_ns >= l.ts_ns - l.compile_ns AND p.start_ns < l.ts_ns + l.compile_ns)";
    }
    // A lookup's compile time with no compile span of its session near it (a Nitro-style trace that
    // records compile_ns on the lookup only) becomes a compile span from the lookup on, so the cost is
    // drawn, not only a tick. A span starting within one compile time either side covers it.
    void loadLookupCompiles() {
        each("SELECT l.id, l.session_id, l.ts_ns, l.compile_ns, l.program_sid FROM cache_lookups l" + lookupCompilesWhere(),
             [&](const trace::Row& st) {
                 addSpan(runtimeLane(trace::colInt(st, 1), LaneSource::LookupCompiles), trace::colInt(st, 2),
                         util::satAdd(trace::colInt(st, 2), trace::colInt(st, 3)), trace::colInt(st, 4), CS_CAT_COMPILE, trace::colInt(st, 0));
             });
    }

    // loadTimelineOutline (timeline_data.h): lanes and counts from indexes and b-tree pages, no event read.
    void runOutline() {
        m_out.outline = true;
        if (SessionClocks c = sessionClocks(m_reader); c.mixed()) m_out.clocks = std::move(c);
        loadSessions();
        loadTracks();
        m_control.report(20, "outline");
        std::vector<TimelineLane> kept;
        std::set<std::int64_t> spanSessions;
        for (TimelineLane& l : m_out.lanes) {
            const std::string track = std::to_string(l.trackId);
            bool any = false;
            std::int64_t first = 0, last = 0;
            each("SELECT start_ns FROM spans WHERE track_id = " + track + " ORDER BY start_ns LIMIT 1", [&](const trace::Row& st) {
                first = trace::colInt(st, 0);
                any = true;
            });
            if (!any) continue;  // a thread with no spans: no lane, as in the full load
            each("SELECT start_ns, coalesce(dur_ns, 0) FROM spans WHERE track_id = " + track + " ORDER BY start_ns DESC LIMIT 1",
                 [&](const trace::Row& st) { last = util::satAdd(trace::colInt(st, 0), std::max<std::int64_t>(0, trace::colInt(st, 1))); });
            const std::int64_t off = m_out.clocks.offsetOf(l.sessionId);
            extend(util::satAdd(first, off), util::satAdd(std::max(first, last), off));
            spanSessions.insert(l.sessionId);
            kept.push_back(std::move(l));
        }
        m_out.lanes = std::move(kept);
        auto count = [](const trace::Row& st) { return static_cast<std::size_t>(std::max<std::int64_t>(0, trace::colInt(st, 0))); };
        if (spanSessions.size() == 1) {
            // The highest span id, one b-tree descent: the writer numbers rows from 1 without gaps, so
            // in a trace it wrote this is the count (count(*) steps through every index entry: 10 ms
            // a rank, the whole of an outline); in a file with gaps, an upper bound.
            each("SELECT coalesce(max(id), 0) FROM spans", [&](const trace::Row& st) { m_out.outlineEvents[*spanSessions.begin()] += count(st); });
        } else {
            for (const TimelineLane& l : m_out.lanes)
                each("SELECT count(*) FROM spans WHERE track_id = " + std::to_string(l.trackId),
                     [&](const trace::Row& st) { m_out.outlineEvents[l.sessionId] += count(st); });
        }
        m_control.report(60, "outline");
        // The rows run() draws from each runtime table (`where`), counted per session.
        struct Runtime {
            LaneSource source;
            const char* where;
        };
        const char* timed = " WHERE start_ns IS NOT NULL";
        for (const Runtime r : {Runtime{LaneSource::ModuleLoads, timed}, Runtime{LaneSource::CudaPrograms, ""}, Runtime{LaneSource::CudaJit, timed},
                                Runtime{LaneSource::KernelLaunches, ""}, Runtime{LaneSource::PhaseTimings, timed}}) {
            const std::string table = laneSourceTable(r.source);
            each("SELECT session_id, count(*), coalesce(min(start_ns), 0), coalesce(max(start_ns + coalesce(dur_ns, 0)), 0) FROM " +
                     table + r.where + " GROUP BY session_id",
                 [&](const trace::Row& st) {
                     const std::int64_t session = trace::colInt(st, 0), off = m_out.clocks.offsetOf(session);
                     runtimeLane(session, r.source);
                     m_out.outlineEvents[session] += static_cast<std::size_t>(std::max<std::int64_t>(0, trace::colInt(st, 1)));
                     extend(util::satAdd(trace::colInt(st, 2), off), util::satAdd(std::max(trace::colInt(st, 2), trace::colInt(st, 3)), off));
                 });
        }
        each("SELECT l.session_id, count(*), min(l.ts_ns), max(l.ts_ns + l.compile_ns) FROM cache_lookups l" + lookupCompilesWhere() +
                 " GROUP BY l.session_id",
             [&](const trace::Row& st) {
                 const std::int64_t session = trace::colInt(st, 0), off = m_out.clocks.offsetOf(session);
                 runtimeLane(session, LaneSource::LookupCompiles);
                 m_out.outlineEvents[session] += static_cast<std::size_t>(std::max<std::int64_t>(0, trace::colInt(st, 1)));
                 extend(util::satAdd(trace::colInt(st, 2), off), util::satAdd(trace::colInt(st, 3), off));
             });
        each("SELECT session_id, count(*), min(ts_ns), max(ts_ns) FROM cache_lookups GROUP BY session_id", [&](const trace::Row& st) {
            const std::int64_t session = trace::colInt(st, 0), off = m_out.clocks.offsetOf(session);
            const auto n = static_cast<std::size_t>(std::max<std::int64_t>(0, trace::colInt(st, 1)));
            marks(session).outlineLookups = n;
            m_out.outlineEvents[session] += n;
            extend(util::satAdd(trace::colInt(st, 2), off), util::satAdd(trace::colInt(st, 3), off));
        });
        std::stable_sort(m_out.lanes.begin(), m_out.lanes.end(),
                         [](const TimelineLane& a, const TimelineLane& b) { return a.sessionId < b.sessionId; });
        for (const auto& [session, n] : m_out.outlineEvents) m_out.events += n;
        m_control.report(100, "done");
    }

private:
    std::unordered_map<std::string, std::int64_t> m_labels;  // synthetic labels (module loads)
    void each(const std::string& sql, const std::function<void(const trace::Row&)>& fn) {
        m_reader.query(sql, [&](const trace::Row& st) {
            fn(st);
            if ((++m_done & 0xFFFF) == 0) m_control.check();
        });
        m_control.check();
    }

    // The id of "NAME HASH (outcome)", added after the trace's own strings, each text once.
    std::int64_t moduleLabel(std::int64_t name, std::int64_t hash, int result) {
        std::string label(m_out.strings.get(name));
        if (const std::string_view h = m_out.strings.get(hash); !h.empty()) label += " " + std::string(h);
        label += result == CS_MODULE_COMPILED ? " (compiled)" : result == CS_MODULE_CACHED ? " (cached)" : result == CS_MODULE_ERROR ? " (error)" : "";
        auto [it, added] = m_labels.try_emplace(label, static_cast<std::int64_t>(m_out.strings.size()) + 1);
        if (added) m_out.strings.setNext(it->second, label);
        return it->second;
    }

    // The spans without a time (TimelineData::untimedSpans): those that never ended, and those whose
    // importer marked the tool's line as printed without one (span arg "untimed").
    void loadUntimed(const std::vector<std::vector<std::int64_t>>& neverEnded) {
        std::vector<std::int64_t>& out = m_out.untimedSpans;
        for (const auto& ids : neverEnded) out.insert(out.end(), ids.begin(), ids.end());
        each("SELECT a.span_id FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE k.str = 'untimed'",
             [&](const auto& st) { out.push_back(trace::colInt(st, 0)); });
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }

    void loadDetails() {
        // Only time-trace imports carry details: their tracks first, then their spans through the
        // (track_id, start_ns) index. A trace without such a session costs one small query, not a
        // scan of every span (10M spans: about 2 s).
        std::vector<std::int64_t> tracks;
        each("SELECT t.id FROM tracks t JOIN sessions se ON se.id = t.session_id JOIN strings r ON r.id = se.runtime_sid "
             "WHERE r.str = 'import:tef'",
             [&](const trace::Row& st) { tracks.push_back(trace::colInt(st, 0)); });
        for (std::int64_t track : tracks)
            each("SELECT s.id, s.detail_sid FROM spans s WHERE s.track_id = " + std::to_string(track) + " AND s.detail_sid IS NOT NULL",
                 [&](const trace::Row& st) {
                     const std::int64_t sid = trace::colInt(st, 1);
                     if (sid <= 0 || static_cast<std::uint64_t>(sid) > m_out.strings.size()) return;  // no such string
                     m_out.detailSpans.push_back(trace::colInt(st, 0));
                     m_out.detailStrings.push_back(static_cast<std::uint32_t>(sid));
                 });
        std::vector<std::size_t> order(m_out.detailSpans.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return m_out.detailSpans[a] < m_out.detailSpans[b]; });
        std::vector<std::int64_t> spans(order.size());
        std::vector<std::uint32_t> strings(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            spans[i] = m_out.detailSpans[order[i]];
            strings[i] = m_out.detailStrings[order[i]];
        }
        m_out.detailSpans = std::move(spans);
        m_out.detailStrings = std::move(strings);
    }

    void loadStrings() {
        each("SELECT id, str FROM strings ORDER BY id", [&](const trace::Row& st) {
            m_out.strings.setNext(trace::colInt(st, 0), st.textView(1));
        });
        m_out.strings.shrink();
    }
    void loadSessions() {
        std::vector<std::int64_t> ids;
        for (const trace::StoredSession& s : trace::readSessions(m_reader)) {
            ids.push_back(s.id);
            m_sessionEnd[s.id] = s.endNs.value_or(0);
            const TimeBase base = classifyTimeBase(s.clock, s.runtime);
            if (isClocked(base)) m_clocked.insert(s.id);
            else if (base == TimeBase::Sequence) m_sequence.insert(s.id);
        }
        const auto labels = sessionLabels(m_reader);
        for (std::int64_t id : ids) {
            m_sessionLabel[id] = labels.at(id);
            // Its lanes say that their spans are durations laid end to end, not times on a clock.
            if (m_sequence.count(id)) m_sessionLabel[id] += " (durations only, laid end to end)";
        }
    }
    void loadTracks() {
        m_reader.query("SELECT id, session_id, tid, kind, name_sid FROM tracks ORDER BY session_id, id",
                       [&](const trace::Row& st) {
                           TimelineLane lane;
                           lane.sessionId = trace::colInt(st, 1);
                           lane.trackId = trace::colInt(st, 0);
                           lane.trackKind = static_cast<int>(trace::colInt(st, 3));
                           lane.process = m_sessionLabel[lane.sessionId];
                           lane.name = trackName(lane.trackKind, st, m_reader.str(trace::colInt(st, 4)));
                           m_out.lanes.push_back(std::move(lane));
                       });
    }
    // The lane of `source` in the session, named from the one list (lanes.h).
    std::size_t runtimeLane(std::int64_t sessionId, LaneSource source) {
        auto key = std::make_pair(sessionId, static_cast<int>(source));
        auto it = m_runtimeLane.find(key);
        if (it != m_runtimeLane.end()) return it->second;
        TimelineLane lane;
        lane.sessionId = sessionId;
        lane.trackKind = CS_TRACK_RUNTIME;
        lane.source = source;
        lane.process = m_sessionLabel.count(sessionId) ? m_sessionLabel[sessionId] : "session " + std::to_string(sessionId);
        lane.name = laneName(source);
        m_out.lanes.push_back(std::move(lane));
        return m_runtimeLane[key] = m_out.lanes.size() - 1;
    }
    SessionMarks& marks(std::int64_t sessionId) {
        auto it = m_marks.find(sessionId);
        if (it != m_marks.end()) return m_out.marks[it->second];
        SessionMarks m;
        m.sessionId = sessionId;
        m.process = m_sessionLabel.count(sessionId) ? m_sessionLabel[sessionId] : "session " + std::to_string(sessionId);
        m_out.marks.push_back(std::move(m));
        m_marks[sessionId] = m_out.marks.size() - 1;
        return m_out.marks.back();
    }
    void addSpan(std::size_t lane, std::int64_t start, std::int64_t end, std::int64_t name, std::int64_t category,
                 std::int64_t rowId) {
        if (end < start) end = start;
        const std::int64_t off = m_out.clocks.offsetOf(m_out.lanes[lane].sessionId);
        start += off;
        end += off;
        m_out.lanes[lane].spans.add(start, end, static_cast<std::uint32_t>(name),
                                    static_cast<std::uint8_t>(std::clamp<std::int64_t>(category, 0, 255)), rowId);
    }
    void extend(std::int64_t a, std::int64_t b) {
        if (!m_any) {
            m_out.minNs = a;
            m_out.maxNs = b;
            m_any = true;
        }
        m_out.minNs = std::min(m_out.minNs, a);
        m_out.maxNs = std::max(m_out.maxNs, b);
    }
    void finish() {
        // Lanes that stayed empty (a thread with no spans) would only take space on screen.
        std::vector<TimelineLane> kept;
        for (TimelineLane& l : m_out.lanes) {
            l.spans.finish();
            if (l.spans.spanCount() == 0) continue;
            m_out.events += l.spans.spanCount();
            m_out.clipped += l.spans.clipped();
            kept.push_back(std::move(l));
        }
        // The extent (fit all) covers the clocked work when there is some: work laid end to end
        // (a Warp log's durations) is never stretched beside a machine clock (docs/accounting.md).
        bool clockedWork = false;
        for (const TimelineLane& l : kept) clockedWork = clockedWork || m_clocked.count(l.sessionId);
        for (const SessionMarks& m : m_out.marks) clockedWork = clockedWork || m_clocked.count(m.sessionId);
        auto counts = [&](std::int64_t session) { return !clockedWork || m_clocked.count(session) > 0; };
        for (const TimelineLane& l : kept)
            if (counts(l.sessionId)) extend(l.spans.minNs(), l.spans.maxNs());
        // Group lanes by process, keeping each session's track order.
        std::stable_sort(kept.begin(), kept.end(),
                         [](const TimelineLane& a, const TimelineLane& b) { return a.sessionId < b.sessionId; });
        m_out.lanes = std::move(kept);
        for (SessionMarks& m : m_out.marks) {
            m.lookups.finish();
            m.steps.finish();
            if (m.lookups.size() > 0 && counts(m.sessionId)) extend(m.lookups.minNs(), m.lookups.maxNs());
            if (m.steps.size() > 0 && counts(m.sessionId)) extend(m.steps.minNs(), m.steps.maxNs());
            m_out.events += m.lookups.size() + m.steps.size();
        }
        if (clockedWork) placeSequenceAfterClocked();
    }
    // Work laid end to end counts from zero like the clocked work, so drawn as it is it would sit
    // under the clocked lanes as if it ran at the same time. It is moved past the clocked extent,
    // after a gap, and the display offsets move with it (displayNs() stays right for findings).
    void placeSequenceAfterClocked() {
        std::int64_t seqMin = 0;
        bool any = false;
        for (const TimelineLane& l : m_out.lanes)
            if (m_sequence.count(l.sessionId) && l.spans.spanCount() > 0) {
                seqMin = any ? std::min(seqMin, l.spans.minNs()) : l.spans.minNs();
                any = true;
            }
        if (!any) return;
        const std::int64_t gap = std::max<std::int64_t>(1, util::satSub(m_out.maxNs, m_out.minNs) / 20);
        const std::int64_t from = util::satAdd(m_out.maxNs, gap);
        const std::int64_t delta = util::satSub(from, seqMin);
        for (TimelineLane& l : m_out.lanes)
            if (m_sequence.count(l.sessionId)) {
                l.spans.shift(delta);
                if (l.spans.spanCount() > 0) extend(l.spans.minNs(), l.spans.maxNs());
            }
        for (SessionMarks& m : m_out.marks)
            if (m_sequence.count(m.sessionId)) {
                m.lookups.shift(delta);
                m.steps.shift(delta);
            }
        for (std::int64_t session : m_sequence)
            m_out.clocks.offsets[session] = util::satAdd(m_out.clocks.offsetOf(session), delta);
        m_out.sequenceFromNs = from;
    }

    const trace::TraceReader& m_reader;
    const LoadControl& m_control;
    TimelineData& m_out;
    std::int64_t m_done = 0;
    bool m_any = false;
    std::map<std::pair<std::int64_t, int>, std::size_t> m_runtimeLane;
    std::unordered_map<std::int64_t, std::size_t> m_marks;
    std::unordered_map<std::int64_t, std::int64_t> m_sessionEnd;
    std::unordered_map<std::int64_t, std::string> m_sessionLabel;
    std::unordered_set<std::int64_t> m_clocked;   // sessions with a wall clock (session_time.h)
    std::unordered_set<std::int64_t> m_sequence;  // sessions of durations laid end to end
};

}  // namespace

TimelineData loadTimeline(const trace::TraceReader& reader, const LoadControl& control, SpanTracks* keep) {
    TimelineData data;
    Builder(reader, control, data).run(keep);
    return data;
}

TimelineData loadTimelineOutline(const trace::TraceReader& reader, const LoadControl& control) {
    TimelineData data;
    Builder(reader, control, data).runOutline();
    return data;
}

}  // namespace cs::engine
