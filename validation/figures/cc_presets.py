"""docs/model.md, "Congestion-control presets at 25, 100 and 400 Gbit/s": each DCQCN preset (and
no congestion control) on a 2-to-1 incast and an 8-rank all-to-all, at three host rates, with the
switches' default ECN and PFC settings (what a new scenario gets)."""

from validation.figures.core import case, figure, job, queue, thr

RATES = (25, 100, 400)
SETTINGS = {  # column -> nic.cc
    "nvidia": {"preset": "nvidia-default"},
    "paper": {"preset": "dcqcn-paper"},
    "hpcc": {"preset": "hpcc-dcqcn"},
    "none": {"algorithm": "none"},
}
MTU = 1000
BLOCK_PER_GBPS = 40_000  # all-to-all block bytes per Gbit/s of host rate: 4 MB at 100G


def payload_gbps(rate: float) -> float:
    return rate * MTU / (MTU + 82)


def incast(rate: int, cc: dict):
    """h2, h3 (leaf1) -> h0 (leaf0), long-lived; hosts at `rate`, fabric at 4 x rate."""
    return lambda: {
        "schema_version": 1, "name": f"2-to-1 incast at {rate}G", "seed": 1,
        "duration_us": 3000, "warmup_us": 500,
        "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2,
                     "host_rate_gbps": rate, "fabric_rate_gbps": 4 * rate, "link_delay_us": 1},
        "nic": {"cc": dict(cc)},
        "traffic": [{"kind": "incast", "senders": ["h2", "h3"], "receiver": "h0",
                     "size_bytes": 0}],
    }


def all_to_all(rate: int, cc: dict):
    """8 ranks, 2 leaves of 4, one spine; uplinks at 2 x rate (2:1); blocks of rate x 40 KB."""
    return lambda: {
        "schema_version": 1, "name": f"8-rank all-to-all on a 2:1 leaf-spine at {rate}G",
        "seed": 1, "duration_us": 20000,
        "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 4,
                     "host_rate_gbps": rate, "fabric_rate_gbps": 2 * rate, "link_delay_us": 1},
        "nic": {"cc": dict(cc)},
        "traffic": [{"kind": "collective", "name": "a2a", "op": "all_to_all",
                     "algorithm": "direct", "message_bytes": 8 * BLOCK_PER_GBPS * rate,
                     "job": "a2a"}],
    }


def a2a_bound_us(rate: int) -> float:
    """Each leaf's 4 ranks send 4 blocks each to the other leaf through 2 x rate: 8 blocks' time at
    the host's payload rate (more than the 7 blocks each NIC sends)."""
    return 8 * BLOCK_PER_GBPS * rate * 8 / (payload_gbps(rate) * 1000)


for rate in RATES:
    for col, cc in SETTINGS.items():
        c = case(f"cc.incast.{rate}.{col}", scenario=incast(rate, cc))
        figure(f"cc.incast.{rate}.{col}.pct", c, lambda r, rate=rate:
               100 * thr(r) / payload_gbps(rate), 0, "goodput, % of the port's payload rate")
        figure(f"cc.incast.{rate}.{col}.queue", c,
               lambda r: queue(r, "leaf0->h0")["mean_bytes"] / 1000, 0, "mean queue, KB")
        c = case(f"cc.a2a.{rate}.{col}", scenario=all_to_all(rate, cc))
        figure(f"cc.a2a.{rate}.{col}.x", c, lambda r, rate=rate:
               (job(r, "a2a")["jct_us"] or float("inf")) / a2a_bound_us(rate), 2,
               "JCT over the bound")
