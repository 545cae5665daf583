/*
 * Reading a scenario file and parsing its JSON without trusting it: a size cap checked
 * before anything is read into memory, directories and devices refused by name, a nesting
 * limit, duplicate keys refused by their path, and every syntax error located by line and
 * column. Everything here throws ScenarioError at "(root)" or at the duplicated key.
 */
#ifndef FABRIC_JSON_INPUT_H
#define FABRIC_JSON_INPUT_H

#include "scenario-error.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace fabric
{

/** Largest scenario file read (16 MiB): 8x the API's default body limit, far above any real
 * scenario (13,634 explicit flows take about 1 MB), small enough to read and parse in well
 * under a second. */
constexpr std::size_t kMaxScenarioBytes = 16u * 1024u * 1024u;

/** Maximum nesting depth accepted from a file (scenarios need about 6). */
constexpr std::size_t kMaxJsonDepth = 64;

/**
 * The bytes of the file at path, reading at most cap + 1 bytes (so /dev/zero or a FIFO ends
 * too). Throws when the path is a directory, cannot be read, or holds more than cap bytes.
 */
std::string ReadCappedFile(const std::string& path, std::size_t cap = kMaxScenarioBytes);

/**
 * Parses a scenario document. Refuses (ScenarioError) blank input, more than cap bytes,
 * nesting deeper than kMaxJsonDepth, a key given twice in one object (at that key's path),
 * and invalid JSON (at its line and column, numbers out of range included).
 */
nlohmann::json ParseStrictJson(const std::string& bytes, std::size_t cap = kMaxScenarioBytes);

/** "line L, column C" of the byte at offset position - 1 (nlohmann's chars_read_total). */
std::string LineColumn(const std::string& bytes, std::size_t position);

} // namespace fabric

#endif
