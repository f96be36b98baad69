// scenario_record SCENARIO.scn OUTDIR K S: replays session S of trace K (both 0-based) of a scenario
// through the real collector C ABI (compilescope.h). K "-" takes K from $CS_SCENARIO_TRACE, as a
// launcher gives each rank its index: the ranks of one job then run one command line. Run it under `compilescope record -o T.cstrace
// --`, once per session in order; the recorder process writes the trace. Exit 3 when the scenario has
// no trace K, 4 when trace K has no session S.
//
// Why a process per session: the collector records one process as one session of one trace, as a
// runtime would, so a scenario's `session` statement (a new process) is a new run of this program,
// which joins the same recorder as its own session. Timestamps are the collector's clock, strictly
// increasing, so call order is event order.
#include "engine/scenario.h"

#include <compilescope/compilescope.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

namespace {

// Waits until the collector's clock has moved past the last event, so no two events tie.
std::int64_t nextTs() {
    static std::int64_t last = 0;
    std::int64_t now = cs_now_ns();
    while (now <= last) now = cs_now_ns();
    return last = now;
}

cs_str str(const std::string& s) { return s.empty() ? 0 : cs_intern(s.c_str()); }

class CollectorSink : public cs::test::TraceSink {
public:
    explicit CollectorSink(int session) : m_wanted(session) {}
    bool recorded() const { return m_started; }

    std::int64_t beginSession(const std::string& runtime, std::int64_t) override {
        m_active = m_sessions++ == m_wanted;
        if (m_active) {
            if (!cs_start(runtime.c_str(), nullptr)) throw std::runtime_error("cs_start failed (run under compilescope record)");
            m_started = true;
        }
        return m_sessions;
    }
    void endSession(std::int64_t, std::int64_t) override {}
    void step(std::int64_t, std::int64_t, std::int64_t step, const std::string& label) override {
        if (!m_active) return;
        nextTs();
        cs_step(step, CS_NONE, str(label));
    }
    std::int64_t lookup(const cs::test::SinkLookup& l) override {
        if (!m_active) return -1;  // not recorded here; any non-zero id lets closures follow
        std::vector<cs_key_component> key;
        for (const auto& c : l.components) {
            cs_str v = str(c.value);
            key.push_back({str(c.name), c.role, v, v});
        }
        cs_cache_lookup r{nextTs(), str(l.cache), str(l.program), str(l.handle), l.verdict,
                          l.compileNs.value_or(CS_NONE), str(l.fingerprint), CS_THREAD_TRACK, l.step.value_or(CS_NONE),
                          key.data(), static_cast<uint32_t>(key.size()), 0, nullptr};
        m_last = cs_cache_lookup_record(&r);
        return static_cast<std::int64_t>(m_last);
    }
    void closure(std::int64_t, const std::string& method, std::optional<std::int64_t> world) override {
        if (m_active) cs_closure_add(m_last, str(method), world.value_or(CS_NONE));
    }
    void method(std::int64_t, std::int64_t, int event, const std::string& name, std::optional<std::int64_t> world) override {
        if (!m_active) return;
        cs_method_info m{nextTs(), event, str(name), 0, 0, 0, 0, CS_NONE, world.value_or(CS_NONE)};
        cs_method(&m);
    }
    void counter(std::int64_t, std::int64_t, const std::string& scope, const std::string& name, std::int64_t value) override {
        if (!m_active) return;
        nextTs();
        cs_counter(str(scope), str(name), value);
    }
    void finish() override {
        if (m_started) cs_stop();
    }

private:
    int m_wanted;
    int m_sessions = 0;
    bool m_active = false, m_started = false;
    cs_lookup m_last = 0;
};

// The other traces of the scenario: recorded by other runs of this program.
class NullSink final : public cs::test::TraceSink {
public:
    std::int64_t beginSession(const std::string&, std::int64_t) override { return 1; }
    void endSession(std::int64_t, std::int64_t) override {}
    void step(std::int64_t, std::int64_t, std::int64_t, const std::string&) override {}
    std::int64_t lookup(const cs::test::SinkLookup&) override { return -1; }
    void closure(std::int64_t, const std::string&, std::optional<std::int64_t>) override {}
    void method(std::int64_t, std::int64_t, int, const std::string&, std::optional<std::int64_t>) override {}
    void counter(std::int64_t, std::int64_t, const std::string&, const std::string&, std::int64_t) override {}
    void finish() override {}
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::cerr << "usage: scenario_record SCENARIO.scn OUTDIR K S\n";
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const char* k = std::string_view(argv[3]) == "-" ? std::getenv("CS_SCENARIO_TRACE") : argv[3];
    const int wanted = std::atoi(k ? k : ""), session = std::atoi(argv[4]);
    int index = 0;
    bool found = false, recorded = false;
    try {
        cs::test::buildScenario(text.str(), argv[1], argv[2], [&](const std::string&) -> std::unique_ptr<cs::test::TraceSink> {
            if (index++ != wanted) return std::make_unique<NullSink>();
            found = true;
            // Owned by the builder; `recorded` is read through this observer once it has finished.
            struct Observed final : CollectorSink {
                Observed(int s, bool& flag) : CollectorSink(s), m_flag(flag) {}
                void finish() override {
                    m_flag = recorded();
                    CollectorSink::finish();
                }
                bool& m_flag;
            };
            return std::make_unique<Observed>(session, recorded);
        });
    } catch (const std::exception& e) {
        std::cerr << "scenario_record: " << e.what() << "\n";
        return 2;
    }
    return !found ? 3 : recorded ? 0 : 4;
}
