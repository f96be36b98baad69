// MD5 of a byte string, as lowercase hex.
//
// Why MD5 here: PyTorch's structured trace (TORCH_TRACE) marks every record that carries a payload
// with `"has_payload": "<md5 hex of the payload>"` (torch/_logging/structured.py). Checking it is the
// only way to notice a payload that was cut, interleaved with another process's output or edited;
// such records are counted, never trusted. Not used for anything security-related.
#pragma once

#include <string>
#include <string_view>

namespace cs::util {

// Incremental: feed the payload line by line without joining it first.
class Md5 {
public:
    Md5();
    void update(std::string_view bytes);
    std::string hexDigest();  // finishes; the object must not be updated afterwards

private:
    void block(const unsigned char* p);
    unsigned int m_state[4];
    unsigned long long m_length = 0;  // bytes fed
    unsigned char m_buffer[64];
    size_t m_used = 0;
};

std::string md5Hex(std::string_view bytes);

}  // namespace cs::util
