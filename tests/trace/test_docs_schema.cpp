// docs/trace-format.md is the public contract of the schema: every table needs a section there
// ("### `name`") that mentions each of its columns.
#include "core/trace/schema.h"
#include "test_util.h"

#include <gtest/gtest.h>

TEST(DocsSchema, EveryTableAndColumnIsDocumented) {
    std::string doc = cs::test::readFile(cs::test::sourceDir() + "/docs/trace-format.md");
    ASSERT_FALSE(doc.empty()) << "docs/trace-format.md is missing";
    std::vector<cs::trace::TableDef> tables = cs::trace::schemaTables();
    for (const auto& d : cs::trace::derivedTables()) tables.push_back(d.table);
    for (const auto& t : tables) {
        std::string heading = "### `" + std::string(t.name) + "`";
        auto at = doc.find(heading);
        ASSERT_NE(at, std::string::npos) << "docs/trace-format.md has no section " << heading;
        auto end = doc.find("\n### ", at + heading.size());
        std::string section = doc.substr(at, end == std::string::npos ? std::string::npos : end - at);
        for (const auto& c : t.columns)
            EXPECT_NE(section.find("`" + std::string(c.name) + "`"), std::string::npos)
                << "section " << heading << " does not document column `" << c.name << "`";
    }
}

TEST(DocsSchema, EveryEnumValueIsDocumented) {
    std::string doc = cs::test::readFile(cs::test::sourceDir() + "/docs/trace-format.md");
    for (const auto& e : cs::trace::enumRows())
        EXPECT_NE(doc.find(std::string(e.name)), std::string::npos) << e.type << " " << e.name;
}
