#include "core/engine/export/tef_export.h"

#include "core/engine/accounting/session_clocks.h"
#include "core/engine/accounting/session_labels.h"
#include "core/engine/timeline/lanes.h"
#include "core/engine/timeline/timeline_data.h"
#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/schema.h"
#include "core/trace/table_readers.h"
#include "core/util/json_writer.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <cinttypes>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cs::engine {

namespace {

// Nanoseconds as microseconds with three decimals: the exact value, which a double would round
// beyond 2^53 ns (104 days of CLOCK_MONOTONIC).
std::string micros(std::int64_t ns) {
    const bool negative = ns < 0;
    const std::uint64_t abs = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%" PRIu64 ".%03u", negative ? "-" : "", abs / 1000,
                  static_cast<unsigned>(abs % 1000));
    return buf;
}

// A stored real as a JSON literal that reads back as a real: 2.0 stays "2.0", not the integer 2.
std::string realLiteral(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".eEni") == std::string::npos) s += ".0";
    return s;
}

// Thread ids of the tracks that have no OS thread id of their own start here.
constexpr std::int64_t kSyntheticTid = 1'000'000'000;

struct FlowEnd {
    std::int64_t flowId;
    std::int64_t nameSid;
    bool from;
};

// The tables the timeline draws as runtime lanes, named from the one list (timeline/lanes.h), one lane
// per session each.
// Columns after the fifth become args under their SQL alias; `enums` names the enum of a column.
struct RuntimeTable {
    const char* table;
    const char* lane;
    std::string sql;  // session_id, start_ns, dur_ns, name, category, then the args
    std::vector<std::pair<std::string, std::string>> enums;  // arg key -> enum type
};

const std::vector<RuntimeTable>& runtimeTables() {
    auto n = [](int code) { return std::to_string(code); };
    static const std::vector<RuntimeTable> tables = {
        {laneSourceTable(LaneSource::ModuleLoads), laneName(LaneSource::ModuleLoads),
         "SELECT m.session_id, m.start_ns, m.dur_ns, n.str, " + n(CS_CAT_MODULE_LOAD) + ", h.str AS hash, d.str AS device, m.block_dim AS block_dim, "
         "m.result AS result, m.compile_ns AS compile_ns, m.source_bytes AS source_bytes, "
         "(SELECT group_concat(k.str || '=' || coalesce(v.str, ''), ' ') FROM module_options o "
         " JOIN strings k ON k.id = o.key_sid LEFT JOIN strings v ON v.id = o.value_sid WHERE o.load_id = m.id) AS options, "
         "m.id AS module_load_id FROM module_loads m LEFT JOIN strings n ON n.id = m.name_sid "
         "LEFT JOIN strings h ON h.id = m.hash_sid LEFT JOIN strings d ON d.id = m.device_sid "
         "WHERE m.start_ns IS NOT NULL ORDER BY m.session_id, m.start_ns, m.id",
         {{"result", "module_result"}}},
        {laneSourceTable(LaneSource::CudaPrograms), laneName(LaneSource::CudaPrograms),
         "SELECT c.session_id, c.start_ns, c.dur_ns, n.str, CASE WHEN c.api = " + n(CS_CUDA_NVJITLINK) + " THEN " +
             n(CS_CAT_LINK) + " ELSE " + n(CS_CAT_COMPILE) + " END, c.api AS api, "
         "c.result AS result, sd.str AS source_digest, c.log_bytes AS log_bytes, c.output_bytes AS output_bytes, "
         "(SELECT group_concat(o.str, ' ') FROM (SELECT s.str FROM cuda_program_options po JOIN strings s "
         " ON s.id = po.option_sid WHERE po.program_id = c.id ORDER BY po.ordinal) o) AS options, "
         "c.id AS cuda_program_id FROM cuda_programs c LEFT JOIN strings n ON n.id = c.name_sid "
         "LEFT JOIN strings sd ON sd.id = c.source_digest_sid ORDER BY c.session_id, c.start_ns, c.id",
         {{"api", "cuda_api"}}},
        {laneSourceTable(LaneSource::CudaJit), laneName(LaneSource::CudaJit),
         "SELECT j.session_id, j.start_ns, j.dur_ns, NULL, CASE WHEN j.operation = " + n(CS_JIT_OP_COMPILE) + " THEN " +
             n(CS_CAT_COMPILE) + " ELSE " + n(CS_CAT_CACHE_LOAD) + " END, "
         "j.entry_type AS entry_type, j.operation AS operation, j.device AS device, "
         "j.jit_correlation_id AS jit_correlation_id, p.str AS cache_path, j.cache_bytes AS cache_bytes, "
         "j.id AS cuda_jit_id FROM cuda_jit j LEFT JOIN strings p ON p.id = j.cache_path_sid "
         "WHERE j.start_ns IS NOT NULL ORDER BY j.session_id, j.start_ns, j.id",
         {{"entry_type", "jit_entry"}, {"operation", "jit_operation"}}},
        {laneSourceTable(LaneSource::KernelLaunches), laneName(LaneSource::KernelLaunches),
         "SELECT k.session_id, k.start_ns, k.dur_ns, n.str, " + n(CS_CAT_LAUNCH) + ", k.grid_x AS grid_x, k.grid_y AS grid_y, "
         "k.grid_z AS grid_z, k.block_x AS block_x, k.block_y AS block_y, k.block_z AS block_z, "
         "k.shared_bytes AS shared_bytes, k.stream AS stream, k.id AS kernel_launch_id FROM kernel_launches k "
         "LEFT JOIN strings n ON n.id = k.name_sid ORDER BY k.session_id, k.start_ns, k.id",
         {}},
        {laneSourceTable(LaneSource::PhaseTimings), laneName(LaneSource::PhaseTimings),
         "SELECT t.session_id, t.start_ns, t.dur_ns, n.str, " + n(CS_CAT_PHASE) + ", t.tool AS tool, i.str AS input, a.str AS arch, "
         "t.id AS phase_timing_id FROM phase_timings t LEFT JOIN strings n ON n.id = t.phase_sid "
         "LEFT JOIN strings i ON i.id = t.input_sid LEFT JOIN strings a ON a.id = t.arch_sid "
         "WHERE t.start_ns IS NOT NULL ORDER BY t.session_id, t.start_ns, t.dur_ns DESC, t.id",
         {{"tool", "phase_tool"}}},
    };
    return tables;
}

struct Arg {
    std::string key;
    trace::ColumnType type = trace::ColumnType::Null;
    std::int64_t i = 0;
    double d = 0;
    std::string s;
};

class Exporter {
public:
    Exporter(const trace::TraceReader& reader, std::ostream& out)
        : m_reader(reader), m_json(out), m_clocks(sessionClocks(reader)) {}

    TefExportCounts run() {
        m_json.beginObject().key("displayTimeUnit").value("ns");
        m_json.key("otherData").beginObject().key("generator").value("compilescope export --format tef");
        m_json.key("source").value(m_reader.path()).endObject();
        m_json.key("traceEvents").beginArray();
        sessions();
        tracks();
        loadFlows();
        spans();
        runtimeRows();
        lookups();
        steps();
        m_json.endArray().endObject();
        return m_counts;
    }

private:
    void meta(const char* what, std::int64_t pid, const std::int64_t* tid, std::string_view key,
              const std::string* text, std::int64_t number) {
        m_json.beginObject().key("ph").value("M").key("name").value(what).key("pid").value(pid);
        if (tid) m_json.key("tid").value(*tid);
        m_json.key("args").beginObject().key(key);
        if (text) m_json.value(*text);
        else m_json.value(number);
        m_json.endObject().endObject();
    }

    void sessions() {
        std::vector<std::int64_t> ids;
        for (const trace::StoredSession& s : trace::readSessions(m_reader)) ids.push_back(s.id);
        const auto labels = sessionLabels(m_reader);
        for (std::int64_t id : ids) {
            const std::string& label = labels.at(id);
            meta("process_name", id, nullptr, "name", &label, 0);
            meta("process_sort_index", id, nullptr, "sort_index", nullptr, id);
        }
        m_counts.sessions = static_cast<std::int64_t>(ids.size());
    }

    // A thread keeps its OS thread id as its tid when that id is unique among its session's threads,
    // so Perfetto shows the real id; every other track (devices, streams, runtime lanes, repeated
    // ids) gets an id above any OS thread id (Linux's pid_max is at most 2^22).
    void tracks() {
        struct Track {
            std::int64_t id, session;
            int kind;
            std::optional<std::int64_t> tid;
            std::string name;
        };
        std::vector<Track> all;
        std::map<std::pair<std::int64_t, std::int64_t>, int> threadsWithTid;
        m_reader.query("SELECT id, session_id, kind, tid, name_sid FROM tracks ORDER BY id", [&](const trace::Row& st) {
            Track t{trace::colInt(st, 0), trace::colInt(st, 1), static_cast<int>(trace::colInt(st, 2)), trace::colOpt(st, 3),
                    m_reader.str(trace::colInt(st, 4))};
            if (t.kind == CS_TRACK_THREAD && t.tid) ++threadsWithTid[{t.session, *t.tid}];
            all.push_back(std::move(t));
        });
        for (const Track& t : all) {
            m_trackSession[t.id] = t.session;
            const bool own = t.kind == CS_TRACK_THREAD && t.tid && *t.tid > 0 && *t.tid < kSyntheticTid &&
                             threadsWithTid[{t.session, *t.tid}] == 1;
            const std::int64_t tid = own ? *t.tid : kSyntheticTid + t.id;
            m_trackTid[t.id] = tid;
            std::string name = t.name;
            if (name.empty()) {
                const std::string_view kind = trace::enumName("track_kind", t.kind);
                name = std::string(kind.empty() ? "track" : kind) + " " + std::to_string(t.tid.value_or(t.id));
            }
            meta("thread_name", t.session, &tid, "name", &name, 0);
            meta("thread_sort_index", t.session, &tid, "sort_index", nullptr, t.id);
            ++m_counts.tracks;
        }
    }

    void loadFlows() {
        m_reader.query("SELECT id, from_span_id, to_span_id, coalesce(name_sid, 0) FROM flows ORDER BY id",
                       [&](const trace::Row& st) {
                           const std::int64_t id = trace::colInt(st, 0), name = trace::colInt(st, 3);
                           m_flowEnds[trace::colInt(st, 1)].push_back({id, name, true});
                           m_flowEnds[trace::colInt(st, 2)].push_back({id, name, false});
                       });
    }

    // The timestamp a session's row is drawn at, as the timeline draws it.
    std::int64_t display(std::int64_t session, std::int64_t ns) const {
        return util::satAdd(ns, m_clocks.offsetOf(session));
    }
    std::int64_t sessionOf(std::int64_t track) const {
        auto it = m_trackSession.find(track);
        return it == m_trackSession.end() ? 0 : it->second;
    }
    std::int64_t tidOf(std::int64_t track) const {
        auto it = m_trackTid.find(track);
        return it == m_trackTid.end() ? kSyntheticTid + track : it->second;
    }

    void argValue(const Arg& a) {
        switch (a.type) {
        case trace::ColumnType::Integer: m_json.value(a.i); break;
        case trace::ColumnType::Real: m_json.number(realLiteral(a.d)); break;
        case trace::ColumnType::Null: m_json.null(); break;
        default: m_json.value(a.s); break;
        }
    }

    struct Span {
        std::int64_t id = 0, track = 0, start = 0;
        std::optional<std::int64_t> dur;
        int category = 0;
        std::int64_t nameSid = 0, detailSid = 0;
        std::vector<Arg> args;
    };

    void writeSpan(const Span& s) {
        const std::int64_t pid = sessionOf(s.track);
        const std::int64_t ts = display(pid, s.start);
        std::string cat;
        for (const Arg& a : s.args)
            if (a.key == "cat" && a.type == trace::ColumnType::Text) cat = a.s;
        if (cat.empty()) cat = std::string(trace::enumName("category", s.category));
        m_json.beginObject().key("ph").value(s.dur ? "X" : "B").key("name").value(m_reader.str(s.nameSid));
        m_json.key("cat").value(cat).key("pid").value(pid).key("tid").value(tidOf(s.track)).key("ts").number(micros(ts));
        if (s.dur) m_json.key("dur").number(micros(*s.dur));
        m_json.key("args").beginObject();
        if (s.detailSid) m_json.key("detail").value(m_reader.str(s.detailSid));
        for (const Arg& a : s.args) {
            if (a.key == "cat" && a.type == trace::ColumnType::Text) continue;
            m_json.key(a.key);
            argValue(a);
        }
        m_json.endObject().endObject();
        ++m_counts.spans;
        if (!s.dur) ++m_counts.unfinished;
        auto flows = m_flowEnds.find(s.id);
        if (flows == m_flowEnds.end()) return;
        for (const FlowEnd& f : flows->second) {
            m_json.beginObject().key("ph").value(f.from ? "s" : "f").key("id").value(f.flowId);
            m_json.key("name").value(f.nameSid ? m_reader.str(f.nameSid) : std::string("flow")).key("cat").value("flow");
            m_json.key("pid").value(pid).key("tid").value(tidOf(s.track)).key("ts").number(micros(ts));
            if (!f.from) m_json.key("bp").value("e");
            m_json.endObject();
            if (f.from) ++m_counts.flows;
        }
    }

    void spans() {
        // One pass over spans joined with their args: rows of one span are adjacent.
        Span cur;
        bool have = false;
        m_reader.query(
            "SELECT s.id, s.track_id, s.start_ns, s.dur_ns, s.category, coalesce(s.name_sid, 0), "
            "coalesce(s.detail_sid, 0), k.str, a.value FROM spans s "
            "LEFT JOIN span_args a ON a.span_id = s.id LEFT JOIN strings k ON k.id = a.key_sid "
            "ORDER BY s.track_id, s.start_ns, s.dur_ns IS NULL DESC, s.dur_ns DESC, s.id, a.rowid",
            [&](const trace::Row& st) {
                const std::int64_t id = trace::colInt(st, 0);
                if (!have || id != cur.id) {
                    if (have) writeSpan(cur);
                    have = true;
                    cur.id = id;
                    cur.track = trace::colInt(st, 1);
                    cur.start = trace::colInt(st, 2);
                    cur.dur = trace::colDuration(st, 3);
                    cur.category = static_cast<int>(trace::colInt(st, 4));
                    cur.nameSid = trace::colInt(st, 5);
                    cur.detailSid = trace::colInt(st, 6);
                    cur.args.clear();
                }
                if (st.isNull(7)) return;  // no args
                Arg a;
                a.key = trace::colText(st, 7);
                a.type = st.type(8);
                if (a.type == trace::ColumnType::Integer) a.i = trace::colInt(st, 8);
                else if (a.type == trace::ColumnType::Real) a.d = st.real(8);
                else if (a.type != trace::ColumnType::Null) a.s = trace::colText(st, 8);
                cur.args.push_back(std::move(a));
            });
        if (have) writeSpan(cur);
    }

    // Lanes without a track of their own ("marks", "module loads", ...) get one thread per session,
    // numbered after every real track so the tids never collide.
    std::int64_t laneTid(std::int64_t session, const std::string& name) {
        auto it = m_laneTid.find({session, name});
        if (it != m_laneTid.end()) return it->second;
        const std::int64_t tid = m_nextLaneTid++;
        meta("thread_name", session, &tid, "name", &name, 0);
        return m_laneTid.emplace(std::make_pair(session, name), tid).first->second;
    }
    std::int64_t marksTid(std::int64_t session) { return laneTid(session, "marks"); }

    // Module loads, NVRTC programs, driver JIT, launches and compiler phases: complete events on their
    // session's runtime lane, every column an arg, "table" and the row id saying where they come from.
    void runtimeRows() {
        for (const RuntimeTable& t : runtimeTables()) {
            m_reader.query(t.sql, [&](const trace::Row& st) {
                const std::int64_t session = trace::colInt(st, 0);
                const std::int64_t tid = laneTid(session, t.lane);
                const auto dur = trace::colDuration(st, 2);
                std::string name = trace::colText(st, 3);
                const int category = static_cast<int>(trace::colInt(st, 4));
                if (name.empty()) name = t.lane;
                m_json.beginObject().key("ph").value(dur ? "X" : "B").key("name").value(name);
                m_json.key("cat").value(trace::enumName("category", category)).key("pid").value(session);
                m_json.key("tid").value(tid).key("ts").number(micros(display(session, trace::colInt(st, 1))));
                if (dur) m_json.key("dur").number(micros(*dur));
                m_json.key("args").beginObject().key("table").value(t.table);
                for (int c = 5; c < st.columnCount(); ++c) {
                    const trace::ColumnType type = st.type(c);
                    if (type == trace::ColumnType::Null) continue;
                    const std::string key(st.columnName(c));
                    m_json.key(key);
                    std::string_view enumType;
                    for (const auto& [k, e] : t.enums)
                        if (k == key) enumType = e;
                    if (!enumType.empty() && type == trace::ColumnType::Integer) {
                        std::string_view n = trace::enumName(enumType, static_cast<int>(trace::colInt(st, c)));
                        if (n.empty()) m_json.value(trace::colInt(st, c));
                        else m_json.value(n);
                    } else if (type == trace::ColumnType::Integer) {
                        m_json.value(trace::colInt(st, c));
                    } else if (type == trace::ColumnType::Real) {
                        m_json.number(realLiteral(st.real(c)));
                    } else {
                        m_json.value(trace::colText(st, c));
                    }
                }
                m_json.endObject().endObject();
                ++m_counts.runtimeRows;
            });
        }
    }

    void instantHead(const std::string& name, const char* cat, std::int64_t session, std::optional<std::int64_t> track,
                     std::int64_t ns) {
        const std::int64_t tid = track && m_trackSession.count(*track) ? tidOf(*track) : marksTid(session);
        m_json.beginObject().key("ph").value("i").key("s").value("t").key("name").value(name).key("cat").value(cat);
        m_json.key("pid").value(session).key("tid").value(tid).key("ts").number(micros(display(session, ns)));
        m_json.key("args").beginObject();
    }

    void lookups() {
        std::unordered_map<std::int64_t, std::vector<std::pair<std::string, std::string>>> keys;
        m_reader.query("SELECT k.lookup_id, n.str, coalesce(v.str, d.str, '') FROM key_components k "
                       "JOIN strings n ON n.id = k.name_sid LEFT JOIN strings v ON v.id = k.value_sid "
                       "LEFT JOIN strings d ON d.id = k.digest_sid ORDER BY k.lookup_id, k.ordinal",
                       [&](const trace::Row& st) {
                           keys[trace::colInt(st, 0)].emplace_back(trace::colText(st, 1), trace::colText(st, 2));
                       });
        m_reader.query(
            "SELECT id, session_id, track_id, ts_ns, coalesce(cache_sid, 0), program_sid, coalesce(handle_sid, 0), "
            "verdict, compile_ns, coalesce(fingerprint_sid, 0), step FROM cache_lookups ORDER BY session_id, ts_ns, id",
            [&](const trace::Row& st) {
                const std::int64_t id = trace::colInt(st, 0), session = trace::colInt(st, 1);
                const std::string verdict(trace::enumName("verdict", static_cast<int>(trace::colInt(st, 7))));
                const std::string& program = m_reader.str(trace::colInt(st, 5));
                instantHead(verdict + " " + program, "cache-lookup", session, trace::colOpt(st, 2), trace::colInt(st, 3));
                m_json.key("verdict").value(verdict).key("program").value(program);
                if (auto c = trace::colInt(st, 4)) m_json.key("cache").value(m_reader.str(c));
                if (auto h = trace::colInt(st, 6)) m_json.key("handle").value(m_reader.str(h));
                if (auto ns = trace::colOpt(st, 8)) m_json.key("compile_ns").value(*ns);
                if (auto f = trace::colInt(st, 9)) m_json.key("fingerprint").value(m_reader.str(f));
                if (auto step = trace::colOpt(st, 10)) m_json.key("step").value(*step);
                m_json.key("lookup_id").value(id);
                auto k = keys.find(id);
                if (k != keys.end())
                    for (const auto& [name, value] : k->second) m_json.key("key." + name).value(value);
                m_json.endObject().endObject();
                ++m_counts.lookups;
            });
    }

    void steps() {
        m_reader.query("SELECT session_id, track_id, ts_ns, step, epoch, coalesce(label_sid, 0) FROM steps "
                       "ORDER BY session_id, ts_ns, id",
                       [&](const trace::Row& st) {
                           const std::int64_t session = trace::colInt(st, 0), step = trace::colInt(st, 3);
                           instantHead("step " + std::to_string(step), "step", session, trace::colOpt(st, 1),
                                       trace::colInt(st, 2));
                           m_json.key("step").value(step);
                           if (auto e = trace::colOpt(st, 4)) m_json.key("epoch").value(*e);
                           if (auto l = trace::colInt(st, 5)) m_json.key("label").value(m_reader.str(l));
                           m_json.endObject().endObject();
                           ++m_counts.steps;
                       });
    }

    const trace::TraceReader& m_reader;
    util::JsonWriter m_json;
    SessionClocks m_clocks;
    TefExportCounts m_counts;
    std::unordered_map<std::int64_t, std::int64_t> m_trackSession, m_trackTid;
    std::unordered_map<std::int64_t, std::vector<FlowEnd>> m_flowEnds;
    std::map<std::pair<std::int64_t, std::string>, std::int64_t> m_laneTid;
    std::int64_t m_nextLaneTid = 0;

public:
    void setFirstLaneTid(std::int64_t tid) { m_nextLaneTid = tid; }
};

}  // namespace

TefExportCounts exportTef(const trace::TraceReader& reader, std::ostream& out) {
    Exporter e(reader, out);
    std::int64_t maxTrack = 0;
    reader.query("SELECT coalesce(max(id), 0) FROM tracks", [&](const trace::Row& st) { maxTrack = trace::colInt(st, 0); });
    e.setFirstLaneTid(kSyntheticTid + maxTrack + 1);
    return e.run();
}

}  // namespace cs::engine
