#include "scenario.h"

#include <compilescope/trace_constants.h>

#include <charconv>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

namespace cs::test {

std::vector<std::string> scenarioTokens(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : line) {
        if (c == '[') ++depth;
        if (c == ']' && depth > 0) --depth;
        if ((c == ' ' || c == '\t') && depth == 0) {
            if (!cur.empty()) out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

namespace {

struct Builder {
    Builder(std::string o, std::string d, const SinkFactory& f) : origin(std::move(o)), dir(std::move(d)), makeSink(f) {}
    std::string origin, dir;
    const SinkFactory& makeSink;
    int line = 0;
    BuiltScenario built;
    std::unique_ptr<TraceSink> sink;
    std::int64_t session = 0, clock = 0, lastLookup = 0;
    std::optional<std::int64_t> step;
    std::string cache = "ReactantNitro.CACHE", handle = "n1";
    std::map<std::string, std::vector<SinkComponent>> keys;

    [[noreturn]] void fail(const std::string& why) const {
        throw std::runtime_error(origin + ":" + std::to_string(line) + ": " + why);
    }

    std::int64_t number(const std::string& s) const {
        std::int64_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size()) fail("not an integer: '" + s + "'");
        return v;
    }

    std::int64_t duration(const std::string& s) const {
        double v = 0;
        size_t used = 0;
        try {
            v = std::stod(s, &used);
        } catch (...) {
            fail("not a duration: '" + s + "'");
        }
        std::string unit = s.substr(used);
        double scale = unit == "ns" ? 1 : unit == "us" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : unit == "min" ? 60e9 : -1;
        if (scale < 0) fail("unknown duration unit in '" + s + "' (ns, us, ms, s, min)");
        return static_cast<std::int64_t>(v * scale);
    }

    bool component(const std::string& tok, SinkComponent& c) const {
        auto eq = tok.find('=');
        if (eq == std::string::npos) return false;
        std::string head = tok.substr(0, eq), name;
        auto br = head.find('[');
        if (br != std::string::npos) {
            if (head.back() != ']') fail("unclosed [ in '" + tok + "'");
            name = head.substr(br + 1, head.size() - br - 2);
            head = head.substr(0, br);
        }
        static const std::map<std::string, int> roles = {
            {"function", CS_ROLE_FUNCTION}, {"world", CS_ROLE_WORLD},     {"shape", CS_ROLE_SHAPE},
            {"graphconst", CS_ROLE_GRAPHCONST}, {"keyword", CS_ROLE_KEYWORD}, {"device", CS_ROLE_DEVICE},
            {"host", CS_ROLE_HOST}, {"type", CS_ROLE_TYPE}, {"option", CS_ROLE_OPTION}, {"other", CS_ROLE_OTHER}};
        auto it = roles.find(head);
        if (it == roles.end()) return false;
        c.role = it->second;
        c.value = tok.substr(eq + 1);
        switch (c.role) {
        case CS_ROLE_FUNCTION: c.name = name.empty() ? "function" : name; break;
        case CS_ROLE_WORLD: c.name = "world of " + name; break;
        case CS_ROLE_SHAPE: c.name = "shape of " + name; break;
        case CS_ROLE_TYPE: c.name = "type of " + name; break;
        case CS_ROLE_GRAPHCONST: c.name = name.empty() ? "GraphConst hash" : "GraphConst " + name; break;
        default: c.name = name;
        }
        if (c.name.empty() || c.name.back() == ' ') fail("component '" + tok + "' needs a [name]");
        return true;
    }

    static void merge(std::vector<SinkComponent>& into, const SinkComponent& c) {
        for (auto& x : into)
            if (x.name == c.name) {
                x = c;
                return;
            }
        into.push_back(c);
    }

    void ensureTrace() {
        if (!sink) openTrace("t");
        if (!session) session = sink->beginSession("julia", clock);
    }

    void openTrace(const std::string& name) {
        closeTrace();
        auto path = (std::filesystem::path(dir) / (name + ".cstrace")).string();
        built.tracePaths.push_back(path);
        sink = makeSink(path);
        session = 0;
        clock = 0;
        step.reset();
    }

    void closeTrace() {
        if (!sink) return;
        if (session) sink->endSession(session, clock);
        sink->finish();
        sink.reset();
    }

    void statement(const std::vector<std::string>& t) {
        const auto& op = t[0];
        clock += 1000000;
        if (op == "trace") {
            if (t.size() != 2) fail("trace NAME");
            openTrace(t[1]);
            return;
        }
        if (op == "session") {
            if (!sink) openTrace("t");
            if (session) sink->endSession(session, clock);
            session = sink->beginSession(t.size() > 1 ? t[1] : "julia", clock);
            step.reset();
            return;
        }
        if (op == "cache" || op == "handle") {
            if (t.size() != 2) fail(op + " NAME");
            (op == "cache" ? cache : handle) = t[1];
            return;
        }
        if (op == "key") {
            if (t.size() < 2) fail("key PROGRAM COMPONENT...");
            for (size_t i = 2; i < t.size(); ++i) {
                SinkComponent c;
                if (!component(t[i], c)) fail("not a key component: '" + t[i] + "'");
                merge(keys[t[1]], c);
            }
            return;
        }
        ensureTrace();
        if (op == "wait") {
            if (t.size() != 2) fail("wait DURATION");
            clock += duration(t[1]);
        } else if (op == "step") {
            if (t.size() < 2 || t.size() > 3) fail("step N [LABEL]");
            step = number(t[1]);
            sink->step(session, clock, *step, t.size() > 2 ? t[2] : "");
        } else if (op == "lookup") {
            lookup(t);
        } else if (op == "closure") {
            if (!lastLookup) fail("closure before any lookup");
            for (size_t i = 1; i < t.size(); ++i) {
                auto at = t[i].find('@');
                std::optional<std::int64_t> world;
                if (at != std::string::npos) world = number(t[i].substr(at + 1));
                sink->closure(lastLookup, t[i].substr(0, at), world);
            }
        } else if (op == "define" || op == "redefine" || op == "delete") {
            if (t.size() < 2 || t.size() > 3) fail(op + " METHOD [world=W]");
            std::optional<std::int64_t> world;
            if (t.size() == 3) {
                if (t[2].rfind("world=", 0) != 0) fail("expected world=W, got '" + t[2] + "'");
                world = number(t[2].substr(6));
            }
            int ev = op == "define" ? CS_METHOD_DEFINE : op == "redefine" ? CS_METHOD_REDEFINE : CS_METHOD_DELETE;
            sink->method(session, clock, ev, t[1], world);
        } else if (op == "counters") {
            for (size_t i = 1; i < t.size(); ++i) {
                auto eq = t[i].find('=');
                if (eq == std::string::npos) fail("counters NAME=VALUE...");
                sink->counter(session, clock, cache, t[i].substr(0, eq), number(t[i].substr(eq + 1)));
            }
        } else {
            fail("unknown statement '" + op + "'");
        }
    }

    void lookup(const std::vector<std::string>& t) {
        if (t.size() < 3) fail("lookup PROGRAM hit|miss|unknown ...");
        SinkLookup l{.session = session, .tsNs = clock, .cache = cache, .program = t[1], .handle = handle};
        l.verdict = t[2] == "hit" ? CS_VERDICT_HIT : t[2] == "miss" ? CS_VERDICT_MISS : t[2] == "unknown" ? CS_VERDICT_UNKNOWN : -1;
        if (l.verdict < 0) fail("verdict must be hit, miss or unknown, not '" + t[2] + "'");
        l.step = step;
        l.components = keys[t[1]];
        for (size_t i = 3; i < t.size(); ++i) {
            const auto& tok = t[i];
            SinkComponent c;
            if (tok.rfind("handle=", 0) == 0) l.handle = tok.substr(7);
            else if (tok.rfind("compile=", 0) == 0) l.compileNs = duration(tok.substr(8));
            else if (tok.rfind("fp=", 0) == 0) l.fingerprint = tok.substr(3);
            else if (tok.rfind("step=", 0) == 0) l.step = number(tok.substr(5));
            else if (component(tok, c)) merge(l.components, c);
            else fail("unknown lookup argument '" + tok + "'");
        }
        lastLookup = sink->lookup(l);
        if (l.compileNs) clock += *l.compileNs;
    }

    BuiltScenario run(const std::string& text) {
        std::istringstream in(text);
        std::string raw;
        while (std::getline(in, raw)) {
            ++line;
            if (raw.rfind("run:", 0) == 0) {
                built.runs.push_back(raw.substr(4));
                continue;
            }
            auto hash = raw.find('#');
            auto tokens = scenarioTokens(hash == std::string::npos ? raw : raw.substr(0, hash));
            if (!tokens.empty()) statement(tokens);
        }
        if (!sink) ensureTrace();
        closeTrace();
        return std::move(built);
    }
};

}  // namespace

BuiltScenario buildScenario(const std::string& text, const std::string& origin, const std::string& dir,
                            const SinkFactory& makeSink) {
    Builder b(origin, dir, makeSink);
    return b.run(text);
}

}  // namespace cs::test
