// The one interface the scenario builder writes through.
//
// Why an interface: golden inputs are meant to be recorded the way a real runtime records them,
// through the collector API (collectors/native, issue 3). Until that lands, WriterSink writes the same
// facts with core/trace's TraceWriter; a CollectorSink over the collector C ABI replaces it without
// touching the scenario parser or any scenario file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cs::test {

struct SinkComponent {
    std::string name;
    int role = 0;        // cs_key_role
    std::string value;   // also the digest: equal values are equal components
};

struct SinkLookup {
    std::int64_t session = 0;
    std::int64_t tsNs = 0;
    std::string cache{}, program{}, handle{};
    int verdict = 0;  // cs_verdict
    std::optional<std::int64_t> compileNs{};
    std::string fingerprint{};
    std::optional<std::int64_t> step{};
    std::vector<SinkComponent> components{};
};

class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual std::int64_t beginSession(const std::string& runtime, std::int64_t startNs) = 0;
    virtual void endSession(std::int64_t session, std::int64_t endNs) = 0;
    virtual void step(std::int64_t session, std::int64_t tsNs, std::int64_t step, const std::string& label) = 0;
    virtual std::int64_t lookup(const SinkLookup& l) = 0;  // returns the lookup's id
    virtual void closure(std::int64_t lookupId, const std::string& method, std::optional<std::int64_t> world) = 0;
    virtual void method(std::int64_t session, std::int64_t tsNs, int event, const std::string& name,
                        std::optional<std::int64_t> world) = 0;
    virtual void counter(std::int64_t session, std::int64_t tsNs, const std::string& scope, const std::string& name,
                         std::int64_t value) = 0;
    virtual void finish() = 0;
};

// A sink that writes a .cstrace with TraceWriter.
std::unique_ptr<TraceSink> makeWriterSink(const std::string& path);

}  // namespace cs::test
