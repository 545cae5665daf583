/*
 * The per-frame state laid out for the caches keeps its meaning: a ring (a switch queue, a link's
 * frames in flight) stays first in, first out when it empties, wraps and grows, and restarts at
 * its first element once empty; a port's pause mask has a priority's bit exactly while that
 * priority's pausedUntil is set (a dequeue reads the mask instead of pausedUntil).
 */
#include "model/fabric-device.h"
#include "model/packet-queue.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>

using namespace fabric;

TEST(ModelPortState, RingStaysFifoThroughEmptyingWrapAndGrowth)
{
    RingQueue<InFlight> ring;
    std::deque<int64_t> ref;
    std::mt19937 rng(11);
    int64_t next = 0;
    size_t restarts = 0;
    for (int step = 0; step < 100000; ++step)
    {
        // Bursts that fill past the capacity (growth), and drains that empty it (restart).
        bool push = ref.empty() || (rng() % 100) < (step % 2000 < 1000 ? 55u : 40u);
        if (push)
        {
            InFlight f;
            f.arrivePs = next++;
            ring.Push(f);
            ref.push_back(f.arrivePs);
        }
        else
        {
            ASSERT_EQ(ring.Front().arrivePs, ref.front()) << "step " << step;
            InFlight f = ring.Pop();
            ASSERT_EQ(f.arrivePs, ref.front()) << "step " << step;
            ref.pop_front();
            if (ref.empty())
            {
                ++restarts;
            }
        }
        ASSERT_EQ(ring.Size(), ref.size());
    }
    EXPECT_GT(restarts, 100u);
    // Order through a copy (end-of-run accounting walks a ring with ForEach).
    std::vector<int64_t> seen;
    ring.ForEach([&](const InFlight& f) { seen.push_back(f.arrivePs); });
    EXPECT_EQ(seen, std::vector<int64_t>(ref.begin(), ref.end()));
}

TEST(ModelPortState, RingRestartsAtItsFirstElementOnceEmpty)
{
    RingQueue<InFlight> ring;
    InFlight f;
    for (int i = 0; i < 5; ++i)
    {
        ring.Push(f);
    }
    const InFlight* first = &ring.Front();
    for (int i = 0; i < 3; ++i)
    {
        ring.Pop(); // never empty: the head walks on
        ring.Push(f);
    }
    EXPECT_NE(&ring.Front(), first);
    while (!ring.Empty())
    {
        ring.Pop();
    }
    ring.Push(f);
    EXPECT_EQ(&ring.Front(), first) << "an emptied ring starts again at its first element";
}

TEST(ModelPortState, PauseMaskFollowsPausedUntil)
{
    Port p;
    std::mt19937 rng(5);
    for (int step = 0; step < 10000; ++step)
    {
        uint8_t prio = static_cast<uint8_t>(rng() % kNumPriorities);
        int64_t until = rng() % 3 == 0 ? 0 : static_cast<int64_t>(rng() % 1000000) + 1;
        p.SetPausedUntil(prio, until);
        for (uint8_t q = 0; q < kNumPriorities; ++q)
        {
            ASSERT_EQ(((p.pausedMask >> q) & 1) != 0, p.pausedUntil[q] != 0) << "step " << step;
        }
    }
}
