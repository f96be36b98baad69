// A PrecompileTools workload built from Julia's `--trace-compile` statements, grouped by package,
// leaving out the statements no top-level code can name.
//
// Why these rules: a workload (or a `precompile` line) is code in a package's module; it can only
// name a type that module can name at top level. SnoopCompile drops the same classes when it writes
// precompile files: closures and other gensym'd names (`var"#f#12"`, renamed on every build), types
// defined in Main (a script or the REPL, which no package sees), Core.Compiler internals, and
// signatures it cannot parse. Each left-out statement is kept, with its class's reason, so the user
// sees what the workload does not cover. Rules and output: docs/fix.md ("Julia").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cs::engine::fix {

// Why `signature` (a --trace-compile signature, `Tuple{...}`) cannot be named at top level; "" when it
// can. The reasons are the class names printed by `fix` (one per SnoopCompile rule).
std::string unnameableReason(std::string_view signature);

// The package a statement belongs in: the top module of the called function (`typeof(Requires.err)`
// -> Requires, `Type{REPL.Terminals.TTYTerminal}` -> REPL). A Base or Core function goes with the
// first other package its arguments name (only that package can name all its types); otherwise Base.
std::string packageOf(std::string_view signature);

struct JuliaInput {
    std::string signature;  // Tuple{...}
    std::int64_t ns = -1;   // its --trace-compile-timing time; -1 untimed
};

struct JuliaWorkload {
    struct Package {
        std::string name;
        std::vector<std::string> signatures;  // log order, each once
        std::int64_t timedNs = 0;
    };
    struct Excluded {
        std::string reason;
        std::vector<std::string> signatures;  // log order, each once
    };
    std::vector<Package> packages;  // in order of first statement
    std::vector<Excluded> excluded; // in order of first statement
    size_t statements = 0;          // distinct signatures read
    size_t nameable = 0;
    std::int64_t timedNs = 0;       // time of the nameable statements that carry one
    bool timed = false;             // at least one nameable statement carries a time
};

JuliaWorkload buildJuliaWorkload(const std::vector<JuliaInput>& statements);

// The Julia text: a header of comments (counts, each left-out statement under its reason), then one
// `@setup_workload begin @compile_workload begin precompile(...) end end` block per package.
std::string workloadText(const JuliaWorkload& w);

}  // namespace cs::engine::fix
