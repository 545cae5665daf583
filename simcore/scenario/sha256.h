/*
 * SHA-256 (FIPS 180-4), used for the scenario_sha256 of a result.
 */
#ifndef FABRIC_SHA256_H
#define FABRIC_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace fabric
{

/** Incremental SHA-256. */
class Sha256
{
  public:
    Sha256();
    void Update(const void* data, std::size_t size);
    /** Finishes and returns the 32-byte digest; the object must not be updated afterwards. */
    std::array<uint8_t, 32> Digest();

  private:
    void Block(const uint8_t* block);

    std::array<uint32_t, 8> m_state;
    std::array<uint8_t, 64> m_buffer;
    std::size_t m_buffered = 0;
    uint64_t m_totalBytes = 0;
};

/** Lower-case hex SHA-256 of bytes. */
std::string Sha256Hex(const std::string& bytes);

} // namespace fabric

#endif
