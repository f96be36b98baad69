// SHA-256 and base64, for the report's Content-Security-Policy.
//
// Why here: the report allows its own inline <style> and <script> blocks by hash
// (`script-src 'sha256-...'`) instead of 'unsafe-inline', so any markup an attacker smuggles into a
// name could never run even if escaping failed. Computing the hash needs SHA-256 of the exact bytes
// between the tags, base64-encoded; a few dozen lines do not justify a crypto library dependency.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace cs::report {

std::array<std::uint8_t, 32> sha256(std::string_view data);
std::string base64(const std::uint8_t* data, size_t size);
// "sha256-<base64>" as CSP source expressions spell it.
std::string cspHash(std::string_view inlineBlock);

}  // namespace cs::report
