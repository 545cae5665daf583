/*
 * Test 3: RED/ECN marking. With the queue held at fixed depths, the marked fraction follows
 * p(q) = 0 below Kmin, Pmax (q - Kmin) / (Kmax - Kmin) up to Kmax, 1 above, within 3 sigma.
 */
#include "model/red-marker.h"

#include "ns3/core-module.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace fabric;

TEST(ModelEcn, MarkedFractionFollowsRedLine)
{
    ns3::RngSeedManager::SetSeed(7);
    auto rng = ns3::CreateObject<ns3::UniformRandomVariable>();
    rng->SetStream(3);
    RedMarker red(rng);
    EcnConfig cfg;
    cfg.kminBytes = 100000;
    cfg.kmaxBytes = 400000;
    cfg.pmax = 0.2;
    const int n = 20000;
    for (uint64_t q : {0ul, 50000ul, 100000ul, 150000ul, 250000ul, 350000ul, 400000ul, 400001ul,
                       800000ul})
    {
        double p = q <= 100000 ? 0.0 : (q > 400000 ? 1.0 : 0.2 * (q - 100000) / 300000.0);
        int marked = 0;
        for (int i = 0; i < n; ++i)
        {
            marked += red.ShouldMark(q, cfg) ? 1 : 0;
        }
        double frac = static_cast<double>(marked) / n;
        double sigma = std::sqrt(p * (1 - p) / n);
        EXPECT_NEAR(frac, p, 3 * sigma + 1e-12) << "q=" << q;
        EXPECT_DOUBLE_EQ(RedMarker::Probability(q, cfg), p) << "q=" << q;
    }
}

TEST(ModelEcn, DisabledNeverMarks)
{
    EcnConfig cfg;
    cfg.enabled = false;
    EXPECT_EQ(RedMarker::Probability(10000000, cfg), 0.0);
}
