#include "core/formats/tef_event.h"

#include <cmath>
#include <string_view>

namespace cs::ingest {

namespace {
using Token = util::JsonPullReader::Token;

constexpr size_t kMaxArgs = 512;      // per event; more are counted, not stored
constexpr size_t kMaxArgKey = 1024;   // flattened key length

void problem(TefEvent& ev, std::string_view what) { ev.setProblem(what); }

// Skips the value that `t` begins; false when the JSON is broken.
bool skipValue(util::JsonPullReader& r, Token t) {
    if (t == Token::Error) return false;
    if (t == Token::BeginObject || t == Token::BeginArray) return r.skipCurrent();
    return true;
}

bool readString(util::JsonPullReader& r, TefEvent& ev, std::string& out, const char* key) {
    Token t = r.next();
    if (t == Token::String) {
        out = r.text();
        return true;
    }
    problem(ev, std::string("\"") + key + "\" is not a string");
    return skipValue(r, t);
}

bool readNumber(util::JsonPullReader& r, TefEvent& ev, double& out, bool& has, const char* key) {
    Token t = r.next();
    if (t == Token::Number) {
        double v = r.number();
        if (std::isfinite(v)) {
            out = v;
            has = true;
        } else {
            problem(ev, std::string("\"") + key + "\" is out of range");
        }
        return true;
    }
    problem(ev, std::string("\"") + key + "\" is not a number");
    return skipValue(r, t);
}

bool readId(util::JsonPullReader& r, TefEvent& ev, TefId& out, const char* key) {
    Token t = r.next();
    out.present = true;
    if (t == Token::Number && r.isInteger()) {
        out.numeric = true;
        out.num = r.integer();
        return true;
    }
    if (t == Token::String) {
        out.numeric = false;
        out.text = r.text();
        return true;
    }
    out.present = false;
    problem(ev, std::string("\"") + key + "\" is neither an integer nor a string");
    return skipValue(r, t);
}

// Flow and async ids: numbers or strings ("0x1f"), kept as text because only equality matters.
bool readFlowId(util::JsonPullReader& r, TefEvent& ev, std::string& out, bool& has, const char* key) {
    Token t = r.next();
    if (t == Token::Number || t == Token::String) {
        out = r.text();
        has = true;
        return true;
    }
    problem(ev, std::string("\"") + key + "\" is neither a number nor a string");
    return skipValue(r, t);
}

bool readBool(util::JsonPullReader& r, TefEvent& ev, bool& out, const char* key) {
    Token t = r.next();
    if (t == Token::True || t == Token::False) {
        out = t == Token::True;
        return true;
    }
    problem(ev, std::string("\"") + key + "\" is not a boolean");
    return skipValue(r, t);
}

TefArg* newArg(TefEvent& ev, const std::string& key) { return ev.newArg(key); }

// Reads one argument value under `key` (already the flattened name), recursing into containers.
bool readArgValue(util::JsonPullReader& r, TefEvent& ev, std::string& key, Token t) {
    switch (t) {
    case Token::Number: {
        TefArg* slot = newArg(ev, key);
        if (!slot) return true;
        TefArg& a = *slot;
        if (r.isInteger()) {
            a.kind = TefArg::Kind::Int;
            a.i = r.integer();
        } else {
            a.kind = TefArg::Kind::Real;
            a.d = r.number();
            if (!std::isfinite(a.d)) a.d = 0;
        }
        return true;
    }
    case Token::String:
    case Token::True:
    case Token::False: {
        TefArg* slot = newArg(ev, key);
        if (!slot) return true;
        TefArg& a = *slot;
        if (t == Token::String) {
            a.kind = TefArg::Kind::Text;
            a.s = r.text();
        } else {
            a.kind = TefArg::Kind::Int;
            a.i = t == Token::True ? 1 : 0;
        }
        return true;
    }
    case Token::Null: return true;  // "no value": nothing to keep
    case Token::BeginObject: {
        size_t base = key.size();
        for (Token k = r.next(); k != Token::EndObject; k = r.next()) {
            if (k != Token::Key) return false;
            key.resize(base);
            if (base) key += '.';
            key += r.text();
            if (!readArgValue(r, ev, key, r.next())) return false;
        }
        key.resize(base);
        return true;
    }
    case Token::BeginArray: {
        size_t base = key.size();
        size_t index = 0;
        for (Token v = r.next(); v != Token::EndArray; v = r.next()) {
            key.resize(base);
            key += '[';
            key += std::to_string(index++);
            key += ']';
            if (!readArgValue(r, ev, key, v)) return false;
        }
        key.resize(base);
        return true;
    }
    default: return false;
    }
}
}  // namespace

void TefEvent::clear() {
    name.clear();
    cat.clear();
    ph.clear();
    scope.clear();
    bindPoint.clear();
    id.clear();
    bindId.clear();
    hasName = hasTs = hasDur = hasId = hasBindId = flowIn = flowOut = false;
    ts = dur = 0;
    pid = {};
    tid = {};
    argCount = 0;
    droppedArgs = 0;
    problem.clear();
    keys = 0;
}

TefArg* TefEvent::newArg(const std::string& key) {
    if (argCount >= kMaxArgs || key.size() > kMaxArgKey) {
        ++droppedArgs;
        return nullptr;
    }
    TefArg& a = addArg();
    a.key = key;
    return &a;
}

TefArg& TefEvent::addArg() {
    if (argCount == args.size()) args.emplace_back();
    return args[argCount++];
}

bool readTefEvent(util::JsonPullReader& r, TefEvent& ev) {
    ev.clear();
    std::string argKey;
    for (Token t = r.next(); t != Token::EndObject; t = r.next()) {
        if (t != Token::Key) return false;
        ++ev.keys;
        const std::string& k = r.text();
        bool ok = true;
        if (k == "ph") ok = readString(r, ev, ev.ph, "ph");
        else if (k == "ts") ok = readNumber(r, ev, ev.ts, ev.hasTs, "ts");
        else if (k == "dur") ok = readNumber(r, ev, ev.dur, ev.hasDur, "dur");
        else if (k == "name") {
            ok = readString(r, ev, ev.name, "name");
            ev.hasName = true;
        } else if (k == "pid") ok = readId(r, ev, ev.pid, "pid");
        else if (k == "tid") ok = readId(r, ev, ev.tid, "tid");
        else if (k == "cat") ok = readString(r, ev, ev.cat, "cat");
        else if (k == "args") {
            Token v = r.next();
            if (v == Token::BeginObject) {
                argKey.clear();
                ok = readArgValue(r, ev, argKey, v);
            } else {
                problem(ev, "\"args\" is not an object");
                ok = skipValue(r, v);
            }
        } else if (k == "id") ok = readFlowId(r, ev, ev.id, ev.hasId, "id");
        else if (k == "bind_id") ok = readFlowId(r, ev, ev.bindId, ev.hasBindId, "bind_id");
        else if (k == "flow_in") ok = readBool(r, ev, ev.flowIn, "flow_in");
        else if (k == "flow_out") ok = readBool(r, ev, ev.flowOut, "flow_out");
        else if (k == "s") ok = readString(r, ev, ev.scope, "s");
        else if (k == "bp") ok = readString(r, ev, ev.bindPoint, "bp");
        else ok = skipValue(r, r.next());  // tts, tdur, cname, sf, stack, id2, ...: not used
        if (!ok) return false;
    }
    return true;
}

}  // namespace cs::ingest
