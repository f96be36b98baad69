// The recorder's wire parser on untrusted bytes: bad input is counted in `stats`, never a crash.
#include "test_util.h"

#include "app/recorder/wire_session.h"

#include <compilescope/wire_protocol.h>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstring>
#include <random>

namespace {

using cs::recorder::WireSession;

struct Stream {
    std::vector<unsigned char> bytes;
    template <class T>
    void add(const T& v) {
        auto* p = reinterpret_cast<const unsigned char*>(&v);
        bytes.insert(bytes.end(), p, p + sizeof v);
    }
    void text(const std::string& s) {
        bytes.insert(bytes.end(), s.begin(), s.end());
        bytes.resize(bytes.size() + (CS_WIRE_ALIGN(s.size()) - s.size()), 0);
    }
    void hello() {
        cs_wire_hello h{};
        h.magic = CS_WIRE_MAGIC;
        h.version = CS_WIRE_VERSION;
        h.pid = 42;
        h.runtime_len = 4;
        h.h = {CS_WIRE_HELLO, 0, static_cast<std::uint32_t>(sizeof h + 8)};
        add(h);
        text("unit");
    }
    void str(std::uint32_t id, const std::string& s) {
        add(cs_wire_string{{CS_WIRE_STRING, 0, static_cast<std::uint32_t>(sizeof(cs_wire_string) + CS_WIRE_ALIGN(s.size()))},
                           id, static_cast<std::uint32_t>(s.size())});
        text(s);
    }
    void span(std::uint32_t name) {
        add(cs_wire_span_complete{{CS_WIRE_SPAN_COMPLETE, 0, sizeof(cs_wire_span_complete)}, 10, 5, 0, CS_CAT_COMPILE, name, 0});
    }
};

std::int64_t scalar(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
    std::int64_t v = st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

// Parses `st` into a new trace at `path`, whole or one byte at a time (partial messages must wait
// for the rest), and returns how many bytes were consumed.
std::size_t parse(const std::string& path, const Stream& st, bool byteByByte) {
    cs::trace::TraceWriter w(path);
    WireSession s(w, nullptr, nullptr);
    std::size_t fed = 0;
    if (!byteByByte) {
        fed = static_cast<std::size_t>(s.feed(st.bytes.data(), st.bytes.size()));
    } else {
        std::vector<unsigned char> pending;
        for (unsigned char b : st.bytes) {
            pending.push_back(b);
            auto used = s.feed(pending.data(), pending.size());
            if (used < 0) break;
            pending.erase(pending.begin(), pending.begin() + used);
            fed += static_cast<std::size_t>(used);
        }
    }
    s.finish();
    w.finalize();
    return fed;
}

TEST(WireSession, ValidStreamInPiecesWritesRows) {
    cs::test::TempDir dir;
    const auto path = dir.file("w.cstrace");
    Stream st;
    st.hello();
    st.str(1, "kernel");
    for (int i = 0; i < 3; ++i) st.span(1);
    EXPECT_EQ(parse(path, st, true), st.bytes.size());
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str = 'kernel'"), 3);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM stats"), 0);
}

TEST(WireSession, BadRecordsAreCountedAndSkipped) {
    cs::test::TempDir dir;
    const auto path = dir.file("w.cstrace");
    Stream st;
    st.hello();
    st.span(7);  // string 7 never defined
    st.add(cs_wire_header{CS_WIRE_SPAN_COMPLETE, 0, 16});  // too short for a span
    st.add(std::uint64_t{0});
    st.add(cs_wire_header{200, 0, 8});  // unknown type
    st.add(cs_wire_span_end{{CS_WIRE_SPAN_END, 0, sizeof(cs_wire_span_end)}, 5, 0, 0});  // end without begin
    st.str(1, "ok");
    st.span(1);
    EXPECT_EQ(parse(path, st, false), st.bytes.size());
    EXPECT_EQ(scalar(path, "SELECT count FROM stats WHERE name = 'malformed_record'"), 4);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM spans"), 2);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM sessions WHERE end_ns IS NULL"), 1);  // no GOODBYE
}

// A 72-byte CUDA_PROGRAM with option_count = 2^30 and a module load with option_count = 2^29: their
// arrays' sizes are multiples of 2^32, which a 32-bit alignment mask once folded to 0, so the size
// check passed and the option loops read gigabytes past the message (issue 40). Each is malformed now.
TEST(WireSession, CountsWhoseSizeWrapsAt32BitsAreMalformed) {
    cs::test::TempDir dir;
    const auto path = dir.file("w.cstrace");
    Stream st;
    st.hello();
    st.str(1, "ok");
    cs_wire_cuda_program prog{};
    prog.h = {CS_WIRE_CUDA_PROGRAM, 0, sizeof prog};
    prog.option_count = 1u << 30;
    st.add(prog);
    cs_wire_module_load load{};
    load.h = {CS_WIRE_MODULE_LOAD, 0, sizeof load};
    load.name = 1;
    load.option_count = 1u << 29;
    st.add(load);
    st.span(1);
    EXPECT_EQ(sizeof prog, 72u);
    EXPECT_EQ(parse(path, st, false), st.bytes.size());
    EXPECT_EQ(scalar(path, "SELECT count FROM stats WHERE name = 'malformed_record'"), 2);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM cuda_programs"), 0);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM module_loads"), 0);
    EXPECT_EQ(scalar(path, "SELECT count(*) FROM spans"), 1);
}

TEST(WireSession, BrokenFramingAndMissingHelloCloseTheStream) {
    cs::test::TempDir dir;
    cs::trace::TraceWriter w(dir.file("w.cstrace"));
    WireSession noHello(w, nullptr, nullptr);
    Stream a;
    a.span(0);
    EXPECT_EQ(noHello.feed(a.bytes.data(), a.bytes.size()), -1);
    WireSession badSize(w, nullptr, nullptr);
    Stream b;
    b.hello();
    b.add(cs_wire_header{CS_WIRE_SPAN_COMPLETE, 0, 13});
    EXPECT_EQ(badSize.feed(b.bytes.data(), b.bytes.size()), -1);
}

TEST(WireSession, RandomBytesNeverCrash) {
    cs::test::TempDir dir;
    cs::trace::TraceWriter w(dir.file("w.cstrace"));
    std::mt19937 rng(7);
    for (int round = 0; round < 200; ++round) {
        WireSession s(w, nullptr, nullptr);
        Stream st;
        st.hello();
        std::uniform_int_distribution<int> byte(0, 255);
        // Random but plausibly framed records: valid header sizes, random types and contents.
        for (int i = 0; i < 50; ++i) {
            std::uint32_t size = 8 * static_cast<std::uint32_t>(1 + rng() % 12);
            st.add(cs_wire_header{static_cast<std::uint16_t>(rng() % 40), 0, size});
            for (std::uint32_t k = 8; k < size; ++k) st.bytes.push_back(static_cast<unsigned char>(byte(rng)));
        }
        auto used = s.feed(st.bytes.data(), st.bytes.size());
        EXPECT_LE(used, static_cast<std::ptrdiff_t>(st.bytes.size()));
        s.finish();
    }
}

}  // namespace
