// A failed import leaves nothing that reads as a trace (issue 40): an import that failed half way
// (here: the file size limit, as on a full disk) left a file that read as a valid, empty trace.
#include "cli_runner.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using cs::test::runCli;

TEST(FailedImport, LeavesNoFileBehindAndSaysWhy) {
    cs::test::TempDir dir;
    const std::string in = dir.file("big.json"), out = dir.file("t.cstrace"), err = dir.file("err.txt");
    {
        std::ofstream f(in);
        f << "{\"traceEvents\": [";
        for (int i = 0; i < 200000; ++i)
            f << (i ? "," : "") << "{\"name\": \"compile " << i << "\", \"ph\": \"X\", \"ts\": " << i
              << ", \"dur\": 1, \"pid\": 1, \"tid\": 1}";
        f << "]}";
    }
    const std::uint64_t inputBytes = std::filesystem::file_size(in);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        // The child writes at most 2 MiB per file: room for the schema, not for the 200,000 spans.
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{2u << 20, 2u << 20};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        auto r = runCli({"import", in, "-o", out});
        std::ofstream(err) << r.err.substr(0, 4096);
        ::_exit(r.status);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 2);
    const std::string message = cs::test::readFile(err);
    EXPECT_NE(message.find(out), std::string::npos) << message;
    EXPECT_FALSE(std::filesystem::exists(out)) << "a failed import left " << out << " (" << inputBytes << " bytes of input)";
    EXPECT_FALSE(std::filesystem::exists(out + "-journal"));
}
