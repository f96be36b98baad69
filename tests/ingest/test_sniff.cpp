// The registry's sniffing stops early (importers asked by their maxSniffScore); it must pick exactly
// the importer that asking every importer picks, for every real input the tests hold and for cut
// heads of them, and no importer may score above the cap it declares.
#include "core/ingest/import_files.h"
#include "core/ingest/importer_registry.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace {
namespace fs = std::filesystem;
using cs::ingest::ImporterRegistry;

std::vector<fs::path> sampleInputs() {
    std::vector<fs::path> out;
    for (const char* dir : {"tests/data", "tests/fuzz/corpus", "tests/fuzz/regressions"}) {
        const fs::path root = fs::path(COMPILESCOPE_SOURCE_DIR) / dir;
        if (!fs::exists(root)) continue;
        for (const auto& e : fs::recursive_directory_iterator(root))
            if (e.is_regular_file() && e.file_size() > 0) out.push_back(e.path());
    }
    return out;
}

std::string name(const ImporterRegistry& reg, std::string_view head, std::string_view file, bool all) {
    const auto* imp = all ? reg.sniffAll(head, file) : reg.sniff(head, file);
    return imp ? std::string(imp->id()) : std::string("(none)");
}

TEST(Sniff, StoppingEarlyPicksWhatAskingEveryImporterPicks) {
    const auto& reg = ImporterRegistry::builtin();
    const auto inputs = sampleInputs();
    ASSERT_GT(inputs.size(), 40u) << "the test inputs moved";
    std::vector<std::pair<std::string, std::string>> cases;
    for (const auto& p : inputs) {
        const std::string head = cs::ingest::readHead(p.string());
        for (std::size_t cut : {head.size(), std::size_t{4096}, std::size_t{300}, std::size_t{40}})
            cases.emplace_back(head.substr(0, cut), p.filename().string());
    }
    // Shapes the files above may not hold, as the tools print them.
    cases.emplace_back("{\"traceEvents\":[{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"ts\":0,\"dur\":5,\"name\":\"Source\"}],"
                       "\"beginningOfTime\":1700000000000000}", "main.cpp.json");
    cases.emplace_back("[{\"ph\":\"B\",\"ts\":1,\"name\":\"a\",\"pid\":1,\"tid\":1}]", "trace.json");
    cases.emplace_back("# ninja log v5\n0\t120\t0\tobj/a.o\t1a2b3c\n", ".ninja_log");
    cases.emplace_back("{}", "empty.json");
    cases.emplace_back("", ".ninja_log");
    std::set<std::string> picked;
    for (const auto& [head, file] : cases) {
        const std::string all = name(reg, head, file, true);
        EXPECT_EQ(name(reg, head, file, false), all) << file << ", " << head.size() << " bytes";
        picked.insert(all);
        for (const auto& imp : reg.all())
            EXPECT_LE(imp->sniff(head, file), imp->maxSniffScore()) << imp->id() << " on " << file;
    }
    // The inputs reach most importers, so the early stop is exercised against many winners.
    EXPECT_GE(picked.size(), 8u);
}

}  // namespace
