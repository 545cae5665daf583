/*
 * The `flows` traffic generator: an explicit list of flows (src, dst, size_bytes, start_us,
 * optional priority, udp_src_port, and `after` / `gap_us` to wait for other flows of the list), as imported from another simulator's flow file (docs/scenario-format.md).
 * Kept apart from traffic-generator.cc because it draws no random numbers and reads one JSON
 * object per flow.
 */
#ifndef FABRIC_FLOW_LIST_GENERATOR_H
#define FABRIC_FLOW_LIST_GENERATOR_H

#include "generator-context.h"
#include "json-reader.h"
#include "traffic-generator.h"

#include <cstdint>
#include <vector>

namespace fabric
{

/**
 * Reads the generator object behind r (its "kind" already read) and appends one FlowSpec per
 * listed flow. expected counts the flows of all generators so far (the kMaxFlows limit).
 * A flow's `after` (indices in the list) and `gap_us` go to relations; cycles are refused.
 */
void GenerateFlowList(ObjectReader& r,
                      const TrafficContext& ctx,
                      uint32_t generatorIndex,
                      std::vector<FlowSpec>& flows,
                      uint64_t& expected,
                      FlowRelations& relations);

} // namespace fabric

#endif
