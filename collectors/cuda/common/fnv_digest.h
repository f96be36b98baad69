/* SPDX-License-Identifier: MIT
 *
 * A small content digest for sources, link inputs and cubins: 64-bit FNV-1a, printed as 16 hex digits.
 *
 * Why FNV-1a and not a cryptographic hash: the digest only has to tell "same program text" from
 * "different program text" inside one recording (an identical NVRTC program compiled twice, a cubin
 * loaded again), it runs inside the traced process on every compile, and it must not pull a crypto
 * library into that process. Collisions would only merge two rows of a report; nothing trusts it.
 */
#pragma once

#include <cstddef>
#include <cstdint>

namespace cs::cuda {

class FnvDigest {
public:
    void add(const void* data, std::size_t size) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < size; ++i) {
            m_h ^= p[i];
            m_h *= 0x100000001b3ull;
        }
    }
    // Adds a NUL-terminated string and its terminator, so ("ab","c") and ("a","bc") differ.
    void addString(const char* s) {
        if (!s) s = "";
        std::size_t n = 0;
        while (s[n]) ++n;
        add(s, n + 1);
    }
    std::uint64_t value() const { return m_h; }
    // 16 lowercase hex digits and a NUL into `out` (17 bytes).
    void hex(char out[17]) const {
        static const char* digits = "0123456789abcdef";
        for (int i = 15; i >= 0; --i) out[15 - i] = digits[(m_h >> (i * 4)) & 0xf];
        out[16] = '\0';
    }

private:
    std::uint64_t m_h = 0xcbf29ce484222325ull;
};

}  // namespace cs::cuda
