#include "core/util/json_writer.h"

#include "core/util/utf8.h"

#include <cmath>
#include <cstdio>

namespace cs::util {

std::string JsonWriter::quote(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    for (size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        size_t n = utf8SequenceLength(s, i);
        if (n == 0) {
            out += "\\ufffd";
            ++i;
            continue;
        }
        if (n == 1) {
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '<': out += "\\u003c"; break;  // never "</script>" or "<!--" inside a script block
            case '>': out += "\\u003e"; break;
            case '&': out += "\\u0026"; break;
            default:
                if (c < 0x20 || c == 0x7f) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
            }
        } else if (n == 3 && c == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
                   (static_cast<unsigned char>(s[i + 2]) == 0xA8 || static_cast<unsigned char>(s[i + 2]) == 0xA9)) {
            out += static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
        } else {
            out.append(s.substr(i, n));
        }
        i += n;
    }
    out += '"';
    return out;
}

void JsonWriter::newline() {
    if (!m_pretty) return;
    m_out << '\n';
    for (size_t i = 0; i < m_first.size(); ++i) m_out << "  ";
}

void JsonWriter::separator() {
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back()) m_out << ',';
        m_first.back() = false;
        newline();
    }
}

JsonWriter& JsonWriter::beginObject() {
    separator();
    m_out << '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    bool empty = m_first.back();
    m_first.pop_back();
    if (!empty) newline();
    m_out << '}';
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    separator();
    m_out << '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    bool empty = m_first.back();
    m_first.pop_back();
    if (!empty) newline();
    m_out << ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
    separator();
    m_out << quote(k) << (m_pretty ? ": " : ":");
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
    separator();
    m_out << quote(s);
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t v) {
    separator();
    m_out << v;
    return *this;
}

JsonWriter& JsonWriter::value(double v) {
    separator();
    if (!std::isfinite(v)) {
        m_out << "null";
        return *this;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    m_out << buf;
    return *this;
}

JsonWriter& JsonWriter::value(bool v) {
    separator();
    m_out << (v ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::number(std::string_view literal) {
    separator();
    m_out << literal;
    return *this;
}

JsonWriter& JsonWriter::null() {
    separator();
    m_out << "null";
    return *this;
}

}  // namespace cs::util
