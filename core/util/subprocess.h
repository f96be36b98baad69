// Runs a command as a child process with a changed environment and its output sent to a file.
//
// Why not std::system: `measure` must give the command a private environment (cache paths) without
// touching our own, must not go through a shell that would re-split the user's arguments, must time
// the child alone, and must stop a child that hangs. POSIX only (fork + execvp), like the rest of
// the recording side.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace cs::util {

struct ProcessResult {
    int exitCode = -1;      // exit status, or 128 + signal when killed by one
    bool timedOut = false;  // killed after the timeout
    bool started = false;   // false when the program could not be executed
    double wallMs = 0;      // from fork to reaping the child
};

// Runs argv[0] (searched on PATH) with the current environment plus `envOverrides`, stdout and
// stderr both appended to `outputPath`, stdin from /dev/null. Throws std::runtime_error when the
// output file cannot be opened or fork fails.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& envOverrides,
                         const std::string& outputPath, std::chrono::milliseconds timeout);

}  // namespace cs::util
