// HtmlBuilder's escaping per context, its refusals, and the SHA-256 behind the CSP hashes.
#include "core/report/html_builder.h"
#include "core/report/sha256.h"
#include "core/util/json_writer.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace cs::report;

TEST(HtmlEscape, TextAndAttributeSpecials) {
    EXPECT_EQ(escapeHtml("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST(HtmlEscape, InvalidUtf8AndControlsBecomeReplacementCharacter) {
    EXPECT_EQ(escapeHtml(std::string("a\xff" "b", 3)), "a\xEF\xBF\xBD" "b");
    EXPECT_EQ(escapeHtml(std::string("a\0b", 3)), "a\xEF\xBF\xBD" "b");
    EXPECT_EQ(escapeHtml("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a UTF-16 surrogate
    EXPECT_EQ(escapeHtml("tab\tnew\nline"), "tab\tnew\nline");
    EXPECT_EQ(escapeHtml("sep\xE2\x80\xA8" "x"), "sep\xE2\x80\xA8" "x");  // U+2028 is plain text in HTML
}

TEST(HtmlEscape, TruncationKeepsUtf8Whole) {
    EXPECT_EQ(truncateUtf8("\xC3\xA9\xC3\xA9\xC3\xA9", 2), "\xC3\xA9\xC3\xA9\xE2\x80\xA6");
    EXPECT_EQ(truncateUtf8("short", 10), "short");
}

TEST(HtmlBuilder, EscapesTextAndAttributeValues) {
    HtmlBuilder h;
    h.open("td", {{"title", "\"><script>x</script>"}}).text("</td><img src=x onerror=alert(1)>").close();
    EXPECT_EQ(h.str(), "<td title=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\">&lt;/td&gt;&lt;img src=x "
                       "onerror=alert(1)&gt;</td>");
}

TEST(HtmlBuilder, ShortTextKeepsFullNameInTitle) {
    HtmlBuilder h;
    h.shortText(std::string(50, 'x') + "<b>", 10);
    EXPECT_EQ(h.str(), "<span title=\"" + std::string(50, 'x') + "&lt;b&gt;\" class=\"cut\">" + std::string(10, 'x') +
                           "\xE2\x80\xA6</span>");
}

TEST(HtmlBuilder, RefusesUrlsHandlersAndStyleAttributes) {
    HtmlBuilder h;
    EXPECT_THROW(h.open("a", {{"href", "javascript:alert(1)"}}), std::logic_error);
    EXPECT_THROW(h.open("a", {{"href", "https://example.invalid/"}}), std::logic_error);
    EXPECT_THROW(h.open("img", {{"onerror", "x"}}), std::logic_error);
    EXPECT_THROW(h.open("div", {{"style", "color:red"}}), std::logic_error);
    EXPECT_THROW(h.open("script"), std::logic_error);
    h.open("a", {{"href", "#summary"}}).close();
    EXPECT_EQ(h.str(), "<a href=\"#summary\"></a>");
}

TEST(HtmlBuilder, JsonBlockRefusesMarkupAndJsonWriterNeverWritesIt) {
    HtmlBuilder h;
    EXPECT_THROW(h.jsonBlock("d", "{\"a\":\"</script>\"}"), std::logic_error);
    std::string quoted = cs::util::JsonWriter::quote("</script><!-- \xE2\x80\xA8 & >");
    EXPECT_EQ(quoted.find('<'), std::string::npos);
    EXPECT_EQ(quoted.find("\xE2\x80\xA8"), std::string::npos);
    h.jsonBlock("d", quoted);
    EXPECT_EQ(h.str().find("</script>"), h.str().size() - 9);  // only the block's own end tag
}

TEST(HtmlBuilder, CloseWithoutOpenIsAProgrammingError) {
    HtmlBuilder h;
    EXPECT_THROW(h.close(), std::logic_error);
}

TEST(Sha256, KnownVectors) {
    auto hex = [](std::string_view s) {
        auto d = sha256(s);
        std::string out;
        const char* digits = "0123456789abcdef";
        for (auto b : d) out += {digits[b >> 4], digits[b & 15]};
        return out;
    };
    EXPECT_EQ(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // 56 bytes: the padding needs a second block.
    EXPECT_EQ(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    EXPECT_EQ(cspHash(""), "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
}

TEST(HtmlBuilder, InlineBlocksAreHashed) {
    HtmlBuilder h;
    h.scriptBlock("var a = 1;").styleBlock("p{}");
    ASSERT_EQ(h.scriptHashes().size(), 1u);
    EXPECT_EQ(h.scriptHashes()[0], cspHash("var a = 1;"));
    EXPECT_EQ(h.styleHashes()[0], cspHash("p{}"));
}
