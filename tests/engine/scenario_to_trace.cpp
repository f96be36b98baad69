// scenario_to_trace SCENARIO.scn OUTDIR: builds a scenario's traces, for demos and for the GUI and
// report tests that want a cache trace with a known story (poisoning, holes, per-step growth).
#include "engine/scenario.h"

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: scenario_to_trace SCENARIO.scn OUTDIR\n";
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::cerr << "scenario_to_trace: cannot read " << argv[1] << "\n";
        return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
        auto built = cs::test::buildScenario(text.str(), argv[1], argv[2]);
        for (const auto& p : built.tracePaths) std::cout << p << "\n";
    } catch (const std::exception& e) {
        std::cerr << "scenario_to_trace: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
