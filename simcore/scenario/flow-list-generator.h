/*
 * The `flows` traffic generator: an explicit list of flows (src, dst, size_bytes, start_us,
 * optional priority), as imported from another simulator's flow file (docs/scenario-format.md).
 * Kept apart from traffic-generator.cc because it draws no random numbers and reads one JSON
 * object per flow.
 */
#ifndef FABRIC_FLOW_LIST_GENERATOR_H
#define FABRIC_FLOW_LIST_GENERATOR_H

#include "json-reader.h"
#include "traffic-generator.h"

#include <cstdint>
#include <vector>

namespace fabric
{

/**
 * Reads the generator object behind r (its "kind" already read) and appends one FlowSpec per
 * listed flow. expected counts the flows of all generators so far (the kMaxFlows limit).
 */
void GenerateFlowList(ObjectReader& r,
                      const TrafficContext& ctx,
                      uint32_t generatorIndex,
                      std::vector<FlowSpec>& flows,
                      uint64_t& expected);

} // namespace fabric

#endif
