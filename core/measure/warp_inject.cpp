#include "core/measure/warp_inject.h"

#include <initializer_list>
#include <utility>

namespace cs::engine::warp {

namespace {
// Chains to the previous sitecustomize and waits for the imports named in _HOOKS (`import warp`,
// `import numba`); each hook runs once, after its module finished importing.
constexpr const char* kPreamble = R"PY(# written by compilescope; removed with its temporary directory
import importlib.abc, importlib.machinery, importlib.util, json, os, sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _previous_sitecustomize():
    rest = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


# Top-level module name -> hook called with the module once it has finished importing.
_HOOKS = {}


class _WarpFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        hook = _HOOKS.pop(name, None)  # popped first: the find_spec below comes back here
        if hook is None:
            return None
        if not _HOOKS:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            try:
                hook(module)
            except Exception:
                pass

        spec.loader.exec_module = exec_module
        return spec

)PY";

// measure: Warp's verbose timers (Compile timers, block_dim in the label) and each launch's shape.
constexpr const char* kMeasureHook = R"PY(
_RECORD = os.environ.get("COMPILESCOPE_LAUNCH_RECORD")
_LAUNCHES = []


def _shape(value):
    if value is None:
        return []
    if isinstance(value, int):
        return [value]
    try:
        return [int(v) for v in value]
    except TypeError:
        return [int(value)]


def _on_warp(warp):
    config = getattr(warp, "config", None)
    if config is not None:
        config.verbose = True
        # Warp 1.19 has no config.verbose: its Compile timers and the block_dim in the module label
        # print at log_level LOG_DEBUG (docs/warp.md, "Measurement and comparison").
        if isinstance(getattr(warp, "LOG_DEBUG", None), int) and hasattr(config, "log_level"):
            config.log_level = warp.LOG_DEBUG
    original = getattr(warp, "launch", None)
    if original is None:
        return
    order = ("kernel", "dim", "inputs", "outputs", "adj_inputs", "adj_outputs", "device", "stream",
             "adjoint", "record_tape", "record_cmd", "max_blocks", "block_dim")

    def launch(*args, **kwargs):
        try:
            call = dict(zip(order, args))
            call.update(kwargs)
            arrays = list(call.get("inputs") or ()) + list(call.get("outputs") or ())
            device = call.get("device")
            if device is None:
                device = next((a.device for a in arrays if hasattr(a, "device")), None)
            kernel = call.get("kernel")
            _LAUNCHES.append({
                "kernel": getattr(kernel, "key", str(kernel)),
                "module": getattr(getattr(kernel, "module", None), "name", None),
                "dim": _shape(call.get("dim")),
                "device": None if device is None else str(device),
                "dtypes": [getattr(a.dtype, "__name__", str(a.dtype)) for a in arrays if hasattr(a, "dtype")],
                "block_dim": call.get("block_dim"),
                "adjoint": bool(call.get("adjoint")),
            })
        except Exception:
            pass
        return original(*args, **kwargs)

    warp.launch = launch
    # launch_tiled and friends call the context module's own `launch`: replace that binding too.
    for name in ("warp._src.context", "warp.context"):
        inner = sys.modules.get(name)
        if inner is not None and getattr(inner, "launch", None) is original:
            inner.launch = launch


def _write():
    try:
        with open(_RECORD, "w", encoding="utf-8") as out:
            json.dump(_LAUNCHES, out)
    except Exception:
        pass


if _RECORD:
    import atexit
    atexit.register(_write)
_HOOKS["warp"] = _on_warp
)PY";

// record --warp / --numba / --torch / --jax: compilescope.NAME.install(), run once the program's own
// `import NAME` has finished (nothing is imported earlier).
std::string installHook(const std::string& name) {
    return "\n\ndef _on_" + name + "(module):\n    import compilescope." + name + "\n    compilescope." + name +
           ".install()\n\n\n_HOOKS[\"" + name + "\"] = _on_" + name + "\n";
}

constexpr const char* kEpilogue = R"PY(
try:
    _previous_sitecustomize()
except Exception:
    pass
sys.meta_path.insert(0, _WarpFinder())
)PY";
}  // namespace

std::string warpSiteCustomize(WarpHook hook) {
    std::string s = kPreamble;
    s += hook == WarpHook::MeasureTimersAndLaunches ? std::string(kMeasureHook) : installHook("warp");
    s += kEpilogue;
    return s;
}

std::string collectorSiteCustomize(const PythonCollectors& which) {
    std::string s = kPreamble;
    for (auto [wanted, name] : {std::pair{which.warp, "warp"}, {which.numba, "numba"}, {which.torch, "torch"}, {which.jax, "jax"}})
        if (wanted) s += installHook(name);
    s += kEpilogue;
    return s;
}

}  // namespace cs::engine::warp
