/*
 * Switch and NIC configuration: defaults, DCQCN presets, per-priority ECN and per-node
 * overrides deep-merged over the defaults.
 */
#ifndef FABRIC_DEVICE_CONFIG_H
#define FABRIC_DEVICE_CONFIG_H

#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace fabric
{

/** The named DCQCN parameter sets; throws std::out_of_range for an unknown name. */
CcConfig DcqcnPreset(const std::string& name);

/**
 * Reads one switch object (the scenario's `switch`, or it merged with an override) at path.
 * ecmpSeed holds the configured (unmixed) seed.
 */
SwitchConfig ReadSwitchConfig(const nlohmann::json& value,
                              const std::string& path,
                              nlohmann::ordered_json* out = nullptr);

/** Reads one nic object at path. */
NicConfig ReadNicConfig(const nlohmann::json& value,
                        const std::string& path,
                        nlohmann::ordered_json* out = nullptr);

/** The effective ECMP seed of a switch: a 32-bit mix of the configured seed and its index. */
uint32_t MixEcmpSeed(uint32_t seed, uint32_t nodeIndex);

/**
 * Resolves switch and NIC configurations for every node.
 * \param switchJson the scenario's `switch` value (null when absent)
 * \param switchOverrides `switch_overrides` (null when absent)
 * \param nicJson the scenario's `nic` value (null when absent)
 * \param nicOverrides `nic_overrides` (null when absent)
 * \param generatorBuffers switch buffers set by the topology generator (DCI edges)
 * \param out normalized document (switch, switch_overrides, nic, nic_overrides are recorded)
 */
void ResolveDeviceConfigs(const Topology& topo,
                          const nlohmann::json* switchJson,
                          const nlohmann::json* switchOverrides,
                          const nlohmann::json* nicJson,
                          const nlohmann::json* nicOverrides,
                          const std::vector<std::pair<uint32_t, uint64_t>>& generatorBuffers,
                          std::vector<SwitchConfig>& switchCfg,
                          std::vector<NicConfig>& nicCfg,
                          nlohmann::ordered_json* out = nullptr);

} // namespace fabric

#endif
