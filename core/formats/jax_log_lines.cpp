#include "core/formats/jax_log_lines.h"

#include "core/formats/text_util.h"

#include <compilescope/trace_constants.h>

namespace cs::ingest::jax {

namespace {
// "'<name>'" at the start of s: the name, and s advanced past the closing quote.
bool quoted(std::string_view& s, std::string& out) {
    if (s.empty() || s[0] != '\'') return false;
    auto end = s.find('\'', 1);
    if (end == std::string_view::npos) return false;
    out = std::string(s.substr(1, end - 1));
    s = s.substr(end + 1);
    return true;
}

// "<name> in <seconds> sec" -> both
bool nameInSeconds(std::string_view s, std::string& name, double& seconds) {
    if (s.size() < 5 || s.substr(s.size() - 4) != " sec") return false;
    s = s.substr(0, s.size() - 4);
    auto in = s.rfind(" in ");
    if (in == std::string_view::npos || !parseDouble(s.substr(in + 4), seconds)) return false;
    name = std::string(s.substr(0, in));
    return true;
}

// "now <A> and before <B>"
bool nowBefore(std::string_view s, std::string& now, std::string& before) {
    if (!startsWith(s, "now ")) return false;
    auto and_ = s.rfind(" and before ");
    if (and_ == std::string_view::npos || and_ < 4) return false;
    now = std::string(s.substr(4, and_ - 4));
    before = std::string(s.substr(and_ + 12));
    // A weak-type difference: JAX appends its documentation's address to the last line with no space.
    if (auto url = before.find("}https://"); url != std::string::npos) before.resize(url + 1);
    return true;
}

// "<class '...Static'> with pytree metadata Static(val=3)" -> "3" (a static argument's value).
bool staticValue(const std::string& s, std::string& value) {
    auto at = s.find("Static(val=");
    if (at == std::string::npos || s.back() != ')') return false;
    value = s.substr(at + 11, s.size() - at - 12);
    return true;
}
}  // namespace

JaxLine parseJaxLine(std::string_view message) {
    JaxLine l;
    auto m = trim(message);
    if (startsWith(m, "TRACING CACHE MISS at ")) {
        auto rest = m.substr(22);
        // "... because:" before JAX 0.10; "<callsite>:" since.
        auto because = rest.rfind(" because:");
        if (because != std::string_view::npos) rest = rest.substr(0, because);
        else if (rest.size() > 1 && rest.back() == ':') rest.remove_suffix(1);
        else return l;
        if (auto cost = rest.rfind(" costing "); cost != std::string_view::npos) {
            auto ms = rest.substr(cost + 9);
            double v = 0;
            if (ms.size() > 3 && ms.substr(ms.size() - 3) == " ms" && parseDouble(ms.substr(0, ms.size() - 3), v)) l.costMs = v;
            rest = rest.substr(0, cost);
        }
        l.kind = JaxLineKind::TracingMiss;
        l.callsite = std::string(rest);
        return l;
    }
    auto keyed = [&](std::string_view rest, JaxLineKind kind) {
        if (!quoted(rest, l.function)) return;
        if (startsWith(rest, " with key ")) {
            rest = rest.substr(10);
            if (!quoted(rest, l.key)) return;
        }
        l.kind = kind;
    };
    if (startsWith(m, "Persistent compilation cache hit for ")) {
        keyed(m.substr(37), JaxLineKind::PersistentHit);
        return l;
    }
    if (startsWith(m, "PERSISTENT COMPILATION CACHE MISS for ")) {
        keyed(m.substr(38), JaxLineKind::PersistentMiss);
        return l;
    }
    if (startsWith(m, "Writing ")) {
        auto to = m.find(" to persistent compilation cache with key ");
        if (to == std::string_view::npos) return l;
        auto rest = m.substr(to + 42);
        std::string key;
        if (!quoted(rest, key)) return l;
        l.kind = JaxLineKind::PersistentWrite;
        l.function = std::string(m.substr(8, to - 8));
        l.key = key;
        return l;
    }
    if (startsWith(m, "Compiling ")) {
        // "Compiling jit(f) with global shapes and types (ShapedArray(float32[2]),). Argument mapping: (...)."
        // (JAX 0.4.x and later, DEBUG); older releases put "f (140) for" before " with".
        auto with = m.find(" with global shapes and types ");
        if (with == std::string_view::npos) return l;
        auto name = m.substr(10, with - 10);
        if (name.size() > 4 && name.substr(name.size() - 4) == " for") name.remove_suffix(4);
        auto shapes = m.substr(with + 30);
        if (auto arg = shapes.rfind(". Argument mapping: "); arg != std::string_view::npos) shapes = shapes.substr(0, arg);
        l.kind = JaxLineKind::Compiling;
        l.function = std::string(name);
        l.key = std::string(shapes);
        return l;
    }
    if (startsWith(m, "Finished tracing ")) {
        // "Finished tracing + transforming f for pjit in" before JAX 0.10, "Finished tracing f for jit in" since.
        auto rest = m.substr(17);
        if (startsWith(rest, "+ transforming ")) rest = rest.substr(15);
        std::string name;
        if (!nameInSeconds(rest, name, l.seconds)) return l;
        auto for_ = name.rfind(" for ");
        l.function = for_ == std::string::npos ? name : name.substr(0, for_);
        l.kind = JaxLineKind::TraceDone;
        return l;
    }
    if (startsWith(m, "Finished jaxpr to MLIR module conversion ")) {
        if (nameInSeconds(m.substr(41), l.function, l.seconds)) l.kind = JaxLineKind::LoweringDone;
        return l;
    }
    if (startsWith(m, "Finished XLA compilation of ")) {
        if (nameInSeconds(m.substr(28), l.function, l.seconds)) l.kind = JaxLineKind::CompileDone;
        return l;
    }
    return l;
}

MissReasonLine parseMissReasonLine(std::string_view line) {
    using K = MissReasonLine::Kind;
    MissReasonLine r;
    auto t = trim(line);
    if (t == "never seen function:") {
        r.kind = K::NeverSeen;
        return r;
    }
    if (startsWith(t, "but seen another function defined on the same line")) {
        r.kind = K::SeenSameLine;
        return r;
    }
    if (startsWith(t, "for ")) {
        auto at = t.find(" defined at ");
        if (at != std::string_view::npos) {
            r.kind = K::For;
            r.function = std::string(t.substr(4, at - 4));
            r.definedAt = std::string(t.substr(at + 12));
        }
        return r;
    }
    if (auto id = t.find(" id="); id != std::string_view::npos) {
        auto at = t.find(" defined at ", id);
        if (at != std::string_view::npos) {
            r.kind = K::FunctionId;
            r.function = std::string(t.substr(0, id));
            r.subject = std::string(t.substr(id + 4, at - id - 4));
            r.definedAt = std::string(t.substr(at + 12));
        }
        return r;
    }
    if (startsWith(t, "* key with ")) {
        auto h = t.substr(11);
        auto stop = h.find_first_of(",:");
        r.kind = K::Heading;
        r.heading = std::string(trim(h.substr(0, stop)));
        return r;
    }
    // JAX 0.10's headings (jax/_src/interpreters/partial_eval.py diff_tracing_cache_keys), named as before.
    if (startsWith(t, "different ") && t.back() == ':') {
        r.kind = K::Heading;
        r.heading = std::string(t.substr(0, t.size() - 1));
        return r;
    }
    for (auto [text, heading] : {std::pair<std::string_view, std::string_view>{"Tracing context doesn't match", "different tracing context"},
                                 {"Debug info doesn't match", "different debug info"},
                                 {"cache miss explanation unavailable", "explanation unavailable"}})
        if (startsWith(t, text)) {
            r.kind = K::Heading;
            r.heading = std::string(heading);
            return r;
        }
    if (startsWith(t, "* at ")) {
        auto comma = t.find(", now ");
        if (comma != std::string_view::npos && nowBefore(t.substr(comma + 2), r.now, r.before)) {
            r.kind = K::Change;
            r.subject = std::string(t.substr(5, comma - 5));
            // A pytree difference ends with JAX's explanation: "..., so the node types differ".
            if (auto so = r.before.rfind(", so "); startsWith(r.subject, "input path ") && so != std::string::npos) r.before.resize(so);
        }
        return r;
    }
    if (startsWith(t, "* ")) {  // JAX 0.10 tracing context: "* jax_enable_x64 differs: now True and before False"
        auto differs = t.find(" differs: ");
        if (differs != std::string_view::npos && nowBefore(t.substr(differs + 10), r.now, r.before)) {
            r.kind = K::Change;
            r.subject = std::string(t.substr(2, differs - 2));
        }
        return r;
    }
    if (startsWith(t, "[")) {
        auto colon = t.find("]: ");
        if (colon != std::string_view::npos && nowBefore(t.substr(colon + 3), r.now, r.before)) {
            r.kind = K::Change;
            r.subject = std::string(t.substr(0, colon + 1));
        }
        return r;
    }
    return r;
}

MissComponent missComponent(const std::string& heading, const MissReasonLine& change) {
    MissComponent c{.name = heading + " " + change.subject, .value = change.now,
                    .reason = heading + ": " + change.subject + " now " + change.now + " and before " + change.before,
                    .role = CS_ROLE_OTHER};
    if (heading == "different input types") {
        c.name = "type of " + change.subject;
        c.role = CS_ROLE_SHAPE;
    } else if (heading == "different tracing context") {
        c.name = "tracing context " + change.subject;
        c.role = CS_ROLE_OPTION;
    } else if (heading == "different input pytree" && startsWith(change.subject, "input path ")) {
        // static_argnames: path [1]['power'] (the keyword arguments, then the name); static_argnums: [0][1].
        const std::string path = change.subject.substr(11);
        std::string now, before;
        if (staticValue(change.now, now) && staticValue(change.before, before)) {
            std::string arg = path;
            if (startsWith(path, "[1]['") && path.size() > 7 && path.substr(path.size() - 2) == "']") arg = path.substr(5, path.size() - 7);
            else if (startsWith(path, "[0][") && path.find(']', 4) == path.size() - 1) arg = "#" + path.substr(4, path.size() - 5);
            c.name = "static argument " + arg;
            c.value = now;
            c.role = CS_ROLE_KEYWORD;
            c.reason = "different value of static argument " + arg + ": now " + now + " and before " + before;
        } else {
            c.name = "pytree at " + path;
        }
    }
    return c;
}

}  // namespace cs::ingest::jax
