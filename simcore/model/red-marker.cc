#include "model/red-marker.h"

namespace fabric
{

double
RedMarker::Probability(uint64_t q, const EcnConfig& cfg)
{
    if (!cfg.enabled || q <= cfg.kminBytes)
    {
        return 0.0;
    }
    if (q > cfg.kmaxBytes)
    {
        return 1.0;
    }
    if (cfg.kmaxBytes <= cfg.kminBytes)
    {
        return 1.0;
    }
    return cfg.pmax * static_cast<double>(q - cfg.kminBytes) /
           static_cast<double>(cfg.kmaxBytes - cfg.kminBytes);
}

RedMarker::RedMarker(ns3::Ptr<ns3::UniformRandomVariable> stream)
    : m_rng(stream)
{
}

void
RedMarker::SetStream(ns3::Ptr<ns3::UniformRandomVariable> stream)
{
    m_rng = stream;
}

bool
RedMarker::ShouldMark(uint64_t q, const EcnConfig& cfg)
{
    double p = Probability(q, cfg);
    if (p <= 0.0)
    {
        return false;
    }
    if (p >= 1.0)
    {
        return true;
    }
    return m_rng && m_rng->GetValue() < p;
}

} // namespace fabric
