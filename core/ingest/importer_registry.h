// The list of importers and the sniffing that picks one for a file.
#pragma once

#include "core/ingest/importer.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cs::ingest {

class ImporterRegistry {
public:
    // All importers this build knows (see builtin_importers.cpp).
    static const ImporterRegistry& builtin();

    void add(std::unique_ptr<Importer> importer);
    const Importer* byId(std::string_view id) const;
    // The importer that is surest about `head` (on a tie, the one added first), or nullptr when none
    // scores above 0. Asks the importers in order of their maxSniffScore and stops when no importer
    // left could win: the same answer as asking every one (sniffAll), for less work.
    const Importer* sniff(std::string_view head, std::string_view fileName) const;
    // Asks every importer; what sniff() must agree with (tests).
    const Importer* sniffAll(std::string_view head, std::string_view fileName) const;
    const std::vector<std::unique_ptr<Importer>>& all() const { return m_importers; }
    std::string idList() const;  // "a, b, c"

private:
    std::vector<std::unique_ptr<Importer>> m_importers;
    std::vector<std::size_t> m_sniffOrder;  // indexes into m_importers, highest maxSniffScore first
};

// Registers every built-in importer; one line per importer.
void registerBuiltinImporters(ImporterRegistry& registry);

}  // namespace cs::ingest
