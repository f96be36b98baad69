#include "core/ingest/importer_registry.h"

namespace cs::ingest {

void ImportContext::malformed(std::string_view where, std::string_view why, std::string_view source) {
    std::string detail = sourceName + " " + std::string(where) + ": " + std::string(why);
    writer.addStat(sessionId, "malformed_record", source, 1, detail);
}

void ImportContext::unrecognised(std::int64_t count, std::string_view first, std::string_view source) {
    if (count > 0) writer.addStat(sessionId, "unrecognised_line", source, count, sourceName + " " + std::string(first));
}

const ImporterRegistry& ImporterRegistry::builtin() {
    static const ImporterRegistry registry = [] {
        ImporterRegistry r;
        registerBuiltinImporters(r);
        return r;
    }();
    return registry;
}

void ImporterRegistry::add(std::unique_ptr<Importer> importer) { m_importers.push_back(std::move(importer)); }

const Importer* ImporterRegistry::byId(std::string_view id) const {
    for (const auto& i : m_importers)
        if (i->id() == id) return i.get();
    return nullptr;
}

const Importer* ImporterRegistry::sniff(std::string_view head, std::string_view fileName) const {
    const Importer* best = nullptr;
    int bestScore = 0;
    for (const auto& i : m_importers) {
        int score = i->sniff(head, fileName);
        if (score > bestScore) {
            best = i.get();
            bestScore = score;
        }
    }
    return best;
}

std::string ImporterRegistry::idList() const {
    std::string out;
    for (const auto& i : m_importers) {
        if (!out.empty()) out += ", ";
        out += i->id();
    }
    return out;
}

}  // namespace cs::ingest
