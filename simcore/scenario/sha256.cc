#include "sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace fabric
{

std::string
Sha256Hex(const std::string& bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) != 1)
    {
        throw std::runtime_error("SHA-256: OpenSSL EVP_Digest failed");
    }
    static const char* kHex = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * size);
    for (unsigned int i = 0; i < size; ++i)
    {
        hex += kHex[digest[i] >> 4];
        hex += kHex[digest[i] & 15];
    }
    return hex;
}

} // namespace fabric
