// libFuzzer target for the trace reader and every analysis (and, with FUZZ_MERGE, the cstrace merge):
// the input is a .cstrace file from anywhere. Mutated bytes would all fail the page checksums on
// open, so the target seals the input first: a hostile file can carry valid checksums too, and the
// point is to reach SQLite, the schema checks, the problem scan and the analyses behind them.
#include "fuzz_common.h"

#include "core/ingest/trace_merge.h"
#include "core/trace/page_seal.h"
#include "core/trace/writer.h"

#include <cstdint>
#include <fstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& path = cs::fuzz::scratch(".in.cstrace");
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try {
        (void)cs::trace::sealPages(path);
    } catch (const std::exception&) {
        return 0;
    }
#ifdef FUZZ_MERGE
    const std::string& merged = cs::fuzz::scratch(".merged.cstrace");
    try {
        auto reader = cs::trace::TraceReader::open(path);
        cs::trace::TraceWriter writer(merged, {.overwrite = true, .bulkImport = true, .background = false});
        (void)cs::ingest::mergeTrace(*reader, writer);
        writer.finalize();
    } catch (const cs::trace::TraceError&) {
        return 0;
    }
    cs::fuzz::analyse(merged);
#else
    cs::fuzz::analyse(path);
#endif
    return 0;
}
