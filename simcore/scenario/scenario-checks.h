/*
 * Checks of a resolved scenario that look at several settings together: the switch buffer
 * against its PFC headroom (an error: the run would be meaningless) and the NIC RTO against
 * the base RTT of the paths its flows take (a warning in the result: the run is valid but
 * retransmits for nothing). Kept apart from parsing so a configuration check can reuse them.
 */
#ifndef FABRIC_SCENARIO_CHECKS_H
#define FABRIC_SCENARIO_CHECKS_H

#include "model/fabric-config.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fabric
{

/** A setting that is valid but will likely give results nobody wants. */
struct ScenarioWarning
{
    std::string code;    ///< stable identifier, e.g. "rto_below_base_rtt"
    std::string field;   ///< JSON path of the setting to change, e.g. "nic.rto_us"
    std::string message; ///< one line with the numbers
};

/**
 * Throws ScenarioError at bufferPath[node] when a PFC switch's buffer cannot hold its headroom
 * reservations (ports x lossless priorities x headroom), or when what is left (the shared
 * pool) gives a dynamic threshold (alpha x pool) smaller than one frame, so that every frame
 * would trigger a pause.
 * \param bufferPath for each node, the field that set its buffer_bytes
 */
void CheckSwitchBuffers(const Scenario& s, const std::vector<std::string>& bufferPath);

/** Base RTT (ns) of a flow's path on an idle fabric: propagation both ways plus store-and-
 * forward serialization of one full data frame out and one ACK back, on the longest of the
 * equal-hop paths ECMP may pick. Zero when src and dst are not connected. */
std::vector<double> FlowBaseRttNs(const Scenario& s);

/** RTO below the base RTT of any flow: one warning per field (nic.rto_us or an override). */
std::vector<ScenarioWarning> RtoWarnings(const Scenario& s);

/** Every warning of a scenario (what `fabricsim run` writes into the result). */
std::vector<ScenarioWarning> ScenarioWarnings(const Scenario& s);

/** [{"code", "field", "message"}, ...] */
nlohmann::ordered_json WarningsJson(const std::vector<ScenarioWarning>& warnings);

} // namespace fabric

#endif
