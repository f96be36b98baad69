// HtmlBuilder: writes the report's markup so that escaping is the default, not a duty.
//
// Why this shape: every name in a trace is untrusted (a Julia method, a Warp module, a kernel can be
// called `</script><img onerror=...>`), and HTML has three contexts with different rules: text,
// attribute values and script data. Here the program's own markup (tag names, attribute names, the
// fixed CSS and JS) can only come from string literals (`Trusted` has a consteval constructor), while
// every runtime string goes through `text()` or an attribute value and is escaped for that context.
// URLs are not a context we support: an `href` may only be an in-page `#fragment`. JSON reaches the
// page only inside <script type="application/json">, written by JsonWriter, which never emits `<`.
// Inline <style> and <script> blocks are hashed as they are written, for the Content-Security-Policy.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace cs::report {

// Markup written by this program: constructible only from a compile-time string.
class Trusted {
public:
    template <size_t N>
    consteval Trusted(const char (&s)[N]) : m_view(s, N - 1) {}
    std::string_view view() const { return m_view; }

private:
    std::string_view m_view;
};

// One attribute: the name is ours, the value is escaped.
struct Attr {
    Attr(Trusted n, std::string_view v) : name(n), value(v) {}
    Attr(Trusted n, const char* v) : name(n), value(v) {}
    Attr(Trusted n, const std::string& v) : name(n), value(v) {}
    Attr(Trusted n, std::int64_t v) : name(n), value(std::to_string(v)) {}
    Attr(Trusted n, int v) : name(n), value(std::to_string(v)) {}
    Attr(Trusted n, double v);  // fixed, two decimals
    Trusted name;
    std::string value;
};

// Escapes & < > " ' and replaces invalid UTF-8 and control characters (except tab / newline) with
// U+FFFD. Safe in element text and in double-quoted attribute values alike.
std::string escapeHtml(std::string_view s);
// At most `maxChars` code points of `s`, ending in "…" when cut (never inside a UTF-8 sequence).
std::string truncateUtf8(std::string_view s, size_t maxChars);

class HtmlBuilder {
public:
    HtmlBuilder& open(Trusted tag, std::initializer_list<Attr> attrs = {});
    HtmlBuilder& close();  // closes the innermost open element
    HtmlBuilder& closeAll(size_t depth);  // closes until `depth` elements stay open
    size_t depth() const { return m_open.size(); }
    // A void element (<meta>, <input>, <br>): no content, no close.
    HtmlBuilder& single(Trusted tag, std::initializer_list<Attr> attrs = {});
    // open(tag, attrs), text(content), close().
    HtmlBuilder& leaf(Trusted tag, std::string_view content, std::initializer_list<Attr> attrs = {});
    HtmlBuilder& text(std::string_view s);
    // Text shortened to `maxChars` code points; a cut name keeps its full text (up to 4096 chars) in
    // a title attribute of a <span>, so nothing is lost to the reader and the file stays small.
    HtmlBuilder& shortText(std::string_view s, size_t maxChars);
    HtmlBuilder& markup(Trusted fixed);
    // <style>css</style> and <script>js</script>, hashed for the CSP.
    HtmlBuilder& styleBlock(Trusted css);
    HtmlBuilder& scriptBlock(Trusted js);
    // <script type="application/json" id="id">json</script>. Throws std::logic_error when `json`
    // contains '<' (JsonWriter never writes one), so script data can never close its element.
    HtmlBuilder& jsonBlock(Trusted id, const std::string& json);
    // Appends another builder's (closed) output.
    HtmlBuilder& append(const HtmlBuilder& other);

    const std::string& str() const { return m_out; }
    const std::vector<std::string>& styleHashes() const { return m_styleHashes; }
    const std::vector<std::string>& scriptHashes() const { return m_scriptHashes; }

private:
    void checkAttrs(std::initializer_list<Attr> attrs) const;
    void writeAttrs(std::initializer_list<Attr> attrs);
    std::string m_out;
    std::vector<std::string_view> m_open;
    std::vector<std::string> m_styleHashes, m_scriptHashes;
};

}  // namespace cs::report
