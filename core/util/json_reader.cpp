#include "core/util/json_reader.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cs::util {

JsonValue::JsonValue() = default;
JsonValue::JsonValue(const JsonValue&) = default;
JsonValue::JsonValue(JsonValue&&) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue&) = default;
JsonValue& JsonValue::operator=(JsonValue&&) noexcept = default;
JsonValue::~JsonValue() = default;

JsonPullReader::JsonPullReader(std::istream& in, size_t maxDepth, size_t maxString)
    : m_in(in), m_maxDepth(maxDepth), m_maxString(maxString), m_buf(1 << 16) {}

int JsonPullReader::peekChar() {
    if (m_pos == m_len) {
        m_in.read(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
        m_len = static_cast<size_t>(m_in.gcount());
        m_pos = 0;
        if (m_len == 0) return -1;
    }
    return static_cast<unsigned char>(m_buf[m_pos]);
}

int JsonPullReader::getChar() {
    int c = peekChar();
    if (c >= 0) {
        ++m_pos;
        ++m_offset;
    }
    return c;
}

void JsonPullReader::skipWs() {
    while (true) {
        while (m_pos < m_len) {
            char c = m_buf[m_pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
            ++m_pos;
            ++m_offset;
        }
        if (peekChar() < 0) return;  // refills the buffer, or the input ended
    }
}

JsonPullReader::Token JsonPullReader::fail(const std::string& what) {
    if (m_error.empty()) m_error = "byte " + std::to_string(m_offset) + ": " + what;
    m_last = Token::Error;
    return Token::Error;
}

namespace {
void appendUtf8(std::string& s, std::uint32_t cp) {
    if (cp < 0x80) s += static_cast<char>(cp);
    else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (cp >> 18));
        s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
}
int hexVal(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
}  // namespace

bool JsonPullReader::readString() {
    // The opening quote has been consumed.
    m_text.clear();
    while (true) {
        // Fast path: copy a run of plain characters from the buffer.
        if (m_pos < m_len) {
            size_t start = m_pos;
            while (m_pos < m_len) {
                char ch = m_buf[m_pos];
                if (ch == '"' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20) break;
                ++m_pos;
            }
            m_text.append(m_buf.data() + start, m_pos - start);
            m_offset += m_pos - start;
            if (m_text.size() > m_maxString) {
                fail("string longer than " + std::to_string(m_maxString) + " bytes");
                return false;
            }
        }
        int c = getChar();
        if (c < 0) {
            fail("unterminated string (input ends)");
            return false;
        }
        if (c == '"') return true;
        if (c < 0x20) {
            fail("control character in string");
            return false;
        }
        if (c != '\\') {
            m_text += static_cast<char>(c);
            continue;
        }
        int e = getChar();
        switch (e) {
        case '"': m_text += '"'; break;
        case '\\': m_text += '\\'; break;
        case '/': m_text += '/'; break;
        case 'b': m_text += '\b'; break;
        case 'f': m_text += '\f'; break;
        case 'n': m_text += '\n'; break;
        case 'r': m_text += '\r'; break;
        case 't': m_text += '\t'; break;
        case 'u': {
            auto read4 = [&](std::uint32_t& cp) {
                cp = 0;
                for (int i = 0; i < 4; ++i) {
                    int h = hexVal(getChar());
                    if (h < 0) return false;
                    cp = cp * 16 + static_cast<std::uint32_t>(h);
                }
                return true;
            };
            std::uint32_t cp;
            if (!read4(cp)) {
                fail("bad \\u escape");
                return false;
            }
            if (cp >= 0xD800 && cp < 0xDC00) {
                std::uint32_t lo;
                if (peekChar() == '\\') {
                    getChar();
                    if (getChar() == 'u' && read4(lo) && lo >= 0xDC00 && lo < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    } else {
                        cp = 0xFFFD;
                    }
                } else {
                    cp = 0xFFFD;
                }
            } else if (cp >= 0xDC00 && cp < 0xE000) {
                cp = 0xFFFD;
            }
            appendUtf8(m_text, cp);
            break;
        }
        default:
            fail("bad escape in string");
            return false;
        }
    }
}

bool JsonPullReader::readLiteral(std::string_view word) {
    for (char w : word)
        if (getChar() != w) {
            fail("invalid literal (expected " + std::string(word) + ")");
            return false;
        }
    return true;
}

JsonPullReader::Token JsonPullReader::afterValue(Token t) {
    m_expect = m_stack.empty() ? Expect::Done : Expect::CommaOrEnd;
    m_last = t;
    return t;
}

JsonPullReader::Token JsonPullReader::next() {
    if (m_last == Token::Error) return Token::Error;
    while (true) {
        skipWs();
        int c = peekChar();
        switch (m_expect) {
        case Expect::Done:
            if (c < 0) return m_last = Token::End;
            return fail("unexpected data after the end of the document");
        case Expect::Colon:
            if (c != ':') return fail("expected ':' after object key");
            getChar();
            m_expect = Expect::Value;
            continue;
        case Expect::CommaOrEnd:
            if (c == ',') {
                getChar();
                m_expect = m_stack.back() == 'o' ? Expect::Key : Expect::Value;
                continue;
            }
            if ((c == '}' && m_stack.back() == 'o') || (c == ']' && m_stack.back() == 'a')) {
                getChar();
                m_stack.pop_back();
                return afterValue(c == '}' ? Token::EndObject : Token::EndArray);
            }
            return fail(c < 0 ? "input ends inside a container (truncated?)" : "expected ',' or closing bracket");
        case Expect::KeyOrEnd:
            if (c == '}') {
                getChar();
                m_stack.pop_back();
                return afterValue(Token::EndObject);
            }
            [[fallthrough]];
        case Expect::Key:
            if (c != '"') return fail(c < 0 ? "input ends inside an object (truncated?)" : "expected a string key");
            getChar();
            if (!readString()) return Token::Error;
            m_expect = Expect::Colon;
            return m_last = Token::Key;
        case Expect::ValueOrEnd:
            if (c == ']') {
                getChar();
                m_stack.pop_back();
                return afterValue(Token::EndArray);
            }
            [[fallthrough]];
        case Expect::Value:
            break;
        }
        // A value.
        if (c < 0) return fail(m_stack.empty() && m_offset == 0 ? "empty input" : "input ends where a value was expected (truncated?)");
        if (c == '{' || c == '[') {
            if (m_stack.size() >= m_maxDepth) return fail("nesting deeper than " + std::to_string(m_maxDepth));
            getChar();
            m_stack.push_back(c == '{' ? 'o' : 'a');
            m_expect = c == '{' ? Expect::KeyOrEnd : Expect::ValueOrEnd;
            return m_last = (c == '{' ? Token::BeginObject : Token::BeginArray);
        }
        if (c == '"') {
            getChar();
            if (!readString()) return Token::Error;
            return afterValue(Token::String);
        }
        if (c == 't') return readLiteral("true") ? afterValue(Token::True) : Token::Error;
        if (c == 'f') return readLiteral("false") ? afterValue(Token::False) : Token::Error;
        if (c == 'n') return readLiteral("null") ? afterValue(Token::Null) : Token::Error;
        if (c == '-' || (c >= '0' && c <= '9')) {
            m_text.clear();
            while (true) {
                // Fast path: take the run of number characters already in the buffer at once.
                size_t start = m_pos;
                while (m_pos < m_len && m_pos - start <= 64) {
                    char ch = m_buf[m_pos];
                    if ((ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.' || ch == 'e' || ch == 'E') ++m_pos;
                    else break;
                }
                m_text.append(m_buf.data() + start, m_pos - start);
                m_offset += m_pos - start;
                if (m_text.size() > 64) return fail("number literal too long");
                if (m_pos < m_len) break;  // stopped at a non-number character
                int d = peekChar();  // buffer exhausted: refill and continue
                if ((d >= '0' && d <= '9') || d == '-' || d == '+' || d == '.' || d == 'e' || d == 'E') {
                    m_text += static_cast<char>(getChar());
                    if (m_text.size() > 64) return fail("number literal too long");
                } else {
                    break;
                }
            }
            double v;
            auto [p, ec] = std::from_chars(m_text.data(), m_text.data() + m_text.size(), v);
            if (p != m_text.data() + m_text.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
                return fail("bad number \"" + m_text + "\"");
            return afterValue(Token::Number);
        }
        return fail(std::string("unexpected character '") + static_cast<char>(c) + "'");
    }
}

double JsonPullReader::number() const {
    double v = 0;
    std::from_chars(m_text.data(), m_text.data() + m_text.size(), v);
    return v;
}

bool JsonPullReader::isInteger() const {
    std::int64_t v;
    auto [p, ec] = std::from_chars(m_text.data(), m_text.data() + m_text.size(), v);
    return ec == std::errc() && p == m_text.data() + m_text.size();
}

std::int64_t JsonPullReader::integer() const {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(m_text.data(), m_text.data() + m_text.size(), v);
    if (ec == std::errc() && p == m_text.data() + m_text.size()) return v;
    double d = number();
    if (!std::isfinite(d)) return 0;
    if (d >= 9.2e18) return INT64_MAX;
    if (d <= -9.2e18) return INT64_MIN;
    return static_cast<std::int64_t>(d);
}

bool JsonPullReader::skipCurrent() {
    if (m_last == Token::Key) {
        Token t = next();
        if (t == Token::Error) return false;
    }
    if (m_last != Token::BeginObject && m_last != Token::BeginArray) return m_last != Token::Error;
    size_t target = m_stack.size() - 1;
    while (m_stack.size() > target) {
        if (next() == Token::Error) return false;
    }
    return true;
}

const JsonValue* JsonValue::get(std::string_view key) const {
    for (const auto& [k, v] : members)
        if (k == key) return &v;
    return nullptr;
}

namespace {
using T = JsonPullReader::Token;
[[noreturn]] void raise(const JsonPullReader& r) { throw std::runtime_error(r.error()); }

JsonValue build(JsonPullReader& r, T t) {
    JsonValue v;
    switch (t) {
    case T::Null: return v;
    case T::True: v.type = JsonValue::Type::Bool; v.boolean = true; return v;
    case T::False: v.type = JsonValue::Type::Bool; return v;
    case T::Number: v.type = JsonValue::Type::Number; v.num = r.number(); v.str = r.text(); return v;
    case T::String: v.type = JsonValue::Type::String; v.str = r.text(); return v;
    case T::BeginArray:
        v.type = JsonValue::Type::Array;
        for (T n = r.next(); n != T::EndArray; n = r.next()) {
            if (n == T::Error) raise(r);
            v.items.push_back(build(r, n));
        }
        return v;
    case T::BeginObject:
        v.type = JsonValue::Type::Object;
        for (T n = r.next(); n != T::EndObject; n = r.next()) {
            if (n != T::Key) raise(r);
            std::string key = r.text();
            T vt = r.next();
            if (vt == T::Error) raise(r);
            v.members.emplace_back(std::move(key), build(r, vt));
        }
        return v;
    default: raise(r);
    }
}
}  // namespace

JsonValue parseJson(std::istream& in) {
    JsonPullReader r(in);
    T t = r.next();
    if (t == T::Error) raise(r);
    JsonValue v = build(r, t);
    if (r.next() != T::End) raise(r);
    return v;
}

JsonValue parseJson(std::string_view text) {
    std::istringstream in{std::string(text)};
    return parseJson(in);
}

}  // namespace cs::util
