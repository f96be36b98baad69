#include "core/formats/jax_log_lines.h"

#include "core/formats/text_util.h"

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
    return true;
}
}  // namespace

JaxLine parseJaxLine(std::string_view message) {
    JaxLine l;
    auto m = trim(message);
    if (startsWith(m, "TRACING CACHE MISS at ")) {
        auto rest = m.substr(22);
        auto because = rest.rfind(" because:");
        if (because == std::string_view::npos) return l;
        rest = rest.substr(0, because);
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
    if (startsWith(m, "Finished tracing + transforming ")) {
        std::string name;
        if (!nameInSeconds(m.substr(32), name, l.seconds)) return l;
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
    if (startsWith(t, "* at ")) {
        auto comma = t.find(", now ");
        if (comma != std::string_view::npos && nowBefore(t.substr(comma + 2), r.now, r.before)) {
            r.kind = K::Change;
            r.subject = std::string(t.substr(5, comma - 5));
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

}  // namespace cs::ingest::jax
