// The list of importers and the sniffing that picks one for a file.
#pragma once

#include "core/ingest/importer.h"

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
    // The importer that is surest about `head`, or nullptr when none scores above 0.
    const Importer* sniff(std::string_view head, std::string_view fileName) const;
    const std::vector<std::unique_ptr<Importer>>& all() const { return m_importers; }
    std::string idList() const;  // "a, b, c"

private:
    std::vector<std::unique_ptr<Importer>> m_importers;
};

// Registers every built-in importer; one line per importer.
void registerBuiltinImporters(ImporterRegistry& registry);

}  // namespace cs::ingest
