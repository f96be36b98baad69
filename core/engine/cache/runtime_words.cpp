// The runtime words of runtime_words.h, from the cache names the importers record.
#include "core/engine/cache/runtime_words.h"

namespace cs::engine {

namespace {
bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace

std::string otherRuntimeUnits(const std::string& cache) {
    if (startsWith(cache, "torch") || startsWith(cache, "aot autograd")) return "PyTorch frames";
    if (startsWith(cache, "jax")) return "JAX functions";
    if (startsWith(cache, "numba")) return "Numba functions";
    return {};
}

bool usesReactantNitro(const CacheFacts& facts) {
    for (const auto& l : facts.lookups)
        if (startsWith(facts.str(l.cache), "ReactantNitro")) return true;
    return false;
}

}  // namespace cs::engine
