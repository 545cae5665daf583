/*
 * SHA-256 of the scenario file's bytes (a result's run_info.scenario_sha256), by OpenSSL's EVP
 * interface (libcrypto from libssl-dev).
 */
#ifndef FABRIC_SHA256_H
#define FABRIC_SHA256_H

#include <string>

namespace fabric
{

/** Lower-case hex SHA-256 of bytes. */
std::string Sha256Hex(const std::string& bytes);

} // namespace fabric

#endif
