// `compilescope sql --format`: the table cuts long cells for reading; CSV and JSON keep them whole.
#include "cli_runner.h"
#include "test_util.h"

#include "core/trace/writer.h"
#include "core/util/json_reader.h"

#include <gtest/gtest.h>

namespace cs::test {
namespace {

// A trace holding one string longer than the table's 200-character cells, with a comma and a quote.
std::string traceWithLongName(const TempDir& dir, const std::string& name) {
    std::string path = dir.file("t.cstrace");
    trace::TraceWriter w(path, {});
    w.intern(name);
    w.finalize();
    return path;
}

TEST(SqlFormat, CsvAndJsonAreNotTruncated) {
    TempDir dir;
    const std::string name = "Table<" + std::string(300, 'x') + ", \"q\">";
    const std::string trace = traceWithLongName(dir, name);
    const std::string query = "SELECT id, str, length(str) AS n, NULL AS missing FROM strings WHERE length(str) > 200";

    auto table = runCli({"sql", trace, query});
    ASSERT_EQ(table.status, 0) << table.err;
    EXPECT_EQ(table.out.find(name), std::string::npos) << "the table form cuts long cells";

    auto csv = runCli({"sql", trace, query, "--format", "csv"});
    ASSERT_EQ(csv.status, 0) << csv.err;
    std::string quoted = "\"Table<" + std::string(300, 'x') + ", \"\"q\"\">\"";
    EXPECT_NE(csv.out.find("id,str,n,missing\r\n"), std::string::npos) << csv.out;
    EXPECT_NE(csv.out.find("," + quoted + "," + std::to_string(name.size()) + ",\r\n"), std::string::npos) << csv.out;

    auto json = runCli({"sql", trace, "--format", "json", query});
    ASSERT_EQ(json.status, 0) << json.err;
    util::JsonValue v = util::parseJson(json.out);
    ASSERT_TRUE(v.isArray());
    ASSERT_EQ(v.items.size(), 1u);
    EXPECT_EQ(v.items[0].get("str")->str, name);
    EXPECT_TRUE(v.items[0].get("n")->isNumber());
    EXPECT_TRUE(v.items[0].get("missing")->isNull());
}

TEST(SqlFormat, UnknownFormatIsAUsageError) {
    TempDir dir;
    auto r = runCli({"sql", traceWithLongName(dir, "x"), "SELECT 1", "--format", "xml"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown format \"xml\""), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cs::test
