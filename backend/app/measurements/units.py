"""The units the benchmark tools print, converted once to the simulator's Gbit/s.

- NCCL-tests prints algbw and busbw in GB/s, 10^9 bytes per second (doc/PERFORMANCE.md: "two
  bandwidths in GB/s"; src/common.cu computes them as bytes / 1e9 / seconds).
- perftest prints MB/sec, 2^20 bytes per second (src/perftest_parameters.c: format_factor
  0x100000), or with --report_gbits Gb/sec, 125,000,000 bytes (10^9 bits) per second.
- The simulator reports Gbit/s, 10^9 bits per second (docs/result-format.md).

docs/real-fabric.md, "Units", works each conversion by hand; backend/tests/measurements/
test_units.py checks these functions against those numbers.
"""

BITS_PER_BYTE = 8
NCCL_GB = 10**9             # bytes in NCCL-tests' GB
PERFTEST_MB = 2**20         # bytes in perftest's MB
PERFTEST_GBIT = 125_000_000  # bytes in perftest's Gb (10^9 bits)
GBIT = 10**9                # bits in the simulator's Gbit


def nccl_gbs_to_gbps(value: float) -> float:
    """NCCL-tests GB/s (10^9 B/s) -> Gbit/s."""
    return value * NCCL_GB * BITS_PER_BYTE / GBIT


def gbps_to_nccl_gbs(value: float) -> float:
    """Gbit/s -> NCCL-tests GB/s (10^9 B/s)."""
    return value * GBIT / BITS_PER_BYTE / NCCL_GB


def perftest_mbs_to_gbps(value: float) -> float:
    """perftest MB/sec (2^20 B/s) -> Gbit/s."""
    return value * PERFTEST_MB * BITS_PER_BYTE / GBIT


def perftest_gbits_to_gbps(value: float) -> float:
    """perftest --report_gbits Gb/sec (125,000,000 B/s) -> Gbit/s."""
    return value * PERFTEST_GBIT * BITS_PER_BYTE / GBIT


def gbps_to_perftest_mbs(value: float) -> float:
    """Gbit/s -> perftest MB/sec (2^20 B/s)."""
    return value * GBIT / BITS_PER_BYTE / PERFTEST_MB
