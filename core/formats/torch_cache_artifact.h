// The payload of a TORCH_TRACE cache artifact: fx_graph_cache_{hit,miss,bypass} and
// aotautograd_cache_{hit,miss,bypass} (torch/_inductor/codecache.py, torch/_functorch/_aot_autograd/
// autograd_cache.py; sample in tests/data/torch/cache_hit_miss_excerpt.log).
//
// Why it matters: the payload lists the key's components, each with its own hash, as
// "[<hash>] <name>: <value>" ("[avf2u3lu...] example_inputs[0]: TensorMetadata(dtype=torch.float32,
// shape=...)"). Two lookups of one cache can therefore be diffed component by component, which is
// exactly the miss attribution the engine does for every runtime.
#pragma once

#include "core/util/json_reader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cs::ingest::torch {

struct CacheComponent {
    std::string hash, name, value;  // value as printed (may be many lines, e.g. the graph module)
};

struct CacheArtifact {
    // The cache's name in the trace: "fx graph cache (persistent)" or "aot autograd cache (persistent)".
    // Both live on disk across processes (a hit may load an entry an earlier run wrote), which the
    // replay recognises by "persistent" in the name (cache_replay.h).
    std::string cache;
    std::string label;   // the same without the suffix, for titles: "fx graph cache"
    std::string state;   // "hit", "miss" or "bypass" (from the artifact's name, else cache_state)
    std::string key;     // "" when absent (a bypass logs null)
    std::vector<CacheComponent> components;
    std::optional<std::int64_t> timeTakenNs{}, timeSavedNs{};
    std::string bypassReason;
};

// True for the artifact names this parser understands.
bool isCacheArtifact(const std::string& name);
// Reads the payload (already parsed JSON). Returns false with `why` when it is not an object.
bool readCacheArtifact(const std::string& name, const util::JsonValue& payload, CacheArtifact& out, std::string& why);
// An integral JSON number within +-2^53 (ids, counters, ns), else nullopt: an untrusted 1e300 or a
// fraction never reaches an integer cast.
std::optional<std::int64_t> jsonInteger(const util::JsonValue* v);
// "[hash] name: value" -> parts; false when the text is not in that shape.
bool parseCacheComponent(const std::string& text, CacheComponent& out);

}  // namespace cs::ingest::torch
