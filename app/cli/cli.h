// Entry point of the `compilescope` command line, callable in-process so tests need no subprocess.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace cs::cli {

// `args` excludes the program name. Returns the process exit status.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace cs::cli
