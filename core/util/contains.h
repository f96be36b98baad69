// Substring search for sniffing long heads of input and scanning whole files.
//
// Why not std::string_view::find: libstdc++ looks for the needle's first byte and compares from
// each one it finds. A JSON key's first byte is a quote, which in JSON comes every few bytes, so
// finding a key that is absent from a 64 KiB head stopped thousands of times (a third of a build's
// import went to sniffing). Boyer-Moore-Horspool moves ahead by up to the needle's length at each
// step, looking at one byte, whatever that byte is.
#pragma once

#include <algorithm>
#include <functional>
#include <string_view>

namespace cs::util {

inline bool contains(std::string_view haystack, std::string_view needle) {
    if (needle.size() < 4) return haystack.find(needle) != std::string_view::npos;
    const std::boyer_moore_horspool_searcher searcher(needle.begin(), needle.end());
    return std::search(haystack.begin(), haystack.end(), searcher) != haystack.end();
}

}  // namespace cs::util
