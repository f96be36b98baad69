// The JSON reader and writer: escaping that is safe in HTML script blocks, streaming tokens, and
// clear byte-offset errors on malformed input.
#include "core/util/json_reader.h"
#include "core/util/json_writer.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace cs::util;

TEST(JsonWriter, EscapesForScriptBlocks) {
    std::string q = JsonWriter::quote("</script><img src=x onerror=alert(1)>\"\\\n\x01 \xe2\x80\xa8 \xe2\x80\xa9 &");
    EXPECT_EQ(q.find("</"), std::string::npos);
    EXPECT_EQ(q.find('<'), std::string::npos);
    EXPECT_NE(q.find("\\u2028"), std::string::npos);
    EXPECT_NE(q.find("\\u2029"), std::string::npos);
    EXPECT_NE(q.find("\\u0001"), std::string::npos);
    EXPECT_EQ(parseJson(q).str, "</script><img src=x onerror=alert(1)>\"\\\n\x01 \xe2\x80\xa8 \xe2\x80\xa9 &");
}

TEST(JsonWriter, InvalidUtf8BecomesReplacement) {
    EXPECT_EQ(JsonWriter::quote("a\xff" "b"), "\"a\\ufffdb\"");
}

TEST(JsonWriter, NestedDocumentRoundTrips) {
    std::ostringstream out;
    JsonWriter w(out);
    w.beginObject().key("a").value(1).key("b").beginArray().value("x").value(2.5).value(true).null().endArray();
    w.key("c").beginObject().endObject().endObject();
    EXPECT_EQ(out.str(), R"({"a":1,"b":["x",2.5,true,null],"c":{}})");
    auto v = parseJson(out.str());
    ASSERT_TRUE(v.isObject());
    EXPECT_EQ(v.get("b")->items.size(), 4u);
    EXPECT_EQ(v.get("b")->items[1].num, 2.5);
}

TEST(JsonReader, StreamsTokens) {
    std::istringstream in(R"([{}, {"ph":"X","ts":1.5,"dur":10,"args":{"detail":"a\u00e9"}}])");
    JsonPullReader r(in);
    using T = JsonPullReader::Token;
    std::vector<T> seen;
    for (T t = r.next(); t != T::End; t = r.next()) {
        ASSERT_NE(t, T::Error) << r.error();
        seen.push_back(t);
        if (t == T::String && r.depth() == 3) {
            EXPECT_EQ(r.text(), "a\xc3\xa9");
        }
    }
    EXPECT_EQ(seen.size(), 17u);
}

TEST(JsonReader, SkipCurrentSkipsNestedValues) {
    std::istringstream in(R"({"skip":{"a":[1,2,{"b":3}]},"keep":7})");
    JsonPullReader r(in);
    using T = JsonPullReader::Token;
    ASSERT_EQ(r.next(), T::BeginObject);
    ASSERT_EQ(r.next(), T::Key);
    ASSERT_TRUE(r.skipCurrent());
    ASSERT_EQ(r.next(), T::Key);
    EXPECT_EQ(r.text(), "keep");
    ASSERT_EQ(r.next(), T::Number);
    EXPECT_EQ(r.integer(), 7);
}

TEST(JsonReader, TruncatedInputNamesTheByte) {
    std::istringstream in(R"({"traceEvents":[{"ph":"X")");
    JsonPullReader r(in);
    while (true) {
        auto t = r.next();
        if (t == JsonPullReader::Token::Error) break;
        ASSERT_NE(t, JsonPullReader::Token::End);
    }
    EXPECT_NE(r.error().find("byte 25"), std::string::npos) << r.error();
    EXPECT_NE(r.error().find("truncated"), std::string::npos) << r.error();
}

TEST(JsonReader, RejectsGarbageClearly) {
    for (std::string bad : {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"abc", "[1] 2", "{\"a\":01x}", "\"\\q\""}) {
        EXPECT_THROW(parseJson(bad), std::runtime_error) << bad;
    }
}

TEST(JsonReader, DepthIsBounded) {
    std::string deep(100000, '[');
    std::istringstream in(deep);
    JsonPullReader r(in);
    JsonPullReader::Token t;
    do t = r.next();
    while (t != JsonPullReader::Token::Error && t != JsonPullReader::Token::End);
    EXPECT_EQ(t, JsonPullReader::Token::Error);
    EXPECT_NE(r.error().find("nesting deeper"), std::string::npos);
}

TEST(JsonReader, LargeIntegersAndSurrogates) {
    auto v = parseJson(R"([9007199254740993, "\ud83d\ude00", "\ud800x"])");
    std::istringstream in("9007199254740993");
    JsonPullReader r(in);
    r.next();
    EXPECT_EQ(r.integer(), 9007199254740993LL);
    EXPECT_EQ(v.items[1].str, "\xf0\x9f\x98\x80");
    EXPECT_EQ(v.items[2].str, "\xef\xbf\xbdx");
}
