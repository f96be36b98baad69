// Runs the `compilescope` binary (COMPILESCOPE_CLI, set by CMake) as a process of its own, for the
// tests of a layer below the CLI that check what a user sees: they link their layer, not the CLI
// (docs/architecture.md, "Layers"). Same result as cli_runner.h's in-process runCli.
#pragma once

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

// In a namespace of its own, with cli_runner.h's names, so a test switches by its using-declaration.
namespace cs::test::process {

struct CliResult {
    int status;
    std::string out, err;
};

inline CliResult runCli(const std::vector<std::string>& args) {
    char outName[] = "/tmp/cs-cli-out-XXXXXX";
    char errName[] = "/tmp/cs-cli-err-XXXXXX";
    const int outFd = mkstemp(outName), errFd = mkstemp(errName);
    std::vector<std::string> all{COMPILESCOPE_CLI};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, outFd, 1);
    posix_spawn_file_actions_adddup2(&actions, errFd, 2);
    pid_t pid = 0;
    int status = -1;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0 && waitpid(pid, &status, 0) == pid)
        status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    else
        status = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(outFd);
    close(errFd);
    auto slurp = [](const char* name) {
        std::ifstream in(name, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        std::remove(name);
        return ss.str();
    };
    return {status, slurp(outName), slurp(errName)};
}

}  // namespace cs::test::process
