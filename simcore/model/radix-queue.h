/*
 * A monotone priority queue of unique unsigned 128-bit keys (a radix heap of 16-ary digits): the
 * event queue inside FastHeapScheduler. A simulation takes its events in non-decreasing order,
 * so a key is kept in the bucket named by the highest 4-bit digit where it differs from the last
 * minimum found and that digit's value (32 levels of 16 buckets; no comparison on insertion);
 * finding the next minimum scans the lowest non-empty bucket and spreads it over lower levels.
 * Each key moves down a few times in its life (once a level at most) instead of climbing and
 * falling a heap's levels with three comparisons a level. A key below the last
 * minimum (an event scheduled for "now" by a node ordered before the one running) goes to a
 * small side heap, taken first. Pops the exact minimum: the order of events is a heap's. On
 * request (SetLookahead) it keeps the next few keys taken out ahead, so that the caller can fetch
 * their events' memory before they run; keys pushed below those wait in the side heap.
 */
#ifndef FABRIC_RADIX_QUEUE_H
#define FABRIC_RADIX_QUEUE_H

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace fabric
{

class RadixQueue
{
  public:
    using Key = unsigned __int128;

    bool Empty() const
    {
        return m_size == 0;
    }

    size_t Size() const
    {
        return m_size;
    }

    void Push(Key k)
    {
        ++m_size;
        // Below the last key taken out of the buckets (a key taken ahead included): the side
        // heap, which Pop compares with the keys taken ahead.
        if (__builtin_expect(k < m_last, 0))
        {
            m_early.push_back(k);
            std::push_heap(m_early.begin(), m_early.end(), std::greater<Key>());
            return;
        }
        Put(k);
    }

    /**
     * Keeps the next depth keys (at most kMaxDepth) of the buckets taken out ahead of time, in
     * order, so that Ahead() can name events after the next one (their memory fetched while
     * earlier ones run). A key pushed below them waits in the side heap and comes out in its
     * turn. 0, the default, takes keys out only when asked. Changes no order.
     */
    void SetLookahead(unsigned depth)
    {
        m_depth = depth < kMaxDepth ? depth : kMaxDepth;
    }

    /** Whether keys are or may be taken ahead (then Pop, not PopPlain). */
    bool AheadMode() const
    {
        return (m_depth | m_frontCount) != 0;
    }

    /**
     * Keys taken ahead, in order (the next ones but for keys pushed below them since, which
     * are popped first).
     */
    unsigned AheadCount() const
    {
        return m_frontCount;
    }

    Key Ahead(unsigned i) const
    {
        return FrontAt(i);
    }

    /** The smallest key; only when !Empty(). */
    Key Top()
    {
        if (__builtin_expect(m_frontCount != 0, 0))
        {
            return m_early.empty() || FrontAt(0) < m_early.front() ? FrontAt(0) : m_early.front();
        }
        return BucketTop();
    }

    /** Removes and returns the smallest key; only when !Empty(). */
    Key Pop()
    {
        if (__builtin_expect(AheadMode(), 0))
        {
            return PopAhead();
        }
        return BucketPop();
    }

    /** Pop when !AheadMode() (a run loop that checked once): no lookahead test per key. */
    Key PopPlain()
    {
        return BucketPop();
    }

    /** Pop when keys are taken ahead: the smallest, then the lookahead filled again. */
    __attribute__((noinline)) Key PopAhead()
    {
        Key k;
        if (m_frontCount != 0 && (m_early.empty() || FrontAt(0) < m_early.front()))
        {
            k = FrontAt(0);
            m_frontHead = (m_frontHead + 1) & (kFrontCap - 1);
            --m_frontCount;
            --m_size;
        }
        else
        {
            k = BucketPop(); // the side heap's smallest (below every key taken ahead) or the buckets'
        }
        while (m_frontCount < m_depth && m_size > m_frontCount + m_early.size())
        {
            // The buckets' smallest, leaving the side heap alone.
            if (!m_holdsLast)
            {
                Settle();
            }
            m_holdsLast = false;
            m_front[(m_frontHead + m_frontCount) & (kFrontCap - 1)] = m_last;
            ++m_frontCount;
        }
        return k;
    }

  public:
    /** Calls f(key) for every key, in no particular order. */
    template <typename F>
    void ForEach(F f) const
    {
        for (unsigned i = 0; i < m_frontCount; ++i)
        {
            f(FrontAt(i));
        }
        ForEachInBuckets(f);
    }

    /** Removes the first key (in ForEach's order) that pred accepts; whether one did. */
    template <typename P>
    bool RemoveIf(P pred)
    {
        for (unsigned i = 0; i < m_frontCount; ++i)
        {
            if (pred(FrontAt(i)))
            {
                for (unsigned j = i + 1; j < m_frontCount; ++j)
                {
                    FrontAt(j - 1) = FrontAt(j);
                }
                --m_frontCount;
                --m_size;
                return true;
            }
        }
        return RemoveFromBuckets(pred);
    }

    /** Empties the queue (the last minimum is kept: keys pushed later are not smaller). */
    void Clear()
    {
        m_frontCount = 0;
        m_frontHead = 0;
        m_early.clear();
        for (auto& bucket : m_buckets)
        {
            bucket.clear();
        }
        std::fill(std::begin(m_levelMask), std::end(m_levelMask), 0);
        m_levels = 0;
        m_holdsLast = false;
        m_size = 0;
    }

    static constexpr unsigned kMaxDepth = 12;

  private:
    static constexpr unsigned kFrontCap = 16; ///< a power of two above kMaxDepth

    Key& FrontAt(unsigned i)
    {
        return m_front[(m_frontHead + i) & (kFrontCap - 1)];
    }
    const Key& FrontAt(unsigned i) const
    {
        return m_front[(m_frontHead + i) & (kFrontCap - 1)];
    }

    /** The smallest key outside the lookahead; only when some key is there. */
    __attribute__((always_inline)) Key BucketTop()
    {
        if (__builtin_expect(!m_early.empty(), 0))
        {
            return m_early.front();
        }
        if (!m_holdsLast)
        {
            Settle();
        }
        return m_last;
    }

    /** Removes and returns the smallest key outside the lookahead (counted out of Size()). */
    __attribute__((always_inline)) Key BucketPop()
    {
        Key k = BucketTop();
        --m_size;
        if (__builtin_expect(!m_early.empty(), 0))
        {
            std::pop_heap(m_early.begin(), m_early.end(), std::greater<Key>());
            m_early.pop_back();
            return k;
        }
        m_holdsLast = false;
        return k;
    }

    template <typename F>
    void ForEachInBuckets(F f) const
    {
        for (Key k : m_early)
        {
            f(k);
        }
        if (m_holdsLast)
        {
            f(m_last);
        }
        for (const auto& bucket : m_buckets)
        {
            for (Key k : bucket)
            {
                f(k);
            }
        }
    }

    template <typename P>
    bool RemoveFromBuckets(P pred)
    {
        for (size_t i = 0; i < m_early.size(); ++i)
        {
            if (pred(m_early[i]))
            {
                m_early.erase(m_early.begin() + static_cast<std::ptrdiff_t>(i));
                std::make_heap(m_early.begin(), m_early.end(), std::greater<Key>());
                --m_size;
                return true;
            }
        }
        if (m_holdsLast && pred(m_last))
        {
            m_holdsLast = false;
            --m_size;
            return true;
        }
        for (unsigned b = 0; b < kBuckets; ++b)
        {
            auto& bucket = m_buckets[b];
            for (size_t i = 0; i < bucket.size(); ++i)
            {
                if (pred(bucket[i]))
                {
                    bucket[i] = bucket.back();
                    bucket.pop_back();
                    if (bucket.empty())
                    {
                        Unmark(b);
                    }
                    --m_size;
                    return true;
                }
            }
        }
        return false;
    }

    static constexpr unsigned kDigitBits = 4;
    static constexpr unsigned kDigits = 1u << kDigitBits;
    static constexpr unsigned kLevels = 128 / kDigitBits;
    static constexpr unsigned kBuckets = kLevels * kDigits;

    /** Files k (not the last minimum, not below it) under its highest digit differing from it. */
    void Put(Key k)
    {
        Key x = k ^ m_last;
        uint64_t hi = static_cast<uint64_t>(x >> 64);
        unsigned bit; // index of the highest differing bit
        if (__builtin_expect(hi != 0, 1))
        {
            bit = 127u - static_cast<unsigned>(__builtin_clzll(hi));
        }
        else
        {
            uint64_t lo = static_cast<uint64_t>(x);
            if (lo == 0)
            {
                m_holdsLast = true; // k is the last minimum itself
                return;
            }
            bit = 63u - static_cast<unsigned>(__builtin_clzll(lo));
        }
        unsigned level = bit / kDigitBits;
        unsigned digit = static_cast<unsigned>(k >> (level * kDigitBits)) & (kDigits - 1);
        unsigned b = level * kDigits + digit;
        m_buckets[b].push_back(k);
        m_levelMask[level] |= static_cast<uint16_t>(1u << digit);
        m_levels |= uint32_t(1) << level;
    }

    void Unmark(unsigned b)
    {
        unsigned level = b / kDigits;
        m_levelMask[level] &= static_cast<uint16_t>(~(1u << (b % kDigits)));
        if (m_levelMask[level] == 0)
        {
            m_levels &= ~(uint32_t(1) << level);
        }
    }

    /** The last minimum was taken: makes the smallest key the last minimum. */
    void Settle()
    {
        unsigned level = static_cast<unsigned>(__builtin_ctz(m_levels));
        unsigned digit = static_cast<unsigned>(__builtin_ctz(m_levelMask[level]));
        unsigned b = level * kDigits + digit;
        auto& from = m_buckets[b];
        Key min = from[0];
        for (size_t i = 1; i < from.size(); ++i)
        {
            min = from[i] < min ? from[i] : min;
        }
        m_last = min;
        Unmark(b);
        // Every key of bucket b shares the digits down to this level with min: each lands in a
        // lower level, min itself becomes the held last minimum.
        for (Key k : from)
        {
            Put(k);
        }
        from.clear();
    }

    Key m_last = 0;
    size_t m_size = 0;
    bool m_holdsLast = false; ///< m_last is a key in the queue (the next to pop)
    uint32_t m_levels = 0;    ///< bit l: level l has a non-empty bucket
    uint16_t m_levelMask[kLevels] = {}; ///< bit d: bucket (l, d) holds keys
    std::vector<Key> m_buckets[kBuckets];
    std::vector<Key> m_early; ///< keys below m_last, a min-heap
    /// The lookahead: the next m_frontCount keys in order, from m_frontHead (SetLookahead).
    Key m_front[kFrontCap] = {};
    unsigned m_frontHead = 0;
    unsigned m_frontCount = 0;
    unsigned m_depth = 0;
};

} // namespace fabric

#endif
