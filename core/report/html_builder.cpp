#include "core/report/html_builder.h"

#include "core/report/sha256.h"

#include "core/util/utf8.h"

#include <cstdio>
#include <stdexcept>

namespace cs::report {

namespace {
using util::utf8SequenceLength;

// A name the builder accepts for tags and attributes: [a-z0-9-] only (also guards literals).
void checkName(std::string_view name) {
    if (name.empty()) throw std::logic_error("empty HTML name");
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || (c >= 'A' && c <= 'Z')))
            throw std::logic_error("bad HTML name: " + std::string(name));
}

bool wordChar(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'; }

// A page of a split report, relative to the current one: [../][dir/]name.html[#fragment], every name
// of [A-Za-z0-9_-]. No scheme, no host, no query, nothing a browser could resolve outside the folder
// beyond one level up.
bool pageLink(std::string_view v) {
    if (v.substr(0, 3) == "../") v.remove_prefix(3);
    std::string_view fragment;
    if (auto hash = v.find('#'); hash != std::string_view::npos) {
        fragment = v.substr(hash + 1);
        v = v.substr(0, hash);
        if (fragment.empty()) return false;
    }
    for (char c : fragment)
        if (!wordChar(c)) return false;
    if (v.size() < 6 || v.substr(v.size() - 5) != ".html") return false;
    v.remove_suffix(5);
    const auto slash = v.find('/');
    if (slash != std::string_view::npos && (slash == 0 || slash + 1 == v.size() || v.find('/', slash + 1) != v.npos))
        return false;
    for (char c : v)
        if (!wordChar(c) && c != '/') return false;
    return !v.empty();
}

// Attributes whose value the browser treats as a URL or as code. Only in-page fragments and pages of
// a split report are allowed as URLs; event handlers are never written.
void checkAttr(std::string_view name, std::string_view value) {
    if (name.size() > 2 && name.substr(0, 2) == "on") throw std::logic_error("event handler attribute refused");
    if (name == "style") throw std::logic_error("style attribute refused (the CSP blocks it)");
    if (name == "src" || name == "action" || name == "xlink:href" || name == "formaction")
        throw std::logic_error("no " + std::string(name) + " URLs are written");
    if (name == "href" && !(!value.empty() && value[0] == '#') && !pageLink(value))
        throw std::logic_error("only #fragment and split-report page URLs may be written");
}
}  // namespace

Attr::Attr(Trusted n, double v) : name(n) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    value = buf;
}

std::string escapeHtml(std::string_view s) {
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (size_t i = 0; i < s.size();) {
        size_t n = utf8SequenceLength(s, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
            continue;
        }
        if (n == 1) {
            char c = s[i];
            switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default:
                if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
                    out += "\xEF\xBF\xBD";
                else
                    out += c;
            }
        } else {
            out.append(s.substr(i, n));
        }
        i += n;
    }
    return out;
}

std::string truncateUtf8(std::string_view s, size_t maxChars) {
    size_t chars = 0, i = 0;
    while (i < s.size() && chars < maxChars) {
        size_t n = utf8SequenceLength(s, i);
        i += n ? n : 1;
        ++chars;
    }
    if (i >= s.size()) return std::string(s);
    return std::string(s.substr(0, i)) + "\xE2\x80\xA6";
}

void HtmlBuilder::writeAttrs(std::initializer_list<Attr> attrs) {
    for (const auto& a : attrs) {
        m_out += ' ';
        m_out += a.name.view();
        m_out += "=\"";
        m_out += escapeHtml(a.value);
        m_out += '"';
    }
}

void HtmlBuilder::checkAttrs(std::initializer_list<Attr> attrs) const {
    for (const auto& a : attrs) {
        checkName(a.name.view());
        checkAttr(a.name.view(), a.value);
    }
}

HtmlBuilder& HtmlBuilder::open(Trusted tag, std::initializer_list<Attr> attrs) {
    checkName(tag.view());
    checkAttrs(attrs);  // before writing anything: a refused attribute leaves no partial tag
    if (tag.view() == "script" || tag.view() == "style")
        throw std::logic_error("use scriptBlock / styleBlock / jsonBlock");
    m_out += '<';
    m_out += tag.view();
    writeAttrs(attrs);
    m_out += '>';
    m_open.push_back(tag.view());
    return *this;
}

HtmlBuilder& HtmlBuilder::close() {
    if (m_open.empty()) throw std::logic_error("close() without open()");
    m_out += "</";
    m_out += m_open.back();
    m_out += '>';
    m_open.pop_back();
    return *this;
}

HtmlBuilder& HtmlBuilder::closeAll(size_t keep) {
    while (m_open.size() > keep) close();
    return *this;
}

HtmlBuilder& HtmlBuilder::single(Trusted tag, std::initializer_list<Attr> attrs) {
    checkName(tag.view());
    checkAttrs(attrs);
    m_out += '<';
    m_out += tag.view();
    writeAttrs(attrs);
    m_out += '>';
    return *this;
}

HtmlBuilder& HtmlBuilder::leaf(Trusted tag, std::string_view content, std::initializer_list<Attr> attrs) {
    open(tag, attrs);
    text(content);
    return close();
}

HtmlBuilder& HtmlBuilder::text(std::string_view s) {
    m_out += escapeHtml(s);
    return *this;
}

HtmlBuilder& HtmlBuilder::shortText(std::string_view s, size_t maxChars) {
    std::string cut = truncateUtf8(s, maxChars);
    if (cut.size() == s.size()) return text(s);
    open("span", {{"title", truncateUtf8(s, 4096)}, {"class", "cut"}});
    text(cut);
    return close();
}

HtmlBuilder& HtmlBuilder::markup(Trusted fixed) {
    m_out += fixed.view();
    return *this;
}

HtmlBuilder& HtmlBuilder::styleBlock(Trusted css) {
    m_styleHashes.push_back(cspHash(css.view()));
    m_out += "<style>";
    m_out += css.view();
    m_out += "</style>";
    return *this;
}

HtmlBuilder& HtmlBuilder::scriptBlock(Trusted js) {
    m_scriptHashes.push_back(cspHash(js.view()));
    m_out += "<script>";
    m_out += js.view();
    m_out += "</script>";
    return *this;
}

HtmlBuilder& HtmlBuilder::jsonBlock(Trusted id, const std::string& json) {
    if (json.find('<') != std::string::npos) throw std::logic_error("script data must not contain '<'");
    m_out += "<script type=\"application/json\" id=\"";
    m_out += escapeHtml(id.view());
    m_out += "\">";
    m_out += json;
    m_out += "</script>";
    return *this;
}

HtmlBuilder& HtmlBuilder::append(const HtmlBuilder& other) {
    if (!other.m_open.empty()) throw std::logic_error("append() of an unclosed builder");
    m_out += other.m_out;
    for (const auto& h : other.m_styleHashes) m_styleHashes.push_back(h);
    for (const auto& h : other.m_scriptHashes) m_scriptHashes.push_back(h);
    return *this;
}

}  // namespace cs::report
