/*
 * How a parallel run (and a large fabric's run on one thread, RunController) splits the
 * fabric: each switch with the hosts that hang off it is one
 * unit, units joined by a link without propagation delay stay together, and units are cut into
 * contiguous groups of about equal expected load (the frames their flows send through them).
 * Owns the mailboxes of the links between partitions and sets them on the sending ports.
 */
#ifndef FABRIC_PARTITIONER_H
#define FABRIC_PARTITIONER_H

#include "model/fabric-config.h"
#include "model/fabric-device.h"
#include "model/fabric-simulator-impl.h"

#include <memory>
#include <string>
#include <vector>

namespace fabric
{

class NetworkBuilder;

struct Partitioning
{
    PartitionPlan plan;
    std::vector<std::unique_ptr<Mailbox>> boxes;
    uint32_t cutLinks = 0; ///< links whose two ends are in different partitions
};

/** Why scenario cannot run on several threads yet, in one line ("" when it can). */
std::string ParallelRefusal(const Scenario& scenario);

/** Splits the built network into at most parts partitions (fewer when it has fewer units). */
Partitioning PlanPartitions(const Scenario& scenario, const NetworkBuilder& network,
                            uint32_t parts);

} // namespace fabric

#endif
