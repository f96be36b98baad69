#include "core/ingest/importer_registry.h"

#include <algorithm>

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

void ImporterRegistry::add(std::unique_ptr<Importer> importer) {
    m_importers.push_back(std::move(importer));
    m_sniffOrder.push_back(m_importers.size() - 1);
    std::stable_sort(m_sniffOrder.begin(), m_sniffOrder.end(), [&](std::size_t a, std::size_t b) {
        return m_importers[a]->maxSniffScore() > m_importers[b]->maxSniffScore();
    });
}

const Importer* ImporterRegistry::byId(std::string_view id) const {
    for (const auto& i : m_importers)
        if (i->id() == id) return i.get();
    return nullptr;
}

const Importer* ImporterRegistry::sniff(std::string_view head, std::string_view fileName) const {
    std::size_t best = m_importers.size();
    int bestScore = 0;
    for (std::size_t k : m_sniffOrder) {
        const int cap = m_importers[k]->maxSniffScore();
        if (bestScore > cap) break;  // the order is by cap: no importer left can reach bestScore
        if (bestScore == cap && k > best) continue;  // could only tie, and a tie goes to the one added first
        // A score above the importer's own cap would make the skipping above wrong: capped.
        const int score = std::min(m_importers[k]->sniff(head, fileName), cap);
        if (score > bestScore || (score > 0 && score == bestScore && k < best)) {
            best = k;
            bestScore = score;
        }
    }
    return best < m_importers.size() ? m_importers[best].get() : nullptr;
}

const Importer* ImporterRegistry::sniffAll(std::string_view head, std::string_view fileName) const {
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
