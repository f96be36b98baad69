// write_demo_trace PATH [N]: writes the GUI test trace (or, with N, a synthetic trace of N spans)
// with the real TraceWriter, for scripts/screenshots.sh and manual runs.
#include "demo_trace_builder.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: write_demo_trace PATH [SPANS]\n");
        return 2;
    }
    try {
        if (argc > 2) cs::test::demo::writeSyntheticTrace(argv[1], std::atoll(argv[2]));
        else cs::test::demo::writeDemoTrace(argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "write_demo_trace: %s\n", e.what());
        return 1;
    }
    return 0;
}
