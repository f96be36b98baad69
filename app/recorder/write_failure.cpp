#include "write_failure.h"

#include "core/trace/write_note.h"
#include "core/trace/write_note_stats.h"
#include "core/util/units.h"

#include <compilescope/wire_protocol.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

namespace cs::recorder {

namespace {
// The table that gets one row per event of a type ("" when the event adds no row of its own).
const char* tableOf(int type) {
    switch (type) {
    case CS_WIRE_SPAN_END:
    case CS_WIRE_SPAN_COMPLETE: return "spans";
    case CS_WIRE_SPAN_ARG: return "span_args";
    case CS_WIRE_STEP: return "steps";
    case CS_WIRE_CACHE_LOOKUP: return "cache_lookups";
    case CS_WIRE_CLOSURE: return "closures";
    case CS_WIRE_COUNTER: return "counters";
    case CS_WIRE_METHOD: return "methods";
    case CS_WIRE_INVALIDATION: return "invalidation_items";
    case CS_WIRE_MODULE_LOAD: return "module_loads";
    case CS_WIRE_CUDA_PROGRAM: return "cuda_programs";
    case CS_WIRE_CUDA_JIT: return "cuda_jit";
    case CS_WIRE_CUDA_MODULE: return "cuda_modules";
    case CS_WIRE_KERNEL_LAUNCH: return "kernel_launches";
    case CS_WIRE_PHASE_TIMING: return "phase_timings";
    default: return "";
    }
}

// Events not stored, per table: received minus the rows the trace kept (never negative).
std::map<std::string, std::int64_t> notStored(const std::string& tracePath, const EventCounts& received) {
    std::map<std::string, std::int64_t> expected, lost;
    for (std::size_t i = 0; i < received.size(); ++i)
        if (const char* t = tableOf(static_cast<int>(i) + CS_WIRE_FIRST_EVENT); *t && received[i]) expected[t] += received[i];
    std::vector<std::string> tables;
    for (const auto& e : expected) tables.push_back(e.first);
    for (const auto& [table, kept] : trace::rowsOnDisk(tracePath, tables)) {
        const std::int64_t n = expected[table];
        const std::int64_t missing = kept < 0 ? n : n - kept;
        if (missing > 0) lost[table] = missing;
    }
    return lost;
}
}  // namespace

std::size_t countMessages(const unsigned char* data, std::size_t n, EventCounts& counts) {
    std::size_t p = 0;
    while (n - p >= sizeof(cs_wire_header)) {
        cs_wire_header h;
        std::memcpy(&h, data + p, sizeof h);
        if (h.size < sizeof h || h.size % 8 || h.size > CS_WIRE_MAX_MESSAGE) return n;
        if (n - p < h.size) break;
        if (h.type >= CS_WIRE_FIRST_EVENT && h.type < CS_WIRE_TYPE_END) ++counts[h.type - CS_WIRE_FIRST_EVENT];
        p += h.size;
    }
    return p;
}

std::size_t skipEvents(const unsigned char* data, std::size_t n, std::int64_t events) {
    std::size_t p = 0;
    while (events > 0 && n - p >= sizeof(cs_wire_header)) {
        cs_wire_header h;
        std::memcpy(&h, data + p, sizeof h);
        if (h.size < sizeof h || h.size % 8 || n - p < h.size) break;
        if (h.type >= CS_WIRE_FIRST_EVENT) --events;
        p += h.size;
    }
    return p;
}

std::string reportWriteFailure(const std::string& tracePath, const WriteFailure& f) {
    trace::WriteNote note{f.reason, {}, f.droppedByCollectors, f.withoutArena, false};
    std::string byTable;
    std::int64_t total = 0;
    for (const auto& [table, n] : notStored(tracePath, f.received)) {
        note.notStored.emplace_back(table, n);
        byTable += (byTable.empty() ? "" : ", ") + table + " " + util::formatCount(n);
        total += n;
    }
    // In the trace too, when it still takes a small transaction (write_note_stats.h).
    const std::string notInTrace = trace::storeWriteNoteStats(tracePath, note);
    note.storedInTrace = notInTrace.empty();
    const bool saved = trace::saveWriteNote(tracePath, note);
    std::string line = tracePath + " holds what was committed before the write failed (" + f.reason + "); " +
                       util::formatCount(total) + " events received were not stored" +
                       (byTable.empty() ? "" : " (" + byTable + ")") + " and the job's collectors counted " +
                       util::formatCount(f.droppedByCollectors) + " more as dropped";
    if (f.withoutArena)
        line += " (" + util::formatCount(f.withoutArena) + " process(es) without a shared arena, e.g. under a small "
                "`ulimit -f`, count theirs only in cs_dropped_count())";
    const std::string path = trace::writeNotePath(tracePath);
    const std::string inTrace = notInTrace.empty() ? "the trace's stats" : "";
    if (saved) line += "; this is also in " + path + (inTrace.empty() ? "" : " and " + inTrace);
    else line += "; " + path + " could not be written" + (inTrace.empty() ? "" : ", but this is in " + inTrace);
    if (!notInTrace.empty()) line += "; the trace's stats could not take it (" + notInTrace + ")";
    return line;
}

}  // namespace cs::recorder
