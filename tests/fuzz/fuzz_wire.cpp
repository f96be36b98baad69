// libFuzzer target for the recorder's wire input (issue 40): the bytes a collector sends over the
// recorder's socket, from anyone who can connect to it. Why: one malformed message with a huge option
// count read past its buffer and killed the recorder; every length and count in WireSession must be
// checked before use. The first input byte picks how the stream is cut into reads (whole, or pieces of
// 1..255 bytes), as a socket delivers partial messages; a session that rejects the stream (-1) is
// fine. The trace written is then read back with every analysis.
#include "fuzz_common.h"

#include "app/recorder/wire_session.h"
#include "core/trace/writer.h"

#include <algorithm>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t piece = data[0] == 0 ? size : data[0];
    ++data;
    --size;
    const std::string& path = cs::fuzz::scratch(".wire.cstrace");
    try {
        cs::trace::TraceWriter w(path, {.overwrite = true, .background = false});
        cs::recorder::WireSession s(w, nullptr, nullptr);
        std::vector<unsigned char> pending;
        for (std::size_t at = 0; at < size;) {
            const std::size_t n = std::min(piece, size - at);
            pending.insert(pending.end(), data + at, data + at + n);
            at += n;
            const auto used = s.feed(pending.data(), pending.size());
            if (used < 0) break;
            pending.erase(pending.begin(), pending.begin() + used);
        }
        s.finish();
        w.finalize();
    } catch (const cs::trace::TraceError&) {
        return 0;
    }
    cs::fuzz::analyse(path);
    return 0;
}
