/*
 * Scenario v1 (docs/scenario-format.md): parse the JSON document, validate every field,
 * expand the topology and traffic generators, resolve per-node configuration and monitors.
 */
#ifndef FABRIC_SCENARIO_PARSER_H
#define FABRIC_SCENARIO_PARSER_H

#include "scenario-error.h"
#include "traffic-generator.h"
#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <string>

namespace fabric
{

/**
 * Parses and resolves a scenario from the bytes of its file. Throws ScenarioError (one line,
 * naming the JSON path) on any invalid input, never anything else for bad input.
 * \param normalized when given, receives the fully defaulted scenario document
 */
Scenario LoadScenario(const std::string& bytes, nlohmann::ordered_json* normalized = nullptr);

/** How a scenario is loaded for the flow engine (the packet model takes the defaults). */
struct LoadOptions
{
    /// Keep a streamable ring collective whose plan has more transfers than this as a
    /// StreamedCollective, unexpanded (0: expand every collective).
    uint64_t streamRingsAbove = 0;
    /// Run a streamable ring collective whose plan has more transfers than this as a
    /// RingProgram, its transfers unlisted (0: list every transfer). The packet model's loads
    /// (LoadScenario) use kRingProgramsAboveTransfers; a flow-engine load must leave it 0.
    uint64_t ringProgramsAbove = kRingProgramsAboveTransfers;
    /// Keep a training job's collectives inside one server as stand-ins (NvlinkGroup), their
    /// transfers unlisted. Only a flow-engine load may ask for it.
    bool nvlinkGroups = false;
    /// Refuse a topology of more hosts than this before its traffic is built (ScenarioError
    /// at "topology"; 0: no limit): `fabricsim run --max-hosts`, the estimate's bound.
    uint64_t maxHosts = 0;
};

/** A scenario and the collectives kept as streams (LoadOptions::streamRingsAbove). */
struct LoadedScenario
{
    Scenario scenario;
    std::vector<StreamedCollective> streamed;
};

/** LoadScenario with options (the flow engine's load); throws as LoadScenario does. */
LoadedScenario LoadScenarioWith(const std::string& bytes, const LoadOptions& options);

/** Reads a file's bytes (at most kMaxScenarioBytes; directories refused); throws ScenarioError("(root)", ...). */
std::string ReadScenarioFile(const std::string& path);

/** The fully defaulted scenario skeleton (`fabricsim schema`). */
nlohmann::ordered_json ScenarioDefaults();

/** {"nodes": [...], "links": [...], "stats": {...}} as `fabricsim expand` prints it. */
nlohmann::ordered_json ExpandJson(const Topology& topo);

/**
 * The topology's figures: hosts, switches and links (integers) first, then what its generator
 * reported (oversubscription, ...): `fabricsim expand`'s stats and a result's run_info.fabric.
 */
nlohmann::ordered_json FabricStatsJson(const Topology& topo);

} // namespace fabric

#endif
