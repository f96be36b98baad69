#include "core/ingest/tef/tef_importer.h"
#include "core/util/contains.h"

#include "core/ingest/tef/tef_builder.h"
#include "core/ingest/tef/tef_dom_reader.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

namespace cs::ingest {

namespace {
using Token = util::JsonPullReader::Token;

std::string_view skipBomAndSpace(std::string_view s) {
    if (s.starts_with("\xEF\xBB\xBF")) s.remove_prefix(3);
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\r' || s.front() == '\t'))
        s.remove_prefix(1);
    return s;
}

// clang's `beginningOfTime`, read from the end of the file before the events are streamed.
//
// Why from the end: clang writes it as the last member, after every event, and each event's `ts` is
// relative to it; streaming must not hold the events back until it arrives. So the importer looks at
// the file's last bytes first (a seekable stream; the file import always is): the member counts only
// when it closes the top-level object (`"beginningOfTime": N }` then nothing), which text inside an
// event cannot do. A member found earlier while streaming (before "traceEvents") serves too.
std::optional<std::int64_t> trailingBeginningOfTime(std::istream& in) {
    const std::streampos start = in.tellg();
    if (start == std::streampos(-1)) return std::nullopt;
    in.seekg(0, std::ios::end);
    const std::streampos end = in.tellg();
    std::string tail;
    if (end != std::streampos(-1) && end > start) {
        std::streamoff n = std::min<std::streamoff>(end - start, 256);
        in.seekg(end - n);
        tail.resize(static_cast<size_t>(n));
        in.read(tail.data(), n);
        tail.resize(static_cast<size_t>(in.gcount()));
    }
    in.clear();
    in.seekg(start);
    auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
    std::string_view t = tail;
    while (!t.empty() && space(t.back())) t.remove_suffix(1);
    if (t.empty() || t.back() != '}') return std::nullopt;
    t.remove_suffix(1);
    while (!t.empty() && space(t.back())) t.remove_suffix(1);
    size_t digits = t.size();
    while (digits > 0 && t[digits - 1] >= '0' && t[digits - 1] <= '9') --digits;
    std::string_view number = t.substr(digits);
    t = t.substr(0, digits);
    while (!t.empty() && space(t.back())) t.remove_suffix(1);
    if (number.empty() || number.size() > 17 || !t.ends_with(':')) return std::nullopt;
    t.remove_suffix(1);
    while (!t.empty() && space(t.back())) t.remove_suffix(1);
    if (!t.ends_with("\"beginningOfTime\"")) return std::nullopt;
    t.remove_suffix(17);
    while (!t.empty() && space(t.back())) t.remove_suffix(1);
    if (t.empty() || (t.back() != ',' && t.back() != '{')) return std::nullopt;
    std::int64_t us = 0;
    std::from_chars(number.data(), number.data() + number.size(), us);
    if (us >= 9'000'000'000'000'000) return std::nullopt;  // as nanoseconds past the int64 range
    return us * 1000;
}

// Reads the otherData object; nvcc and NVRTC mark theirs with "isNVRTC".
bool readOtherData(util::JsonPullReader& r, TefBuilder& b) {
    Token t = r.next();
    if (t != Token::BeginObject) return t != Token::Error && (t == Token::BeginArray ? r.skipCurrent() : true);
    for (Token k = r.next(); k != Token::EndObject; k = r.next()) {
        if (k != Token::Key) return false;
        if (r.text() == "isNVRTC") b.setCompilerTrace();
        Token v = r.next();
        if (v == Token::Error) return false;
        if ((v == Token::BeginObject || v == Token::BeginArray) && !r.skipCurrent()) return false;
    }
    return true;
}

// Streams the events of one array; `index` counts events across the file for messages.
bool readEvents(util::JsonPullReader& r, TefBuilder& b, ImportContext& ctx, ImportSummary& summary,
                std::string_view source, std::int64_t& index) {
    TefEvent ev;
    for (Token t = r.next(); t != Token::EndArray; t = r.next()) {
        EventPos where{index++};
        if (t == Token::Error) return false;
        if (t != Token::BeginObject) {
            ctx.malformed(where.text(), "event is not an object", source);
            ++summary.malformed;
            if (t == Token::BeginArray && !r.skipCurrent()) return false;
            continue;
        }
        if (!readTefEvent(r, ev)) return false;
        b.add(ev, where);
    }
    return true;
}
}  // namespace

int TefImporter::sniff(std::string_view head, std::string_view fileName) const {
    std::string_view s = skipBomAndSpace(head);
    if (s.empty() || (s.front() != '{' && s.front() != '[')) return 0;
    if (s.front() == '{' && util::contains(s, "\"traceEvents\"")) return 95;
    // A bare array of events: the first event has a "ph" member.
    if (s.front() == '[' && skipBomAndSpace(s.substr(1)).starts_with("{") &&
        s.substr(0, 4096).find("\"ph\"") != std::string_view::npos)
        return 90;
    if (fileName.ends_with(".json.json") || fileName.ends_with("compile-time-trace.json")) return 40;
    return 0;
}

ImportSummary TefImporter::run(std::istream& in, ImportContext& ctx) const { return import(in, ctx, Parser::Auto); }

ImportSummary TefImporter::import(std::istream& in, ImportContext& ctx, Parser parser, bool* fast) {
    const std::string_view source = "tef";
    ImportSummary summary;
    TefBuilder b(ctx, summary, source);
    // A clang time trace counts from its beginningOfTime (0 would be the epoch itself).
    auto origin = trailingBeginningOfTime(in);
    if (origin && *origin > 0) b.setTimeOrigin(*origin);
    const bool tookFast = parser == Parser::Auto && readTefDocumentFast(in, b, ctx, summary, source, origin);
    if (fast) *fast = tookFast;
    if (tookFast) {
        b.finish();
        if (origin && *origin > 0) {
            summary.clock = "CLOCK_REALTIME";
            summary.startNs = *origin;
        }
        return summary;
    }
    util::JsonPullReader r(in);
    std::int64_t index = 0;
    bool ok = true;
    bool bareArray = false;
    Token t = r.next();
    if (t == Token::BeginArray) {
        bareArray = true;
        ok = readEvents(r, b, ctx, summary, source, index);
    } else if (t == Token::BeginObject) {
        bool sawEvents = false;
        for (Token k = r.next(); ok && k != Token::EndObject; k = r.next()) {
            if (k != Token::Key) {
                ok = false;
                break;
            }
            std::string key = r.text();
            if (key == "traceEvents") {
                Token v = r.next();
                if (v == Token::BeginArray) {
                    sawEvents = true;
                    ok = readEvents(r, b, ctx, summary, source, index);
                } else if (v == Token::Error) {
                    ok = false;
                } else {
                    ctx.malformed("\"traceEvents\"", "is not an array", source);
                    ++summary.malformed;
                    ok = r.skipCurrent();
                }
            } else if (key == "otherData") {
                ok = readOtherData(r, b);
            } else if (key == "beginningOfTime" && !origin) {
                // Found only here after the events, the one at the end was out of range or the
                // stream could not be read from its end.
                Token v = r.next();
                if (v == Token::Error) {
                    ok = false;
                } else {
                    const bool number = v == Token::Number;
                    b.memberBeginningOfTime(number, number ? r.number() : 0, sawEvents, origin);
                    if (!origin) ok = r.skipCurrent();  // not taken: skipped as any other member
                }
            } else {
                // displayTimeUnit, beginningOfTime, stackFrames, samples, systemTraceEvents, metadata:
                // nothing this trace keeps.
                Token v = r.next();
                ok = v != Token::Error && r.skipCurrent();
            }
        }
        if (ok && !sawEvents) {
            ctx.malformed("document", "object without a \"traceEvents\" array", source);
            ++summary.malformed;
        }
    } else if (t != Token::Error) {
        ctx.malformed("document", "neither an array of events nor an object with \"traceEvents\"", source);
        ++summary.malformed;
    } else {
        ok = false;
    }
    if (ok && r.next() == Token::Error) ok = false;
    if (!ok) {
        // The array form may legally end without its "]" (a trace cut by a crash, per the TEF spec);
        // anything else that breaks off is counted, keeping what was read before.
        bool cutArray = bareArray && r.depth() <= 1 && r.error().find("input ends") != std::string::npos;
        if (!cutArray) {
            ctx.malformed("byte " + std::to_string(r.offset()), "JSON broken or truncated (" + r.error() + ")", source);
            ++summary.malformed;
        }
    }
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    b.finish();
    if (origin && *origin > 0) {
        summary.clock = "CLOCK_REALTIME";  // clang: std::chrono::system_clock, microseconds
        summary.startNs = *origin;
    }
    return summary;
}

}  // namespace cs::ingest
