#include "trace_sink.h"

#include "core/trace/writer.h"

namespace cs::test {

namespace {
class WriterSink final : public TraceSink {
public:
    explicit WriterSink(const std::string& path) : m_w(path, {.overwrite = true}) {}
    std::int64_t beginSession(const std::string& runtime, std::int64_t startNs) override {
        return m_w.addSession({.runtime = m_w.intern(runtime), .clock = m_w.intern("relative"), .startNs = startNs});
    }
    void endSession(std::int64_t session, std::int64_t endNs) override { m_w.endSession(session, endNs, 0); }
    void step(std::int64_t session, std::int64_t tsNs, std::int64_t step, const std::string& label) override {
        m_w.addStep({.sessionId = session, .tsNs = tsNs, .step = step, .label = label.empty() ? 0 : m_w.intern(label)});
    }
    std::int64_t lookup(const SinkLookup& l) override {
        auto id = m_w.addCacheLookup({.sessionId = l.session, .tsNs = l.tsNs, .cache = m_w.intern(l.cache),
                                      .program = m_w.intern(l.program),
                                      .handle = l.handle.empty() ? 0 : m_w.intern(l.handle), .verdict = l.verdict,
                                      .compileNs = l.compileNs,
                                      .fingerprint = l.fingerprint.empty() ? 0 : m_w.intern(l.fingerprint),
                                      .step = l.step});
        std::int64_t ordinal = 0;
        for (const auto& c : l.components) {
            auto v = m_w.intern(c.value);
            m_w.addKeyComponent({.lookupId = id, .ordinal = ordinal++, .name = m_w.intern(c.name), .role = c.role,
                                 .digest = v, .value = v});
        }
        return id;
    }
    void closure(std::int64_t lookupId, const std::string& method, std::optional<std::int64_t> world) override {
        m_w.addClosure({.lookupId = lookupId, .method = m_w.intern(method), .world = world});
    }
    void method(std::int64_t session, std::int64_t tsNs, int event, const std::string& name,
                std::optional<std::int64_t> world) override {
        m_w.addMethod({.sessionId = session, .tsNs = tsNs, .event = event, .method = m_w.intern(name), .world = world});
    }
    void counter(std::int64_t session, std::int64_t tsNs, const std::string& scope, const std::string& name,
                 std::int64_t value) override {
        m_w.addCounter({.sessionId = session, .tsNs = tsNs, .scope = m_w.intern(scope), .name = m_w.intern(name),
                        .value = value});
    }
    void finish() override { m_w.finalize(); }

private:
    trace::TraceWriter m_w;
};
}  // namespace

std::unique_ptr<TraceSink> makeWriterSink(const std::string& path) { return std::make_unique<WriterSink>(path); }

}  // namespace cs::test
