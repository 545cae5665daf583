/*
 * JobLinkCounter: the links a collective job's traffic crossed (the result's jobs[].links). It
 * listens to every device's "Tx" trace (a frame started transmission) and adds the DATA payload
 * of each job's frames to that job's count for the link and direction. Built and connected only
 * when the scenario has collective jobs, so other runs connect no trace: the per-packet path
 * keeps its one IsEmpty test and nothing more.
 */
#ifndef FABRIC_JOB_LINKS_H
#define FABRIC_JOB_LINKS_H

#include "model/fabric-context.h"
#include "model/fabric-device.h"

#include <cstdint>
#include <vector>

namespace fabric
{

class NetworkBuilder;

class JobLinkCounter
{
  public:
    /** Whether a scenario needs one (it has collective jobs). */
    static bool Needed(const Scenario& scenario);

    /** Sizes FabricContext::jobLinks and connects to every device's Tx trace. */
    JobLinkCounter(const Scenario& scenario, FabricContext& ctx, const NetworkBuilder& network);

  private:
    /** One device's sink: knows its node, so a port index names a link and a direction. */
    struct Sink
    {
        JobLinkCounter* owner = nullptr;
        uint32_t node = 0;
        const FabricDevice* device = nullptr;
        void OnTx(uint32_t port, const RocePacket& p);
    };

    const Scenario& m_scenario;
    FabricContext& m_ctx;
    std::vector<uint32_t> m_linkA; ///< by link id: its end a (direction 0 is a -> b)
    std::vector<Sink> m_sinks;     ///< one per device, never resized after connecting
};

} // namespace fabric

#endif
