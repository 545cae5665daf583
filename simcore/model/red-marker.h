/*
 * RED/ECN marking on the instantaneous egress queue at enqueue time.
 */
#ifndef FABRIC_RED_MARKER_H
#define FABRIC_RED_MARKER_H

#include "model/fabric-config.h"

#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace fabric
{

class RedMarker
{
  public:
    /** Marking probability: 0 for q <= Kmin, Pmax (q-Kmin)/(Kmax-Kmin) up to Kmax, 1 above. */
    static double Probability(uint64_t queueBytes, const EcnConfig& cfg);

    /** Uses stream for the Bernoulli draws (one draw only when 0 < p < 1). */
    explicit RedMarker(ns3::Ptr<ns3::UniformRandomVariable> stream);
    RedMarker() = default;
    void SetStream(ns3::Ptr<ns3::UniformRandomVariable> stream);

    bool ShouldMark(uint64_t queueBytes, const EcnConfig& cfg);

  private:
    ns3::Ptr<ns3::UniformRandomVariable> m_rng;
};

} // namespace fabric

#endif
