// What the TORCH_TRACE importer makes of each record, once framed and checked (torch_trace_importer.h):
// compiles with their phases, cache lookups with their key components, bypasses.
//
// Why a builder apart from the framing: a compile is opened by one record (dynamo_start or the first
// chromium "B"), grows with others (chromium phase pairs, cache artifacts) and is closed by
// compilation_metrics, which may never come (a log cut mid-compile). The builder keeps that state and
// writes each compile once, at its end or at the end of the file.
//
// Why restarts, reasons and limits here (what real torch 2.15 writes, tests/collector/test_torch_real.py):
// a graph break restarts analysis as attempt "0/0_1", and attempt "0/0" then never gets metrics: it is
// closed as `restarted` when the next attempt begins, not left `incomplete`. A recompile's
// `recompile_reasons` artifact (a JSON list, or one reason as plain text) becomes one "guard failure N"
// arg per reason, as tlparse lists them; a graph break's `dynamo_graph_break_reason` its first
// paragraph. A compile that failed with "Dynamo recompile limit exceeded" carries no co_name: it takes
// its frame's name from that frame's earlier compiles and is tagged jit_event=recompile_limit (limit,
// limit_value, function, last_reason), which the engine turns into the same finding as the
// TORCH_LOGS=recompiles warning. The live collector (collectors/python/compilescope/torch.py) does the
// same, so both traces of one run compare equal.
//
// Why guard lookups too: with backend="eager" no cache artifact is logged, so the reasons are the only
// key a recompile has. Each frame that recompiled gets one "torch dynamo" lookup per compile, handle
// its compile id, with one key component per guard subject, exactly as the TORCH_LOGS=recompiles
// importer writes them (torch_recompiles_importer.h): `explain` names "size of x at index 0: 3 -> 4"
// and the churn findings read them. They are written at the end, once every reason is known.
#pragma once

#include "core/formats/log_prefix.h"
#include "core/formats/torch_cache_artifact.h"
#include "core/ingest/importer.h"
#include "core/util/json_reader.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cs::ingest::torch {

class TraceBuilder {
public:
    explicit TraceBuilder(ImportContext& ctx);

    // `id`: the envelope's compile id ("0/1", "0/1_1"), "" when the record has none; `tsNs` its glog time.
    void internString(std::int64_t id, std::string text);
    void dynamoStart(const std::string& id, std::int64_t tsNs, const util::JsonValue& start);
    void compilationMetrics(const std::string& id, std::int64_t tsNs, const util::JsonValue& metrics);
    void chromiumEvent(const std::string& id, std::int64_t tsNs, const util::JsonValue& event);
    void cacheArtifact(const std::string& id, std::int64_t frame, std::int64_t tsNs, const CacheArtifact& a);
    // The `recompile_reasons` artifact's payload (JSON list or text) and `dynamo_graph_break_reason`'s.
    void recompileReasons(const std::string& id, std::int64_t tsNs, const std::string& payload);
    void graphBreakReason(const std::string& id, std::int64_t tsNs, const std::string& payload);
    // Closes what the log left open; returns the records written.
    std::int64_t finish(std::int64_t lastNs);
    std::int64_t records() const { return m_records; }

private:
    struct Phase {
        std::string name;
        std::int64_t startNs = 0;
    };
    struct Compile {
        std::string id;
        std::int64_t startNs = 0;
        std::optional<std::int64_t> endNs{};
        std::string name = "torch compile";
        std::string stack;  // "file:line in name" per frame, outermost first
        bool failed = false, restarted = false;
        std::vector<std::pair<std::string, util::JsonValue>> metrics;
        std::vector<std::string> guardFailures;  // "0/0: tensor 'x' size mismatch ..." in torch's order
        std::string graphBreak, failReason, program;
    };
    struct GuardFrame {  // the compiles of one frame, as guard-keyed entries
        std::string program;
        std::vector<std::pair<std::string, std::int64_t>> entries;  // compile id (no attempt), start
        std::map<std::string, std::map<std::string, std::string>> values;  // compile id -> subject -> value
        std::vector<std::pair<std::string, int>> subjects;  // first-seen order, role
    };
    void noteGuards(const Compile& c);
    Compile& compile(const std::string& id, std::int64_t tsNs);
    void writeCompile(const Compile& c, std::int64_t lastNs);
    std::int64_t chromiumNs(double tsUs, std::int64_t glogNs);

    ImportContext& m_ctx;
    std::int64_t m_track = 0;
    std::map<std::int64_t, std::string> m_strings;  // `str` interning: id -> file name
    std::map<std::string, Compile> m_compiles;      // open compiles by id
    std::map<std::string, std::string> m_frameNames;  // "0" (or "!1/0") -> co_name of its compiles
    std::map<std::string, GuardFrame> m_guardFrames;  // by frame, for the "torch dynamo" lookups
    std::vector<std::string> m_guardOrder;            // frames in first-compile order
    std::map<std::string, std::vector<Phase>> m_open;  // chromium B without E, by compile id + name
    std::optional<std::int64_t> m_chromiumOffsetNs{};  // glog clock - chromium clock, from the first event
    std::int64_t m_records = 0;
};

}  // namespace cs::ingest::torch
