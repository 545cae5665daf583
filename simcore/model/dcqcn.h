/*
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015), as described in docs/model.md.
 */
#ifndef FABRIC_DCQCN_H
#define FABRIC_DCQCN_H

#include "model/dcqcn-base.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

namespace fabric
{

class Dcqcn : public DcqcnBase
{
  public:
    static ns3::TypeId GetTypeId();
    Dcqcn();

    void Init(double lineRateBps) override;
    void OnCnp() override;
    void Stop() override;
    std::string GetName() const override;

    /** Alpha as of now, the alpha timer's ticks applied lazily. */
    double GetAlpha() const;

  protected:
    void DoDispose() override;

  private:
    void OnDeferredCut();
    void AdvanceAlpha();
    void Cut(double alpha);

    bool m_alphaRestartsOnCnp = true; ///< alpha timer restarted by each CNP (else periodic)
    int64_t m_alphaRefPs = 0;    ///< time alpha was last set (last CNP or timer tick, or Init)
    bool m_cnpSinceTick = false; ///< periodic alpha timer: a CNP came since the last tick
    int64_t m_lastCutPs = -1;    ///< -1: never cut
    ns3::EventId m_cutEvent;     ///< a cut owed at the end of the decrease interval
};

} // namespace fabric

#endif
