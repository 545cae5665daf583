/*
 * Sender-side (reaction point) congestion control of one queue pair, swappable by TypeId
 * in the manner of ns3::TcpCongestionOps.
 */
#ifndef FABRIC_CONGESTION_OPS_H
#define FABRIC_CONGESTION_OPS_H

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>

namespace fabric
{

/**
 * Abstract reaction point. The NIC asks GetRateBps() before pacing each packet, reports the
 * bytes it sends and every CNP it receives for the QP.
 */
class CongestionOps : public ns3::Object
{
  public:
    static ns3::TypeId GetTypeId();

    /** Starts the QP at line rate. */
    virtual void Init(double lineRateBps) = 0;
    /** Current sending rate in bit/s. */
    virtual double GetRateBps() const = 0;
    /** A congestion notification packet arrived for this QP. */
    virtual void OnCnp() = 0;
    /** The QP put bytes on the wire (including headers). */
    virtual void OnBytesSent(uint32_t bytes) = 0;
    /** The QP finished: cancel any timer. */
    virtual void Stop() = 0;
    virtual std::string GetName() const = 0;

    /** Maps the scenario's algorithm name ("dcqcn", "none") to a TypeId name. */
    static std::string TypeIdNameFor(const std::string& algorithm);
};

/** No congestion control: always line rate. */
class NoCongestionControl : public CongestionOps
{
  public:
    static ns3::TypeId GetTypeId();

    void Init(double lineRateBps) override;
    double GetRateBps() const override;
    void OnCnp() override;
    void OnBytesSent(uint32_t bytes) override;
    void Stop() override;
    std::string GetName() const override;

  private:
    double m_lineRate = 0;
};

} // namespace fabric

#endif
