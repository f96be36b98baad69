// A small streaming JSON writer: correct escaping (control characters, U+2028 / U+2029, and "</" so
// the output is also safe inside an HTML <script> block), no DOM, no allocation per value beyond the
// output stream. Used by `--json` outputs, measure / compare files and the HTML report's data.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace cs::util {

class JsonWriter {
public:
    explicit JsonWriter(std::ostream& out, bool pretty = false) : m_out(out), m_pretty(pretty) {}
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view k);
    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(std::int64_t v);
    JsonWriter& value(int v) { return value(std::int64_t{v}); }
    JsonWriter& value(double v);  // non-finite values are written as null
    JsonWriter& value(bool v);
    JsonWriter& null();
    // A number literal written as given (the caller guarantees JSON number syntax): exact decimal
    // fractions such as microseconds with three decimals, which a double would round.
    JsonWriter& number(std::string_view literal);

    // The escaped string literal (with quotes) for `s`; invalid UTF-8 becomes U+FFFD.
    static std::string quote(std::string_view s);

private:
    void separator();
    void newline();
    std::ostream& m_out;
    bool m_pretty;
    std::vector<bool> m_first;  // per open container: no element written yet
    bool m_afterKey = false;
};

}  // namespace cs::util
