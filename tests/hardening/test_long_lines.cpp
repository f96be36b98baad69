// A line of hundreds of megabytes in an imported log (issue 40: a 2 GiB name cost 8.4 GB of memory,
// then failed with "NOT NULL constraint failed"): counted as a malformed record naming its line and
// length, left out, the lines around it imported, and the import's memory bounded by the line bound
// (core/ingest/import_lines.h), not by the line.
#include "cli_runner.h"
#include "core/trace/reader.h"
#include "test_util.h"
#include "trace_query.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace {

TEST(LongLines, ALineOfAQuarterGigabyteIsCountedLeftOutAndCostsBoundedMemory) {
    cs::test::TempDir dir;
    const std::string log = dir.file(".ninja_log"), trace = dir.file("t.cstrace");
    {
        std::ofstream out(log, std::ios::binary);
        out << "# ninja log v5\n0\t300\t0\tobj/a.o\th1\n10\t400\t0\tobj/";
        const std::string chunk(1 << 20, 'n');
        for (int i = 0; i < 256; ++i) out << chunk;  // an output name of 256 MiB
        out << ".o\th2\n400\t600\t0\tobj/c.o\th3\n";
        ASSERT_TRUE(out.good());
    }
    // Imported by a child process, so that its peak resident memory is the import's own.
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) _exit(cs::test::runCli({"import", log, "-o", trace}).status);
    int status = 0;
    rusage usage{};
    ASSERT_EQ(::wait4(pid, &status, 0, &usage), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    // The 16 MiB bound, twice for the string's growth, and the process itself; the whole line would be
    // 256 MiB at least (std::getline held it, and the importer copied it twice more).
    if (!cs::test::kSanitizerBuild) {
        EXPECT_LT(usage.ru_maxrss, 150 * 1024) << "peak RSS in KiB";
    }

    auto reader = cs::trace::TraceReader::open(trace);
    EXPECT_EQ(cs::test::scalar(*reader, "SELECT count(*) FROM spans"), 2);  // the lines around it
    EXPECT_EQ(cs::test::scalar(*reader, "SELECT count(*) FROM stats WHERE name = 'malformed_record' AND detail LIKE "
                                        "'%.ninja_log line 3: a line of 268,435,47_ bytes, longer than the 16.0 MiB a "
                                        "line may have; left out'"),
              1);
    auto info = cs::test::runCli({"info", trace});
    EXPECT_NE(info.out.find("malformed_record"), std::string::npos) << info.out;
}

}  // namespace
