"""Small scenario documents used across the tests."""

import copy
from typing import Any

TWO_HOSTS: dict[str, Any] = {
    "schema_version": 1,
    "name": "two hosts line rate",
    "duration_us": 1000,
    "warmup_us": 200,
    "topology": {
        "kind": "explicit",
        "nodes": [{"id": "h0", "kind": "host"}, {"id": "h1", "kind": "host"},
                  {"id": "s0", "kind": "switch", "tier": 1}],
        "links": [{"a": "h0", "b": "s0", "rate_gbps": 100, "delay_us": 1},
                  {"a": "h1", "b": "s0", "rate_gbps": 100, "delay_us": 1}],
    },
    "nic": {"cc": {"algorithm": "none"}},
    "traffic": [{"kind": "pairs", "pairs": [["h0", "h1"]], "size_bytes": 0}],
    "monitor": {"sample_interval_us": 10},
}

INCAST: dict[str, Any] = {
    "schema_version": 1,
    "name": "tiny incast",
    "duration_us": 500,
    "topology": {"kind": "leaf_spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 3,
                 "host_rate_gbps": 25, "fabric_rate_gbps": 100, "link_delay_us": 1},
    "switch": {"ecn": {"kmin_bytes": 5000, "kmax_bytes": 200000, "pmax": 0.01}},
    "traffic": [{"kind": "incast", "senders": ["h1", "h2"], "receiver": "h0", "size_bytes": 0}],
}


def two_hosts(**changes: Any) -> dict[str, Any]:
    """A copy of TWO_HOSTS with top-level changes."""
    document = copy.deepcopy(TWO_HOSTS)
    document.update(changes)
    return document


def incast(**changes: Any) -> dict[str, Any]:
    """A copy of INCAST with top-level changes."""
    document = copy.deepcopy(INCAST)
    document.update(changes)
    return document


def long_running(name: str = "long-running fat tree") -> dict[str, Any]:
    """A k=4 fat tree with a line-rate permutation for 1 s of simulated time: minutes of wall time
    on any machine (about 2 simulated ms per wall second on the dev machine), so a test that must
    act on a RUNNING run (cancel it) never races the run's end. Tests always stop it themselves."""
    return {
        "schema_version": 1, "name": name, "duration_us": 1_000_000,
        "topology": {"kind": "fat_tree", "k": 4, "host_rate_gbps": 100, "fabric_rate_gbps": 100,
                     "link_delay_us": 1},
        "traffic": [{"kind": "permutation", "size_bytes": 0}],
        "monitor": {"sample_interval_us": 1000},
    }
