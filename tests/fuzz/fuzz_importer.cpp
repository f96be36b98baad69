// libFuzzer target for one importer (FUZZ_IMPORTER, an importer id such as "tef"; in the regression
// runner, one executable for every importer, the environment variable of that name): the input is a
// foreign file as a user would hand it to `compilescope import`. The importer must count bad records
// in `stats` and never crash, hang or overflow; its trace must then read and analyse cleanly.
#include "fuzz_common.h"

#include "core/ingest/importer_registry.h"
#include "core/trace/writer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {
const char* importerId() {
#ifdef FUZZ_IMPORTER
    return FUZZ_IMPORTER;
#else
    static const char* id = std::getenv("FUZZ_IMPORTER");
    return id ? id : "";
#endif
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto* importer = cs::ingest::ImporterRegistry::builtin().byId(importerId());
    if (!importer) {
        std::fprintf(stderr, "fuzz_importer: no importer '%s' (set FUZZ_IMPORTER)\n", importerId());
        std::abort();
    }
    const std::string& path = cs::fuzz::scratch(".cstrace");
    std::string bytes(reinterpret_cast<const char*>(data), size);
    // Sniffing sees every input too.
    (void)importer->sniff(std::string_view(bytes).substr(0, 64 * 1024), "input");
    {
        cs::trace::TraceWriter writer(path, {.overwrite = true, .bulkImport = true, .background = false});
        auto session = writer.addSession({.runtime = writer.intern(std::string("import:") + importerId())});
        cs::ingest::ImportContext ctx{writer, session, "input"};
        std::istringstream in(bytes);
        (void)importer->run(in, ctx);
        writer.finalize();
    }
    cs::fuzz::analyse(path);
    return 0;
}
