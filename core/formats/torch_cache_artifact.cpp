#include "core/formats/torch_cache_artifact.h"

#include <cmath>

namespace cs::ingest::torch {

namespace {
struct Kind {
    const char* prefix;
    const char* cache;
};
constexpr Kind kKinds[] = {{"fx_graph_cache_", "fx graph cache"},
                           {"aotautograd_cache_", "aot autograd cache"},
                           {"autograd_cache_", "aot autograd cache"}};
constexpr const char* kPersistent = " (persistent)";

}  // namespace

std::optional<std::int64_t> jsonInteger(const util::JsonValue* v) {
    if (!v || !v->isNumber() || !(std::fabs(v->num) <= 9007199254740992.0) || std::floor(v->num) != v->num) return std::nullopt;
    return static_cast<std::int64_t>(v->num);
}

bool isCacheArtifact(const std::string& name) {
    for (const auto& k : kKinds) {
        std::string p = k.prefix;
        if (name.rfind(p, 0) == 0) {
            auto state = name.substr(p.size());
            return state == "hit" || state == "miss" || state == "bypass";
        }
    }
    return false;
}

bool parseCacheComponent(const std::string& text, CacheComponent& out) {
    if (text.size() < 4 || text[0] != '[') return false;
    auto close = text.find("] ");
    if (close == std::string::npos || close == 1) return false;
    auto colon = text.find(": ", close + 2);
    out.hash = text.substr(1, close - 1);
    if (colon == std::string::npos) {
        out.name = text.substr(close + 2);
        out.value.clear();
    } else {
        out.name = text.substr(close + 2, colon - close - 2);
        out.value = text.substr(colon + 2);
    }
    return !out.name.empty();
}

bool readCacheArtifact(const std::string& name, const util::JsonValue& payload, CacheArtifact& out, std::string& why) {
    out = CacheArtifact{};
    for (const auto& k : kKinds) {
        std::string p = k.prefix;
        if (name.rfind(p, 0) == 0) {
            out.label = k.cache;
            out.cache = std::string(k.cache) + kPersistent;
            out.state = name.substr(p.size());
            break;
        }
    }
    if (!payload.isObject()) {
        why = "cache artifact payload is not a JSON object";
        return false;
    }
    if (const auto* s = payload.get("cache_state"); s && s->isString() && out.state.empty()) out.state = s->str;
    if (const auto* key = payload.get("key"); key && key->isString()) out.key = key->str;
    if (const auto* comps = payload.get("components"); comps && comps->isArray()) {
        for (const auto& c : comps->items) {
            CacheComponent part;
            if (c.isString() && parseCacheComponent(c.str, part)) out.components.push_back(std::move(part));
        }
    }
    out.timeTakenNs = jsonInteger(payload.get("time_taken_ns"));
    out.timeSavedNs = jsonInteger(payload.get("time_saved_ns"));
    if (const auto* r = payload.get("cache_bypass_reason"); r && r->isString()) out.bypassReason = r->str;
    return true;
}

}  // namespace cs::ingest::torch
