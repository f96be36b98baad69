// The Python start-up hook CompileScope puts in front of a Warp program: a `sitecustomize` module
// placed first on PYTHONPATH.
//
// Why sitecustomize: it runs before the program's first import however the program is started
// (`python app.py`, `python -m pkg`, a test runner), without editing the program. It must stay
// additive and harmless: it chains to a sitecustomize the environment already had, does nothing
// until `warp` itself is imported (a meta-path finder that removes itself after the first hit), and
// swallows its own failures so the program runs exactly as it would have. Two uses share it:
// `measure` turns on Warp's verbose timers and records every launch's shape for compare's topology
// check; `record --warp` installs the in-process collector (compilescope.warp), `record --numba` the Numba
// one (compilescope.numba), `--torch` and `--jax` those of PyTorch and JAX.
#pragma once

#include <string>

namespace cs::engine::warp {

enum class WarpHook {
    MeasureTimersAndLaunches,  // warp.config.verbose = True; launches -> $COMPILESCOPE_LAUNCH_RECORD (JSON)
    InstallCollector,          // compilescope.warp.install()
};

// The source text of sitecustomize.py for `hook`.
std::string warpSiteCustomize(WarpHook hook);

// The in-process Python collectors `record` can install: --warp, --numba, --torch, --jax.
struct PythonCollectors {
    bool warp = false, numba = false, torch = false, jax = false;
    bool any() const { return warp || numba || torch || jax; }
};

// `record --warp / --numba / --torch / --jax`: installs compilescope.warp, .numba, .torch and / or
// .jax once the program itself imports warp, numba, torch or jax.
std::string collectorSiteCustomize(const PythonCollectors& which);

}  // namespace cs::engine::warp
