// `compilescope compare BASE.json CAND.json [--ledger L.json]`: is the candidate really faster?
#include "command.h"

#include "core/measure/ledger.h"

#include "core/measure/warp_compare.h"

#include <fstream>

namespace cs::cli {

namespace {
util::JsonValue readJson(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open for reading");
    try {
        return util::parseJson(in);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(path + ": not valid JSON: " + e.what());
    }
}

int runCompare(const std::vector<std::string>& args, CommandIo& io) {
    std::vector<std::string> files;
    std::string ledgerPath;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--ledger") {
            if (++i >= args.size()) return usageError(io, "compare", "--ledger needs a file name");
            ledgerPath = args[i];
        } else if (args[i].size() > 1 && args[i][0] == '-') {
            return usageError(io, "compare", "unknown option " + args[i]);
        } else {
            files.push_back(args[i]);
        }
    }
    if (files.size() != 2) return usageError(io, "compare", "expected BASELINE and CANDIDATE report files");
    engine::warp::CompareResult result;
    std::vector<measure::LedgerRow> ledger;
    try {
        auto base = readJson(files[0]);
        auto cand = readJson(files[1]);
        if (!ledgerPath.empty()) ledger = measure::readLedger(ledgerPath).rows;
        result = engine::warp::compareReports(base, cand);
    } catch (const std::runtime_error& e) {
        io.err << "compilescope compare: " << e.what() << "\n";
        return Exit::Unreadable;
    }
    io.out << "Baseline : " << files[0] << "\nCandidate: " << files[1] << "\n\n";
    engine::warp::printComparison(result, ledger, io.out);
    using V = engine::warp::CompareVerdict;
    return result.verdict == V::Improved || result.verdict == V::Inconclusive ? Exit::Ok : Exit::CheckFailed;
}
}  // namespace

Command compareCommand() {
    return {"compare", "compare two measure reports: medians, noise band, launch topology",
            "Usage: compilescope compare BASELINE.json CANDIDATE.json [--ledger LEDGER]\n\n"
            "Reads two reports of 'compilescope measure --json' (or Warp's warp_compile_probe.py). Refuses when\n"
            "the launch topology differs (order, dim, device, dtypes, block_dim, adjoint of each launch).\n"
            "Otherwise compares cold module work medians: a delta inside max(1% of the baseline median,\n"
            "2 x the baseline MAD) is inconclusive. When the same identities and source were compiled, a rise\n"
            "in summed timers is contention, so compile elapsed decides. --ledger prints the report ledger\n"
            "(a JSON array of {option, measured, why_not_taken, to_take_it}, or the Markdown table\n"
            "| Option | Measured | Why not taken | To take it |, as `report --ledger` reads it) as a table.\n"
            "Exit status: 0 better or inconclusive, 1 worse / refused / candidate failed, 2 unreadable input.\n",
            runCompare};
}

}  // namespace cs::cli
