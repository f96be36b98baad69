#include "core/ingest/tef/tef_dom_reader.h"

#include "core/ingest/tef/tef_builder.h"

#if COMPILESCOPE_HAVE_SIMDJSON
#include "core/util/contains.h"

#include <simdjson.h>

#include <string>
#include <vector>
#endif

namespace cs::ingest {

#if !COMPILESCOPE_HAVE_SIMDJSON

bool tefFastPathBuilt() { return false; }

bool readTefDocumentFast(std::istream&, TefBuilder&, ImportContext&, ImportSummary&, std::string_view,
                         std::optional<std::int64_t>&) {
    return false;
}

#else

namespace {
using simdjson::dom::element;
using simdjson::dom::element_type;

// Below JsonPullReader's 512 levels: whatever the fast path accepts, the streaming path would too.
constexpr std::size_t kMaxDepth = 500;

// The value of an element whose type was checked. Copied out of simdjson's result wrapper, which is a
// temporary: iterating a reference into it (value_unsafe()) would outlive it.
template <class T>
T as(const element& v) {
    T out{};
    if (v.get(out) != simdjson::SUCCESS) return T{};
    return out;
}

std::string quoted(std::string_view key) { return "\"" + std::string(key) + "\""; }

void readString(const element& v, TefEvent& ev, std::string& out, std::string_view key) {
    if (v.type() == element_type::STRING) out = as<std::string_view>(v);
    else ev.setProblem(quoted(key) + " is not a string");
}

bool isNumber(element_type t) { return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE; }

double toDouble(const element& v) {
    switch (v.type()) {
    case element_type::INT64: return static_cast<double>(as<std::int64_t>(v));
    case element_type::UINT64: return static_cast<double>(as<std::uint64_t>(v));
    default: return as<double>(v);
    }
}

void readNumber(const element& v, TefEvent& ev, double& out, bool& has, std::string_view key) {
    if (!isNumber(v.type())) {
        ev.setProblem(quoted(key) + " is not a number");
        return;
    }
    out = toDouble(v);  // simdjson refuses a number out of double's range: always finite here
    has = true;
}

void readId(const element& v, TefEvent& ev, TefId& out, std::string_view key) {
    out.present = true;
    if (v.type() == element_type::INT64) {
        out.numeric = true;
        out.num = as<std::int64_t>(v);
    } else if (v.type() == element_type::STRING) {
        out.numeric = false;
        out.text = as<std::string_view>(v);
    } else {
        out.present = false;
        ev.setProblem(quoted(key) + " is neither an integer nor a string");
    }
}

// The streaming path keeps a numeric flow id as its literal text; the DOM keeps only the value, whose
// decimal form is the literal for every integer but zero ("-0"). idsExact() declines the rest.
void readFlowId(const element& v, TefEvent& ev, std::string& out, bool& has, std::string_view key) {
    switch (v.type()) {
    case element_type::INT64: out = std::to_string(as<std::int64_t>(v)); break;
    case element_type::UINT64: out = std::to_string(as<std::uint64_t>(v)); break;
    case element_type::STRING: out = as<std::string_view>(v); break;
    default: ev.setProblem(quoted(key) + " is neither a number nor a string"); return;
    }
    has = true;
}

void readBool(const element& v, TefEvent& ev, bool& out, std::string_view key) {
    if (v.type() == element_type::BOOL) out = as<bool>(v);
    else ev.setProblem(quoted(key) + " is not a boolean");
}

// One argument value under `key` (already the flattened name), as tef_event.cpp's readArgValue.
void readArgValue(const element& v, TefEvent& ev, std::string& key) {
    switch (v.type()) {
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE: {
        TefArg* a = ev.newArg(key);
        if (!a) return;
        if (v.type() == element_type::INT64) {
            a->kind = TefArg::Kind::Int;
            a->i = as<std::int64_t>(v);
        } else {
            a->kind = TefArg::Kind::Real;
            a->d = toDouble(v);
        }
        return;
    }
    case element_type::STRING:
    case element_type::BOOL: {
        TefArg* a = ev.newArg(key);
        if (!a) return;
        if (v.type() == element_type::STRING) {
            a->kind = TefArg::Kind::Text;
            a->s = as<std::string_view>(v);
        } else {
            a->kind = TefArg::Kind::Int;
            a->i = as<bool>(v) ? 1 : 0;
        }
        return;
    }
    case element_type::NULL_VALUE: return;
    case element_type::OBJECT: {
        const std::size_t base = key.size();
        for (auto field : as<simdjson::dom::object>(v)) {
            key.resize(base);
            if (base) key += '.';
            key += field.key;
            readArgValue(field.value, ev, key);
        }
        key.resize(base);
        return;
    }
    case element_type::ARRAY: {
        const std::size_t base = key.size();
        std::size_t index = 0;
        for (element item : as<simdjson::dom::array>(v)) {
            key.resize(base);
            key += '[';
            key += std::to_string(index++);
            key += ']';
            readArgValue(item, ev, key);
        }
        key.resize(base);
        return;
    }
    }
}

void readEvent(const element& object, TefEvent& ev, std::string& argKey) {
    ev.clear();
    for (auto field : as<simdjson::dom::object>(object)) {
        ++ev.keys;
        const std::string_view k = field.key;
        const element& v = field.value;
        if (k == "ph") readString(v, ev, ev.ph, k);
        else if (k == "ts") readNumber(v, ev, ev.ts, ev.hasTs, k);
        else if (k == "dur") readNumber(v, ev, ev.dur, ev.hasDur, k);
        else if (k == "name") {
            readString(v, ev, ev.name, k);
            ev.hasName = true;
        } else if (k == "pid") readId(v, ev, ev.pid, k);
        else if (k == "tid") readId(v, ev, ev.tid, k);
        else if (k == "cat") readString(v, ev, ev.cat, k);
        else if (k == "args") {
            if (v.type() == element_type::OBJECT) {
                argKey.clear();
                readArgValue(v, ev, argKey);
            } else {
                ev.setProblem("\"args\" is not an object");
            }
        } else if (k == "id") readFlowId(v, ev, ev.id, ev.hasId, k);
        else if (k == "bind_id") readFlowId(v, ev, ev.bindId, ev.hasBindId, k);
        else if (k == "flow_in") readBool(v, ev, ev.flowIn, k);
        else if (k == "flow_out") readBool(v, ev, ev.flowOut, k);
        else if (k == "s") readString(v, ev, ev.scope, k);
        else if (k == "bp") readString(v, ev, ev.bindPoint, k);
    }
}

// Calls f(events array) for each array of events the streaming path would read, in order.
template <class F>
void forEachEventArray(const element& root, F&& f) {
    if (root.type() == element_type::ARRAY) {
        f(root);
    } else if (root.type() == element_type::OBJECT) {
        for (auto field : as<simdjson::dom::object>(root))
            if (field.key == "traceEvents" && field.value.type() == element_type::ARRAY) f(field.value);
    }
}

// Whether every numeric flow id's literal text is its value's decimal form (see readFlowId).
bool idsExact(const element& root) {
    bool exact = true;
    forEachEventArray(root, [&](const element& events) {
        for (element ev : as<simdjson::dom::array>(events)) {
            if (ev.type() != element_type::OBJECT) continue;
            for (auto field : as<simdjson::dom::object>(ev)) {
                if (field.key != "id" && field.key != "bind_id") continue;
                const auto t = field.value.type();
                if (t == element_type::DOUBLE || (t == element_type::INT64 && as<std::int64_t>(field.value) == 0))
                    exact = false;
            }
        }
    });
    return exact;
}

void readEvents(const element& events, TefBuilder& b, ImportContext& ctx, ImportSummary& summary, std::string_view source,
                std::int64_t& index) {
    TefEvent ev;
    std::string argKey;
    for (element item : as<simdjson::dom::array>(events)) {
        EventPos where{index++};
        if (item.type() != element_type::OBJECT) {
            ctx.malformed(where.text(), "event is not an object", source);
            ++summary.malformed;
            continue;
        }
        readEvent(item, ev, argKey);
        b.add(ev, where);
    }
}

// The document, member by member, as TefImporter::run reads it from the stream.
void readDocument(const element& root, TefBuilder& b, ImportContext& ctx, ImportSummary& summary, std::string_view source,
                  std::optional<std::int64_t>& origin) {
    std::int64_t index = 0;
    if (root.type() == element_type::ARRAY) {
        readEvents(root, b, ctx, summary, source, index);
        return;
    }
    if (root.type() != element_type::OBJECT) {
        ctx.malformed("document", "neither an array of events nor an object with \"traceEvents\"", source);
        ++summary.malformed;
        return;
    }
    bool sawEvents = false;
    for (auto field : as<simdjson::dom::object>(root)) {
        const std::string_view key = field.key;
        const element& v = field.value;
        if (key == "traceEvents") {
            if (v.type() == element_type::ARRAY) {
                sawEvents = true;
                readEvents(v, b, ctx, summary, source, index);
            } else {
                ctx.malformed("\"traceEvents\"", "is not an array", source);
                ++summary.malformed;
            }
        } else if (key == "otherData") {
            if (v.type() == element_type::OBJECT)
                for (auto other : as<simdjson::dom::object>(v))
                    if (other.key == "isNVRTC") b.setCompilerTrace();
        } else if (key == "beginningOfTime" && !origin) {
            b.memberBeginningOfTime(isNumber(v.type()), isNumber(v.type()) ? toDouble(v) : 0, sawEvents, origin);
        }
    }
    if (!sawEvents) {
        ctx.malformed("document", "object without a \"traceEvents\" array", source);
        ++summary.malformed;
    }
}
}  // namespace

bool tefFastPathBuilt() { return true; }

bool readTefDocumentFast(std::istream& in, TefBuilder& b, ImportContext& ctx, ImportSummary& summary,
                         std::string_view source, std::optional<std::int64_t>& origin) {
    const std::streampos start = in.tellg();
    if (start == std::streampos(-1)) return false;
    in.seekg(0, std::ios::end);
    const std::streampos end = in.tellg();
    in.seekg(start);
    if (end == std::streampos(-1) || end <= start || static_cast<std::uint64_t>(end - start) > kMaxFastFile) {
        in.clear();
        in.seekg(start);
        return false;
    }
    const auto size = static_cast<std::size_t>(end - start);
    // Kept for the thread's next file: a build's import reads thousands, and fresh memory costs more
    // to touch than simdjson takes to parse it.
    thread_local std::vector<char> buffer;
    thread_local simdjson::dom::parser parser;
    if (buffer.size() < size + simdjson::SIMDJSON_PADDING) buffer.resize(size + simdjson::SIMDJSON_PADDING);
    in.read(buffer.data(), static_cast<std::streamsize>(size));
    const bool whole = static_cast<std::size_t>(in.gcount()) == size;
    auto decline = [&] {
        in.clear();
        in.seekg(start);
        return false;
    };
    if (!whole) return decline();
    if ((parser.capacity() < size || parser.max_depth() != kMaxDepth) && parser.allocate(size, kMaxDepth) != simdjson::SUCCESS)
        return decline();
    element root;
    if (parser.parse(buffer.data(), size, false).get(root) != simdjson::SUCCESS) return decline();
    const std::string_view text(buffer.data(), size);
    if ((util::contains(text, "\"id\"") || util::contains(text, "\"bind_id\"") || util::contains(text, "\\u")) &&
        !idsExact(root))
        return decline();
    readDocument(root, b, ctx, summary, source, origin);
    return true;
}

#endif

}  // namespace cs::ingest
