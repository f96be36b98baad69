#include "core/trace/page_seal.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cs::trace {

namespace {
constexpr unsigned char kMagic[4] = {'C', 'S', 'P', 'S'};

std::uint32_t be32(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

void putBe32(unsigned char* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (24 - 8 * i));
}

// Four independent multiply-xor lanes over 8-byte words: each step is a bijection of the lane state,
// so any change of one byte changes the result (no collision for single-byte damage), at several
// GB/s. Not a cryptographic hash: it detects damage, not tampering.
std::uint64_t pageHash(const unsigned char* p, size_t n, std::uint64_t seed) {
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
    std::uint64_t lane[4] = {seed ^ 0x243F6A8885A308D3ull, seed ^ 0x13198A2E03707344ull, seed ^ 0xA4093822299F31D0ull,
                             seed ^ 0x082EFA98EC4E6C89ull};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; ++k) {
            std::uint64_t w;
            std::memcpy(&w, p + i + 8 * static_cast<size_t>(k), 8);
            lane[k] = (lane[k] ^ w) * kMul;
            lane[k] ^= lane[k] >> 29;
        }
    for (; i < n; ++i) lane[0] = (lane[0] ^ p[i]) * kMul;  // page sizes are multiples of 32; for safety
    std::uint64_t h = n;
    for (auto l : lane) {
        l ^= l >> 31;
        l *= 0xBF58476D1CE4E5B9ull;
        l ^= l >> 27;
        h = (h ^ l) * kMul;  // a bijection of h for each lane value: one changed lane changes h
    }
    return h ^ (h >> 32);
}

struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

std::string sysError(const std::string& what) { return what + ": " + std::strerror(errno); }

bool readAll(int fd, unsigned char* p, size_t n, off_t at) {
    while (n > 0) {
        ssize_t got = ::pread(fd, p, n, at);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        p += got;
        n -= static_cast<size_t>(got);
        at += got;
    }
    return true;
}

struct Geometry {
    size_t pageSize = 0;
    std::int64_t pages = 0;
    std::uint32_t changeCounter = 0;
    bool reserved = false;  // the pages reserve exactly kReservedBytes
    int reservedBytes = 0;  // header byte 20
};

Geometry geometry(int fd) {
    Geometry g;
    unsigned char h[100];
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size < 100 || !readAll(fd, h, sizeof h, 0)) return g;
    size_t pageSize = (size_t{h[16]} << 8) | h[17];
    if (pageSize == 1) pageSize = 65536;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) || static_cast<size_t>(st.st_size) % pageSize) return g;
    g.pageSize = pageSize;
    g.pages = static_cast<std::int64_t>(static_cast<size_t>(st.st_size) / pageSize);
    g.changeCounter = be32(h + 24);
    g.reserved = h[20] == kReservedBytes;
    g.reservedBytes = h[20];
    return g;
}
}  // namespace

bool sealPages(const std::string& path, bool sync) {
    Fd f{::open(path.c_str(), O_RDWR | O_CLOEXEC)};
    if (f.fd < 0) throw std::runtime_error(sysError("cannot open to seal"));
    Geometry g = geometry(f.fd);
    if (!g.reserved) return false;
    const size_t body = g.pageSize - kReservedBytes;
    // Read in chunks of whole pages, as checkPages does (one pread per page cost 5,000 system calls
    // for a build's 80 MB trace); each page's 16 bytes are written where they belong.
    const size_t perChunk = static_cast<size_t>(
        std::max<std::int64_t>(1, std::min<std::int64_t>(static_cast<std::int64_t>((256u << 10) / g.pageSize), g.pages)));
    std::unique_ptr<unsigned char[]> chunk(new unsigned char[perChunk * g.pageSize]);
    for (std::int64_t first = 0; first < g.pages; first += static_cast<std::int64_t>(perChunk)) {
        const size_t count = static_cast<size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(perChunk), g.pages - first));
        const off_t base = static_cast<off_t>(first) * static_cast<off_t>(g.pageSize);
        if (!readAll(f.fd, chunk.get(), count * g.pageSize, base)) throw std::runtime_error(sysError("cannot read to seal"));
        for (size_t k = 0; k < count; ++k) {
            const std::int64_t n = first + static_cast<std::int64_t>(k);
            unsigned char tail[kReservedBytes];
            std::uint64_t h = pageHash(chunk.get() + k * g.pageSize, body, static_cast<std::uint64_t>(n + 1));
            std::memcpy(tail, &h, 8);
            putBe32(tail + 8, g.changeCounter);
            std::memcpy(tail + 12, kMagic, 4);
            const off_t at = static_cast<off_t>(n) * static_cast<off_t>(g.pageSize) + static_cast<off_t>(body);
            if (::pwrite(f.fd, tail, sizeof tail, at) != static_cast<ssize_t>(sizeof tail))
                throw std::runtime_error(sysError("cannot write the page checksums"));
        }
    }
    if (sync && ::fsync(f.fd) != 0) throw std::runtime_error(sysError("cannot sync the page checksums"));
    return true;
}

PageCheck checkPages(const std::string& path) {
    PageCheck out;
    Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0) throw std::runtime_error(sysError("cannot open"));
    Geometry g = geometry(f.fd);
    out.pages = g.pages;
    out.reserved = g.reservedBytes;
    if (g.pageSize > 0) {
        // Page 1's last bytes, whatever the header claims: a seal under a changed byte 20 stays visible.
        unsigned char mark[4];
        out.sealMark = readAll(f.fd, mark, 4, static_cast<off_t>(g.pageSize) - 4) && std::memcmp(mark, kMagic, 4) == 0;
    }
    if (!g.reserved) return out;
    const size_t body = g.pageSize - kReservedBytes;
    // Read in chunks of whole pages: one sequential pass. 256 KiB, not zeroed: every byte is read into
    // before it is looked at, and a zeroed 4 MiB buffer (a memset and a page fault per 4 KiB) cost
    // more than hashing a rank's trace; the GUI opens 256 of them at once.
    const size_t perChunk = static_cast<size_t>(
        std::max<std::int64_t>(1, std::min<std::int64_t>(static_cast<std::int64_t>((256u << 10) / g.pageSize), g.pages)));
    std::unique_ptr<unsigned char[]> chunk(new unsigned char[perChunk * g.pageSize]);
    unsigned char* const buf = chunk.get();
    // Page 1 alone first: a recording in progress is not sealed, and a live follower opens it on
    // every poll; it should not read 4 MB each time to learn that.
    if (g.pages > 0) {
        if (!readAll(f.fd, buf, g.pageSize, 0)) throw std::runtime_error(sysError("cannot read"));
        if (std::memcmp(buf + body + 12, kMagic, 4) != 0) return out;  // Unsealed
    }
    for (std::int64_t first = 0; first < g.pages; first += static_cast<std::int64_t>(perChunk)) {
        const size_t count = static_cast<size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(perChunk), g.pages - first));
        if (!readAll(f.fd, buf, count * g.pageSize, static_cast<off_t>(first) * static_cast<off_t>(g.pageSize)))
            throw std::runtime_error(sysError("cannot read"));
        for (size_t k = 0; k < count; ++k) {
            const unsigned char* page = buf + k * g.pageSize;
            const unsigned char* tail = page + body;
            const std::int64_t n = first + static_cast<std::int64_t>(k);
            if (n == 0) {
                // Page 1 says whether the file was sealed, and at which change counter.
                if (std::memcmp(tail + 12, kMagic, 4) != 0) return out;  // Unsealed
                if (be32(tail + 8) != g.changeCounter) {
                    out.state = PageCheck::State::Stale;
                    return out;
                }
            }
            std::uint64_t stored;
            std::memcpy(&stored, tail, 8);
            if (std::memcmp(tail + 12, kMagic, 4) != 0 || be32(tail + 8) != g.changeCounter ||
                stored != pageHash(page, body, static_cast<std::uint64_t>(n + 1))) {
                out.state = PageCheck::State::Damaged;
                out.page = n + 1;
                return out;
            }
        }
    }
    out.state = PageCheck::State::Ok;
    return out;
}

}  // namespace cs::trace
