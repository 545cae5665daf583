/*
 * Output formats: SHA-256 against the FIPS 180-2 / NIST test vectors, deterministic number
 * rounding, and the expand document.
 */
#include "scenario/json-reader.h"
#include "scenario/result-writer.h"
#include "scenario/scenario-parser.h"
#include "scenario/sha256.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <utility>

namespace
{

TEST(Sha256, StandardVectors)
{
    EXPECT_EQ(fabric::Sha256Hex(""),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(fabric::Sha256Hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(fabric::Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(
        fabric::Sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmno"
                          "pjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    EXPECT_EQ(fabric::Sha256Hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries)
{
    // Lengths around the 56-byte padding limit and the 64-byte block (values from sha256sum).
    EXPECT_EQ(fabric::Sha256Hex(std::string(55, 'a')),
              "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    EXPECT_EQ(fabric::Sha256Hex(std::string(56, 'a')),
              "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    EXPECT_EQ(fabric::Sha256Hex(std::string(64, 'a')),
              "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
    EXPECT_EQ(fabric::Sha256Hex(std::string(65, 'a')),
              "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
}

TEST(Sha256, SameHashesAsTheFormerImplementation)
{
    // The scenario hashes stay byte-identical since SHA-256 moved to OpenSSL: every length from
    // 0 to 300 bytes (all padding cases, several blocks), as hashed by the former hand-written
    // simcore/scenario/sha256.cc (commit c0852bb), folded into one digest.
    std::string pattern;
    for (int i = 0; i < 300; ++i)
    {
        pattern += static_cast<char>(i * 7 + 3);
    }
    std::string all;
    for (std::size_t len = 0; len <= pattern.size(); ++len)
    {
        all += fabric::Sha256Hex(pattern.substr(0, len));
    }
    EXPECT_EQ(fabric::Sha256Hex(all),
              "9ab015b3431ba48c0f99e81c5bb7d903f6bfea343d7d7b190120d07cc51e653b");
}

TEST(Sha256, ScenarioHashesOfTheBenchScenarios)
{
    // run_info.scenario_sha256 of these files before the move to OpenSSL (also `sha256sum`;
    // reference-a.json since it names the dcqcn-paper preset).
    const std::pair<const char*, const char*> files[] = {
        {"/../bench/scenarios/incast-pfc-off-drops.json",
         "a98dada4d5ab53444bb9d5e199fe64d234e3a11dea2394979d00f62eed867671"},
        {"/../bench/scenarios/incast-pfc-xoff.json",
         "4450e135de0bcffb90a0a825136ad0c9cae0a5e7ff17263541409292c7276c56"},
        {"/../bench/reference-a.json",
         "c203af80cc7889ae9a69aade0bf15b7d2b27a0777a5d3b64a5f0dd8368d83702"}};
    for (const auto& [path, hash] : files)
    {
        std::string file = std::string(FABRICSIM_SOURCE_DIR) + path;
        std::ifstream in(file, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ASSERT_FALSE(bytes.empty()) << file;
        EXPECT_EQ(fabric::LoadScenario(bytes).sha256, hash) << file;
    }
}

TEST(Numbers, RoundToSixSignificantDigits)
{
    EXPECT_DOUBLE_EQ(fabric::RoundSignificant(24.123456789), 24.1235);
    EXPECT_DOUBLE_EQ(fabric::RoundSignificant(0.000123456789), 0.000123457);
    EXPECT_DOUBLE_EQ(fabric::RoundSignificant(-98765432.1), -98765400);
    EXPECT_DOUBLE_EQ(fabric::RoundSignificant(1.0 / 3.0), 0.333333);
    EXPECT_EQ(fabric::RoundSignificant(-0.0), 0.0);
    EXPECT_FALSE(std::signbit(fabric::RoundSignificant(-0.0))); // printed "0", never "-0.0"
    EXPECT_EQ(fabric::RoundSignificant(std::nan("")), 0.0);
}

TEST(Numbers, SerializationPassIsDeterministic)
{
    nlohmann::ordered_json doc = {{"a", 0.1 + 0.2},
                                  {"b", {1.0 / 3.0, 2.0, 1e-9 * 3}},
                                  {"c", {{"big", 123456789.0}, {"int", 42}, {"s", "x"}}},
                                  {"d", -0.0}};
    EXPECT_EQ(fabric::DumpDeterministic(doc),
              R"({"a":0.3,"b":[0.333333,2,3e-09],"c":{"big":123457000,"int":42,"s":"x"},"d":0})");
    // Tiny differences below the sixth digit give the same bytes.
    nlohmann::ordered_json a = {{"x", 12.3456789}};
    nlohmann::ordered_json b = {{"x", 12.3456791}};
    EXPECT_EQ(fabric::DumpDeterministic(a), fabric::DumpDeterministic(b));
}

TEST(Numbers, MessagesPrintPlainNumbers)
{
    EXPECT_EQ(fabric::FormatNumber(1600), "1600");
    EXPECT_EQ(fabric::FormatNumber(0.0625), "0.0625");
    EXPECT_EQ(fabric::FormatNumber(-3), "-3");
    EXPECT_EQ(fabric::Range::AboveTo(0, 1600, "Gbit/s").Describe(false),
              "must be > 0 and <= 1600 Gbit/s");
    EXPECT_EQ(fabric::Range::Closed(1, 512).Describe(true), "must be an integer >= 1 and <= 512");
}

TEST(Expand, DocumentShape)
{
    fabric::Scenario s = fabric::LoadScenario(
        R"({"schema_version": 1, "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 2,
            "hosts_per_leaf": 2, "host_rate_gbps": 25, "fabric_rate_gbps": 100}})");
    nlohmann::ordered_json e = fabric::ExpandJson(s.topo);
    ASSERT_EQ(e["nodes"].size(), 8u);
    ASSERT_EQ(e["links"].size(), 8u);
    EXPECT_EQ(e["nodes"][0].dump(), R"({"id":"h0","kind":"host","tier":0,"group":"leaf0"})");
    EXPECT_EQ(e["links"][0]["a"], "h0");
    EXPECT_EQ(e["links"][0]["b"], "leaf0");
    EXPECT_EQ(e["stats"]["hosts"], 4);
    EXPECT_EQ(e["stats"]["switches"], 4);
    EXPECT_EQ(e["stats"]["links"], 8);
    // 2 x 25 G down / 2 x 100 G up
    EXPECT_DOUBLE_EQ(e["stats"]["oversubscription"].get<double>(), 0.25);
    std::string keys;
    for (auto it = e.begin(); it != e.end(); ++it)
    {
        keys += it.key() + ",";
    }
    EXPECT_EQ(keys, "nodes,links,stats,");
}

} // namespace
