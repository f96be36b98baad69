#include "core/ingest/torch/torch_recompiles_importer.h"

#include "core/ingest/import_lines.h"
#include "core/formats/log_prefix.h"
#include "core/formats/text_util.h"
#include "core/formats/torch_recompile_lines.h"
#include "core/util/saturating.h"
#include "core/util/utf8.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace cs::ingest {

namespace {
using torch::GuardFailure;
using torch::RecompileLineKind;

struct Entry {
    std::string handle{};  // "0/1" or "#1"
    std::int64_t tsNs = 0;
    bool logged = false;  // a Recompiling block created it (else a failure named it: an earlier compile)
    std::map<std::string, std::string> values{};  // subject -> value on this entry
};

struct Function {
    std::string name{}, file{};
    std::vector<Entry> entries{};  // implied entries are inserted before the logged ones
    std::vector<std::pair<std::string, int>> subjects{};  // first-seen order, role
    size_t find(const std::string& handle) const {
        for (size_t i = 0; i < entries.size(); ++i)
            if (entries[i].handle == handle) return i;
        return entries.size();
    }
};

struct Block {  // one Recompiling block, for its span
    size_t function = 0;
    std::string handle{};
    std::int64_t tsNs = 0;
    std::vector<std::string> failures{};  // "0/0: text"
};

struct LimitHit {
    std::string limit{}, function{}, file{}, reason{}, compileId{};
    std::string raised{};  // FailOnRecompileLimitHit's message (fullgraph=True): the limit raised
    long long value = 0;
    std::int64_t tsNs = 0;
};

class Reader {
public:
    explicit Reader(ImportContext& ctx) : m_ctx(ctx) {}

    void line(const std::string& raw, std::int64_t lineNo) {
        auto prefix = splitLogPrefix(raw);
        // A line without a glog prefix (a pasted traceback, a blank line) happened at the last stamped
        // line. A file with no stamps at all has no time: its facts keep their order, not a made-up
        // duration (issue 35), and the session says "no timestamps" (clock "untimed").
        std::int64_t ts = prefix.tsNs ? *prefix.tsNs : m_lastStamped >= 0 ? m_lastStamped : m_ctx.baseNs;
        if (prefix.tsNs) {
            m_lastStamped = *prefix.tsNs;
            if (m_firstStamped < 0 || *prefix.tsNs < m_firstStamped) m_firstStamped = *prefix.tsNs;
        }
        auto msg = prefix.message;
        CompileId id;
        bool hasId = takeCompileId(msg, id);
        auto l = torch::parseRecompileLine(msg);
        switch (l.kind) {
        case RecompileLineKind::LimitRaised:
            if (!m_limits.empty()) {
                m_limits.back().raised = l.message;
                break;
            }
            [[fallthrough]];  // an exception without its warning: not used
        case RecompileLineKind::Other:
            if (trim(raw).empty()) break;
            if (m_other++ == 0)
                m_firstOther = "line " + std::to_string(lineNo) + ": \"" + std::string(util::utf8Prefix(trim(raw), 60)) + "\"";
            break;
        case RecompileLineKind::Header: startBlock(l.function, l.file, hasId ? id.text() : "", ts); break;
        case RecompileLineKind::Tuple:
            startBlock(l.function, l.file, hasId ? id.text() : "", ts);
            for (auto& f : l.failures) failure(f, 0);
            m_block = false;
            break;
        case RecompileLineKind::TriggeredBy: m_group = 0; m_inGroup = false; m_unnamed = 0; break;
        case RecompileLineKind::GuardGroup:
            if (m_inGroup) ++m_group;
            m_inGroup = true;
            break;
        case RecompileLineKind::Failure:
            if (!m_block) {
                m_ctx.malformed("line " + std::to_string(lineNo), "guard failure outside a Recompiling block", "torch-recompiles");
                ++m_malformed;
                break;
            }
            failure(l.failures.front(), m_inGroup ? m_group : m_unnamed++);
            break;
        case RecompileLineKind::LimitHit:
            m_limits.push_back({.limit = l.limitName, .compileId = hasId ? id.text() : "", .value = l.limitValue, .tsNs = ts});
            m_block = false;
            break;
        case RecompileLineKind::LimitFunction:
            if (!m_limits.empty()) m_limits.back().function = l.function, m_limits.back().file = l.file;
            break;
        case RecompileLineKind::LimitReason:
            if (!m_limits.empty()) m_limits.back().reason = l.failures.front().entry
                                                               ? *l.failures.front().entry + ": " + l.failures.front().text
                                                               : l.failures.front().text;
            break;
        }
        m_lastTs = std::max(m_lastTs, ts);
        if (m_firstTs < 0 || ts < m_firstTs) m_firstTs = ts;
    }

    ImportSummary finish();

private:
    void startBlock(const std::string& name, const std::string& file, const std::string& compileId, std::int64_t ts) {
        size_t f = 0;
        while (f < m_functions.size() && (m_functions[f].name != name || m_functions[f].file != file)) ++f;
        if (f == m_functions.size()) m_functions.push_back({.name = name, .file = file, .entries = {}, .subjects = {}});
        auto& fn = m_functions[f];
        size_t logged = std::count_if(fn.entries.begin(), fn.entries.end(), [](const Entry& e) { return e.logged; });
        std::string handle = compileId.empty() ? "#" + std::to_string(logged + 1) : compileId;
        fn.entries.push_back({.handle = handle, .tsNs = ts, .logged = true, .values = {}});
        m_blocks.push_back({.function = f, .handle = handle, .tsNs = ts, .failures = {}});
        m_block = true;
        m_group = 0;
        m_inGroup = false;
        m_unnamed = 0;
    }

    // `nth`: which earlier entry an id-less failure names, counting back from the newest.
    void failure(const GuardFailure& g, size_t nth) {
        auto& block = m_blocks.back();
        auto& fn = m_functions[block.function];
        size_t self = fn.find(block.handle);
        std::string entry;
        CompileId blockId;
        if (g.entry) {
            entry = *g.entry;
        } else if (parseCompileId(block.handle, blockId) && blockId.compile > static_cast<std::int64_t>(nth)) {
            // 2.4 printed the block's id but not the entry's: entries of a frame are numbered in order.
            entry = std::to_string(blockId.frame) + "/" + std::to_string(blockId.compile - 1 - static_cast<std::int64_t>(nth));
        } else {
            // The logged entries before this one, newest first; "#0" is the first compile.
            size_t before = 0;
            for (size_t i = 0; i < self; ++i) before += fn.entries[i].logged ? 1 : 0;
            size_t k = before >= nth ? before - nth : 0;
            entry = "#" + std::to_string(k);
            if (k > 0) {  // the k-th logged entry keeps its own handle
                size_t seen = 0;
                for (size_t i = 0; i < self; ++i)
                    if (fn.entries[i].logged && ++seen == k) entry = fn.entries[i].handle;
            }
        }
        size_t e = fn.find(entry);
        if (e == fn.entries.size()) {  // an earlier compile the log did not show: it precedes the logged ones
            size_t at = 0;
            while (at < fn.entries.size() && !fn.entries[at].logged) ++at;
            fn.entries.insert(fn.entries.begin() + static_cast<std::ptrdiff_t>(at),
                              Entry{.handle = entry, .tsNs = 0, .logged = false, .values = {}});
        }
        auto known = std::find_if(fn.subjects.begin(), fn.subjects.end(), [&](const auto& s) { return s.first == g.subject; });
        if (known == fn.subjects.end()) fn.subjects.emplace_back(g.subject, g.role);
        // A guard that states no values (`___check_global_state()`) held on the entry and fails now.
        const bool stated = !g.expected.empty() || !g.actual.empty();
        if (!g.expected.empty() || !stated) fn.entries[fn.find(entry)].values.emplace(g.subject, stated ? g.expected : "held");
        if (!g.actual.empty() || !stated) fn.entries[fn.find(block.handle)].values[g.subject] = stated ? g.actual : "failed";
        block.failures.push_back(entry + ": " + (g.text.empty() ? "(no reason printed)" : g.text));
    }

    ImportContext& m_ctx;
    std::vector<Function> m_functions;
    std::vector<Block> m_blocks;
    std::vector<LimitHit> m_limits;
    bool m_block = false, m_inGroup = false;
    size_t m_group = 0, m_unnamed = 0;
    std::int64_t m_other = 0, m_malformed = 0;
    std::string m_firstOther;
    std::int64_t m_firstTs = -1, m_lastTs = 0;
    std::int64_t m_firstStamped = -1, m_lastStamped = -1;  // over lines with a glog time stamp
};

// "5/2" -> (5, 2, 0); "#3" -> (0, 3, 0); anything else last.
std::tuple<std::int64_t, std::int64_t, std::int64_t> entryOrder(const std::string& handle) {
    CompileId id;
    if (parseCompileId(handle, id)) return {id.frame, id.compile, id.attempt};
    long long k = 0;
    if (handle.size() > 1 && handle[0] == '#' && parseInt(std::string_view(handle).substr(1), k)) return {0, k, 0};
    return {INT64_MAX, 0, 0};
}

ImportSummary Reader::finish() {
    ImportSummary s;
    auto& w = m_ctx.writer;
    // Times relative to the earliest line (glog prints no year; one clock per session). In a file
    // with stamps, unstamped lines before the first stamp are taken to be at it.
    if (m_firstStamped >= 0) {
        auto atLeast = [&](std::int64_t& t) { t = std::max(t, m_firstStamped); };
        for (auto& fn : m_functions)
            for (auto& e : fn.entries)
                if (e.logged) atLeast(e.tsNs);
        for (auto& b : m_blocks) atLeast(b.tsNs);
        for (auto& l : m_limits) atLeast(l.tsNs);
        m_firstTs = m_firstStamped;
        m_lastTs = std::max(m_lastTs, m_firstStamped);
    }
    const std::int64_t shift = m_firstTs < 0 ? 0 : util::satSub(m_ctx.baseNs, m_firstTs);
    for (auto& fn : m_functions)
        for (auto& e : fn.entries)
            if (e.logged) e.tsNs = util::satAdd(e.tsNs, shift);
    for (auto& b : m_blocks) b.tsNs = util::satAdd(b.tsNs, shift);
    for (auto& l : m_limits) l.tsNs = util::satAdd(l.tsNs, shift);
    if (m_firstTs >= 0) {
        m_firstTs = util::satAdd(m_firstTs, shift);
        m_lastTs = util::satAdd(m_lastTs, shift);
    }
    const auto track = w.addTrack({.sessionId = m_ctx.sessionId, .kind = CS_TRACK_RUNTIME, .name = w.intern("torch dynamo")});
    const auto cache = w.intern("torch dynamo");
    for (auto& fn : m_functions) {
        // Implied entries come before the first logged one.
        std::int64_t first = 0;
        size_t implied = 0;
        for (const auto& e : fn.entries) {
            if (e.logged) {
                first = e.tsNs;
                break;
            }
            ++implied;
        }
        // Named out of order ("- 5/2", "- 5/1", "- 5/0"): put them in compile order.
        std::stable_sort(fn.entries.begin(), fn.entries.begin() + static_cast<std::ptrdiff_t>(implied),
                         [](const Entry& a, const Entry& b) { return entryOrder(a.handle) < entryOrder(b.handle); });
        // At the first logged compile's time, written before it (lookups of one time keep id order).
        for (size_t i = 0; i < implied; ++i) fn.entries[i].tsNs = first;
        std::stable_sort(fn.entries.begin() + static_cast<std::ptrdiff_t>(implied), fn.entries.end(),
                         [](const Entry& a, const Entry& b) { return a.tsNs < b.tsNs; });
        const auto program = w.intern(fn.name + " (" + fn.file + ")");
        for (const auto& e : fn.entries) {
            auto lookup = w.addCacheLookup({.sessionId = m_ctx.sessionId, .trackId = track, .tsNs = e.tsNs, .cache = cache,
                                            .program = program, .handle = w.intern(e.handle), .verdict = CS_VERDICT_MISS});
            ++s.records;
            std::int64_t ordinal = 0;
            for (const auto& [subject, role] : fn.subjects) {
                auto v = e.values.find(subject);
                std::string value = v != e.values.end() ? v->second : "(not logged at " + e.handle + ")";
                w.addKeyComponent({.lookupId = lookup, .ordinal = ordinal++, .name = w.intern(subject), .role = role,
                                   .digest = w.intern(value), .value = w.intern(value)});
            }
        }
    }
    for (const auto& b : m_blocks) {
        const auto& fn = m_functions[b.function];
        auto span = w.addSpan({.trackId = track, .startNs = b.tsNs, .durNs = 0, .category = CS_CAT_COMPILE,
                               .name = w.intern("Recompiling function " + fn.name), .detail = w.intern(fn.file)});
        w.addSpanArg(span, w.intern("compile_id"), std::string_view(b.handle));
        w.addSpanArg(span, w.intern("untimed"), std::int64_t{1});  // the log names the compile, not its time
        for (size_t i = 0; i < b.failures.size(); ++i)
            w.addSpanArg(span, w.intern("guard failure " + std::to_string(i + 1)), std::string_view(b.failures[i]));
        ++s.records;
    }
    for (const auto& l : m_limits) {
        auto span = w.addSpan({.trackId = track, .startNs = l.tsNs, .durNs = 0, .category = CS_CAT_OTHER,
                               .name = w.intern("torch._dynamo hit config." + l.limit + " (" + std::to_string(l.value) + ")"),
                               .detail = w.intern(l.file)});
        w.addSpanArg(span, w.intern("jit_event"), std::string_view("recompile_limit"));
        w.addSpanArg(span, w.intern("limit"), std::string_view(l.limit));
        w.addSpanArg(span, w.intern("limit_value"), static_cast<std::int64_t>(l.value));
        w.addSpanArg(span, w.intern("function"), std::string_view(l.function));
        w.addSpanArg(span, w.intern("last_reason"), std::string_view(l.reason));
        if (!l.compileId.empty()) w.addSpanArg(span, w.intern("compile_id"), std::string_view(l.compileId));
        if (!l.raised.empty()) w.addSpanArg(span, w.intern("raised"), "FailOnRecompileLimitHit: " + l.raised);
        ++s.records;
    }
    if (m_ctx.forced) {
        m_ctx.unrecognised(m_other, m_firstOther, "torch-recompiles");
        s.unrecognised = m_other;
    } else if (m_other) {  // every line not used is counted (issue 35), as information
        m_ctx.writer.addStat(m_ctx.sessionId, "unused_line", "torch-recompiles", m_other, m_ctx.sourceName + " " + m_firstOther);
    }
    if (m_firstStamped < 0) {
        s.clock = "untimed";
        s.startNs = m_ctx.baseNs;
    }
    s.malformed = m_malformed;
    s.firstNs = m_firstTs < 0 ? m_ctx.baseNs : m_firstTs;
    s.lastNs = m_lastTs;
    return s;
}
}  // namespace

int TorchRecompilesImporter::sniff(std::string_view head, std::string_view) const {
    if (head.find("Recompiling function ") != std::string_view::npos &&
        head.find("guard failure") != std::string_view::npos)
        return 85;
    if (head.find("torch._dynamo hit config.") != std::string_view::npos) return 80;
    return 0;
}

ImportSummary TorchRecompilesImporter::run(std::istream& in, ImportContext& ctx) const {
    Reader reader(ctx);
    std::string line;
    std::int64_t lineNo = 0;
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) reader.line(line, ++lineNo);
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    return reader.finish();
}

}  // namespace cs::ingest
