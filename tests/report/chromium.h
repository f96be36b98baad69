// Runs the real headless Chromium on a local file and returns what it printed: the DOM after the
// page's scripts ran (--dump-dom), or a screenshot, plus every console message (Chromium logs them
// to stderr as "INFO:CONSOLE" lines with --enable-logging=stderr).
//
// The binary is /usr/bin/chromium (Debian's package, installed by packaging/install-deps.sh) unless
// COMPILESCOPE_CHROMIUM names another; a test without it skips and prints why.
#pragma once

#include "test_util.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace cs::test {

inline std::string chromiumPath() {
    const char* env = std::getenv("COMPILESCOPE_CHROMIUM");
    std::string p = env && *env ? env : "/usr/bin/chromium";
    std::error_code ec;
    return std::filesystem::exists(p, ec) ? p : std::string();
}

struct ChromiumRun {
    int status = -1;
    std::string out;                   // stdout: the dumped DOM
    std::vector<std::string> console;  // console messages, CSP violations and uncaught exceptions
    std::string log;                   // all of stderr, for failure messages
};

inline std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// `mode` is "--dump-dom" or "--screenshot=PATH". Network is off: the report must not need it.
inline ChromiumRun runChromium(const std::string& htmlPath, const std::string& mode, const TempDir& dir,
                               const std::string& windowSize = "1280,2400") {
    ChromiumRun r;
    std::string profile = dir.file("chromium-profile-" + std::to_string(std::rand()));
    std::filesystem::create_directories(profile);
    std::string outFile = dir.file("chromium.out"), errFile = dir.file("chromium.err");
    std::string cmd = "timeout 120 " + shellQuote(chromiumPath()) +
                      " --headless --no-sandbox --disable-gpu --disable-background-networking"
                      " --disable-component-update --disable-sync --no-first-run --disable-extensions"
                      " --enable-logging=stderr --v=0 --user-data-dir=" + shellQuote(profile) +
                      " --window-size=" + windowSize + " " + shellQuote(mode) + " " +
                      shellQuote("file://" + std::filesystem::absolute(htmlPath).string()) + " >" +
                      shellQuote(outFile) + " 2>" + shellQuote(errFile);
    r.status = std::system(cmd.c_str());
    r.out = readFile(outFile);
    r.log = readFile(errFile);
    std::istringstream lines(r.log);
    std::string line;
    while (std::getline(lines, line))
        if (line.find(":CONSOLE") != std::string::npos) r.console.push_back(line);
    return r;
}

#define REQUIRE_CHROMIUM()                                                                                       \
    if (cs::test::chromiumPath().empty())                                                                      \
    GTEST_SKIP() << "no Chromium at /usr/bin/chromium (or $COMPILESCOPE_CHROMIUM); packaging/install-deps.sh " \
                    "installs it"

// Every console message of a run, one a line, for failure messages.
inline std::string consoleText(const ChromiumRun& r) {
    std::string s;
    for (const auto& l : r.console) s += l + "\n";
    return s;
}

// Occurrences of `needle` in `hay`.
inline size_t countOf(const std::string& hay, const std::string& needle) {
    size_t n = 0;
    for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + needle.size())) ++n;
    return n;
}

}  // namespace cs::test
