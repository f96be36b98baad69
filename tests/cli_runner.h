#pragma once

#include "app/cli/cli.h"

#include <sstream>
#include <string>
#include <vector>

namespace cs::test {

struct CliResult {
    int status;
    std::string out, err;
};

inline CliResult runCli(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    int status = cs::cli::runCli(args, out, err);
    return {status, out.str(), err.str()};
}

}  // namespace cs::test
