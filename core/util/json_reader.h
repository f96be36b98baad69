// A streaming (pull) JSON reader, and a small DOM built on it for small documents.
//
// Why our own: Trace Event Format files reach gigabytes, so importers must stream them token by
// token from an istream without holding the document; and every byte is untrusted, so depth, string
// length and numbers are bounded and every error names the byte offset. Small documents (probe
// reports, measure samples) use JsonValue, built on the same reader with the same limits.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cs::util {

class JsonPullReader {
public:
    enum class Token { BeginObject, EndObject, BeginArray, EndArray, Key, String, Number, True, False, Null, End, Error };

    explicit JsonPullReader(std::istream& in, size_t maxDepth = 512, size_t maxString = 64u << 20);

    // The next token. After Error, keeps returning Error; error() says what and where.
    Token next();
    // Key and String: the unescaped UTF-8 text. Number: the literal as written.
    const std::string& text() const { return m_text; }
    double number() const;
    bool isInteger() const;  // the Number literal has no fraction or exponent and fits int64
    std::int64_t integer() const;
    // Skips the value that starts with the token just returned (for Begin*, up to its matching End*).
    // Returns false on error.
    bool skipCurrent();
    const std::string& error() const { return m_error; }
    std::uint64_t offset() const { return m_offset; }  // bytes consumed so far
    size_t depth() const { return m_stack.size(); }

private:
    int peekChar();
    int getChar();
    void skipWs();
    Token fail(const std::string& what);
    bool readString();
    bool readLiteral(std::string_view word);
    Token afterValue(Token t);

    std::istream& m_in;
    size_t m_maxDepth, m_maxString;
    std::vector<char> m_buf;
    size_t m_pos = 0, m_len = 0;
    std::uint64_t m_offset = 0;
    std::string m_text;
    std::string m_error;
    // Per open container: 'o' object, 'a' array. m_expect drives the grammar.
    std::vector<char> m_stack;
    enum class Expect { Value, KeyOrEnd, Key, Colon, CommaOrEnd, ValueOrEnd, Done } m_expect = Expect::Value;
    Token m_last = Token::End;
};

// A parsed JSON value for small documents.
class JsonValue {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    bool boolean = false;
    double num = 0;
    std::string str;  // String; also the literal of a Number
    std::vector<JsonValue> items;  // Array
    std::vector<std::pair<std::string, JsonValue>> members;  // Object, in document order

    // Out of line: clang 14 with libstdc++ 12 instantiates the vector of pairs' destructor while
    // JsonValue is still incomplete when these are implicit (the fuzz build uses clang).
    JsonValue();
    JsonValue(const JsonValue&);
    JsonValue(JsonValue&&) noexcept;
    JsonValue& operator=(const JsonValue&);
    JsonValue& operator=(JsonValue&&) noexcept;
    ~JsonValue();

    const JsonValue* get(std::string_view key) const;  // Object member or nullptr
    bool isNull() const { return type == Type::Null; }
    bool isNumber() const { return type == Type::Number; }
    bool isString() const { return type == Type::String; }
    bool isArray() const { return type == Type::Array; }
    bool isObject() const { return type == Type::Object; }
};

// Parses a whole (small) document; throws std::runtime_error("byte N: ...") on malformed input.
JsonValue parseJson(std::istream& in);
JsonValue parseJson(std::string_view text);

}  // namespace cs::util
