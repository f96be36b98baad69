// Trace Event Format import speed, beside a plain read of the same file (the limit no importer can
// beat), the JSON parse alone and plain SQLite inserts of as many rows as the import writes (to see
// where the time goes). Target: import >= 100 MB/s (scripts/bench_ratios.py).
//
// The file (~64 MB) is shaped like the compile traces users import: mostly clang / nvcc style X
// events with an args.detail string on a few threads, some B/E pairs, instants, counters, flows, and
// the M metadata events at the end, as nvcc writes them.
#include "core/formats/tef_event.h"
#include "core/ingest/tef/tef_importer.h"
#include "core/trace/writer.h"
#include "core/util/json_reader.h"
#include "raw_sqlite_spans.h"
#include "same_rows_floor.h"

#include <benchmark/benchmark.h>
#if COMPILESCOPE_HAVE_SIMDJSON
#include <simdjson.h>
#endif

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {
std::string tmpPath(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

void removeTrace(const std::string& p) {
    for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(p + s);
}

// Writes the sample trace once per process and returns its path and size.
const std::string& sampleFile() {
    static const std::string path = [] {
        std::string p = tmpPath("bench-tef-input.json");
        std::ofstream out(p, std::ios::binary);
        static const char* kNames[] = {"Source", "InstantiateFunction", "ParseClass", "OptFunction", "CodeGen Function",
                                       "RunPass", "Scanning Function Body", "Processing Header File"};
        out << "{\"traceEvents\":[{}";
        std::int64_t ts = 0;
        std::string line;
        std::int64_t written = 0;
        for (std::int64_t i = 0; written < (64 << 20); ++i) {
            int tid = static_cast<int>(i % 8);
            ts += 3;
            line.clear();
            if (i % 50 == 7) {
                line += ",{\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"ph\":\"B\",\"ts\":" + std::to_string(ts) +
                        ",\"name\":\"PerformPendingInstantiations\",\"cat\":\"compile\"}";
                line += ",{\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"ph\":\"E\",\"ts\":" + std::to_string(ts + 2) + "}";
            } else if (i % 200 == 11) {
                line += ",{\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"ph\":\"i\",\"s\":\"t\",\"ts\":" +
                        std::to_string(ts) + ",\"name\":\"mark\"}";
            } else if (i % 500 == 13) {
                line += ",{\"pid\":1,\"ph\":\"C\",\"ts\":" + std::to_string(ts) +
                        ",\"name\":\"memory\",\"args\":{\"rss\":" + std::to_string(1000000 + i) + "}}";
            } else {
                line += ",{\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"ph\":\"X\",\"ts\":" + std::to_string(ts) +
                        ".5,\"dur\":" + std::to_string(1 + i % 97) + ",\"name\":\"" + kNames[i % 8] +
                        "\",\"args\":{\"detail\":\"std::vector<int>::_M_realloc_insert<" + std::to_string(i % 4096) +
                        ">\"}}";
            }
            out << line << "\n";
            written += static_cast<std::int64_t>(line.size()) + 1;
        }
        for (int tid = 0; tid < 8; ++tid)
            out << ",{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" << tid
                << ",\"args\":{\"name\":\"worker " << tid << "\"}}\n";
        out << "],\"beginningOfTime\":1700000000000000}\n";
        return p;
    }();
    return path;
}

std::int64_t fileBytes() { return static_cast<std::int64_t>(std::filesystem::file_size(sampleFile())); }

void setRate(benchmark::State& state) {
    auto bytes = fileBytes() * static_cast<std::int64_t>(state.iterations());
    state.SetBytesProcessed(bytes);
    state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(bytes) / 1e6, benchmark::Counter::kIsRate);
}

// The limit: reading the same bytes from the same stream type, doing nothing with them.
void BM_TefPlainRead(benchmark::State& state) {
    sampleFile();  // written before the clock starts
    std::vector<char> buf(1 << 16);
    for (auto _ : state) {
        std::ifstream in(sampleFile(), std::ios::binary);
        std::int64_t total = 0;
        while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) total += in.gcount();
        benchmark::DoNotOptimize(total);
    }
    setRate(state);
}
BENCHMARK(BM_TefPlainRead)->Unit(benchmark::kMillisecond)->UseRealTime();

// JSON pull parsing and event decoding only, no trace written.
void BM_TefParseOnly(benchmark::State& state) {
    sampleFile();
    for (auto _ : state) {
        std::ifstream in(sampleFile(), std::ios::binary);
        cs::util::JsonPullReader r(in);
        cs::ingest::TefEvent ev;
        std::int64_t events = 0;
        for (auto t = r.next(); t != cs::util::JsonPullReader::Token::End && t != cs::util::JsonPullReader::Token::Error;
             t = r.next()) {
            if (t == cs::util::JsonPullReader::Token::BeginObject && r.depth() == 2) {
                cs::ingest::readTefEvent(r, ev);
                ++events;
            }
        }
        benchmark::DoNotOptimize(events);
    }
    setRate(state);
}
BENCHMARK(BM_TefParseOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

#if COMPILESCOPE_HAVE_SIMDJSON
// simdjson's On-Demand API over the same file, read into the same TefEvent as readTefEvent fills
// (every member of every event, the strings copied, args as int, real or text): the parse the issue
// asks to measure against the pull parser. On-Demand needs the document whole in a padded buffer.
// Returns the events read.
std::int64_t simdjsonEvents(simdjson::ondemand::parser& parser, const simdjson::padded_string& json, cs::ingest::TefEvent& ev) {
    auto text = [](simdjson::ondemand::value v, std::string& out) {
        std::string_view sv;
        if (v.get_string().get(sv) == simdjson::SUCCESS) out.assign(sv);
    };
    auto id = [](simdjson::ondemand::value v, cs::ingest::TefId& out) {
        out.present = true;
        std::int64_t n = 0;
        std::string_view sv;
        if (v.get_int64().get(n) == simdjson::SUCCESS) out.num = n, out.numeric = true;
        else if (v.get_string().get(sv) == simdjson::SUCCESS) out.text.assign(sv), out.numeric = false;
    };
    simdjson::ondemand::document doc = parser.iterate(json);
    std::int64_t events = 0;
    for (simdjson::ondemand::value event : doc["traceEvents"].get_array()) {
        ev.clear();
        for (simdjson::ondemand::field f : event.get_object()) {
            const std::string_view key = f.unescaped_key();
            simdjson::ondemand::value v = f.value();
            ++ev.keys;
            if (key == "ph") text(v, ev.ph);
            else if (key == "name") text(v, ev.name), ev.hasName = true;
            else if (key == "cat") text(v, ev.cat);
            else if (key == "s") text(v, ev.scope);
            else if (key == "ts") ev.ts = double(v), ev.hasTs = true;
            else if (key == "dur") ev.dur = double(v), ev.hasDur = true;
            else if (key == "pid") id(v, ev.pid);
            else if (key == "tid") id(v, ev.tid);
            else if (key == "args") {
                for (simdjson::ondemand::field a : v.get_object()) {
                    cs::ingest::TefArg& arg = ev.addArg();
                    arg.key.assign(std::string_view(a.unescaped_key()));
                    simdjson::ondemand::value av = a.value();
                    std::string_view sv;
                    if (av.get_int64().get(arg.i) == simdjson::SUCCESS) arg.kind = cs::ingest::TefArg::Kind::Int;
                    else if (av.get_double().get(arg.d) == simdjson::SUCCESS) arg.kind = cs::ingest::TefArg::Kind::Real;
                    else if (av.get_string().get(sv) == simdjson::SUCCESS) arg.s.assign(sv), arg.kind = cs::ingest::TefArg::Kind::Text;
                }
            }
        }
        ++events;
    }
    return events;
}

double residentBytes() {
    std::ifstream in("/proc/self/statm");
    double size = 0, resident = 0;
    in >> size >> resident;
    return resident * 4096;
}

// As an import runs it: the file loaded and the parser's buffers allocated for this file, then the
// parse. Counter rss_growth_bytes: what the process grew by, against the file's size (the pull parser
// reads through a 64 KiB stream buffer).
void BM_TefParseSimdjson(benchmark::State& state) {
    sampleFile();
    const double rss0 = residentBytes();
    double grown = 0;
    std::int64_t events = 0;
    cs::ingest::TefEvent ev;
    for (auto _ : state) {
        simdjson::padded_string json = simdjson::padded_string::load(sampleFile());
        simdjson::ondemand::parser parser;
        events = simdjsonEvents(parser, json, ev);
        grown = std::max(grown, residentBytes() - rss0);
    }
    setRate(state);
    state.counters["events"] = static_cast<double>(events);
    state.counters["rss_growth_bytes"] = grown;
}
BENCHMARK(BM_TefParseSimdjson)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same parse over buffers already allocated and touched (the file loaded once, the parser
// reused): the kernel's own speed, which a reader that feeds On-Demand the file in chunks through
// reused buffers could approach. On this VM a first touch of fresh memory costs more than the parse.
void BM_TefParseSimdjsonWarm(benchmark::State& state) {
    const simdjson::padded_string json = simdjson::padded_string::load(sampleFile());
    simdjson::ondemand::parser parser;
    cs::ingest::TefEvent ev;
    std::int64_t events = simdjsonEvents(parser, json, ev);  // touches the buffers
    for (auto _ : state) events = simdjsonEvents(parser, json, ev);
    setRate(state);
    state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_TefParseSimdjsonWarm)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

// The trace the import writes for the sample file, once: its row count and its rows.
const std::string& importedTrace() {
    static const std::string out = [] {
        auto p = tmpPath("bench-tef-rows.cstrace");
        cs::bench::removeDbFiles(p);
        cs::trace::TraceWriter w(p, {.bulkImport = true});
        auto session = w.addSession({.startNs = 0});
        std::ifstream in(sampleFile(), std::ios::binary);
        cs::ingest::ImportContext ctx{w, session, "bench.json"};
        cs::ingest::TefImporter().run(in, ctx);
        w.finalize();
        return p;
    }();
    return out;
}

const cs::bench::TraceRows& importedRows() {
    static const cs::bench::TraceRows rows = cs::bench::loadTraceRows(importedTrace());
    return rows;
}

// Shown beside the limit below: as many plain six-integer rows as the import writes, in one table
// without an index. Cheaper than the import's real rows (same_rows_floor.h says why it is not the limit).
void BM_TefRawSqliteFloor(benchmark::State& state) {
    const std::int64_t rows = importedRows().rows;
    auto out = tmpPath("bench-tef-raw.db");
    for (auto _ : state) {
        cs::bench::settleWrites(state);
        cs::bench::insertRawSpans(out, rows);
    }
    setRate(state);
    state.counters["rows"] = static_cast<double>(rows);
    cs::bench::removeDbFiles(out);
}
BENCHMARK(BM_TefRawSqliteFloor)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// The storage limit the import is judged against: the import's own rows, every table, inserted
// again by plain prepared statements into the same schema (same_rows_floor.h), one row per statement
// (/1) or 64 (/64, the limit). MB/s of the TEF file.
void BM_TefSameRowsFloor(benchmark::State& state) {
    const auto& rows = importedRows();
    auto out = tmpPath("bench-tef-same-rows.db");
    for (auto _ : state) {
        cs::bench::settleWrites(state);
        cs::bench::insertTraceRows(rows, out, static_cast<int>(state.range(0)));
    }
    setRate(state);
    state.counters["rows"] = static_cast<double>(rows.rows);
    cs::bench::removeDbFiles(out);
}
BENCHMARK(BM_TefSameRowsFloor)->Arg(1)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// The whole import: parse, build spans / args / counters / tracks, write and finalize the trace.
void BM_TefImport(benchmark::State& state) {
    auto out = tmpPath("bench-tef.cstrace");
    cs::ingest::TefImporter importer;
    std::int64_t records = 0;
    sampleFile();
    for (auto _ : state) {
        cs::bench::settleWrites(state);
        removeTrace(out);
        cs::trace::TraceWriter w(out, {.bulkImport = true});
        auto session = w.addSession({.startNs = 0});
        std::ifstream in(sampleFile(), std::ios::binary);
        cs::ingest::ImportContext ctx{w, session, "bench.json"};
        records = importer.run(in, ctx).records;
        w.finalize();
    }
    setRate(state);
    state.counters["records"] = static_cast<double>(records);
    removeTrace(out);
}
BENCHMARK(BM_TefImport)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
