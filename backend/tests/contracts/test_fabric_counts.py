"""The declared node, link and host counts of each generator (app/scenarios/fabric_counts.py) are
what the simulator builds: `fabricsim expand` on the real binary, for every generator at its
defaults and at uneven sizes. The API (topology.counts, runs.threads.host_count), the simulator's
limits (scenario-contract.h, namespace counts) and the editor (FABRIC_COUNTS) all read them."""

import pytest
from pydantic import TypeAdapter

from app.core import simulator
from app.scenarios import fabric_counts
from app.scenarios.topology import Topology, counts
from app.runs import threads

TOPOLOGIES = [
    {"kind": "leaf_spine"},
    {"kind": "leaf_spine", "leaves": 3, "spines": 5, "hosts_per_leaf": 7},
    {"kind": "fat_tree"},
    {"kind": "fat_tree", "k": 6},
    {"kind": "three_tier"},
    {"kind": "three_tier", "podsets": 3, "tors_per_podset": 2, "leafs_per_podset": 2, "spines": 6, "hosts_per_tor": 5},
    {"kind": "dci"},
    {"kind": "dci", "site": {"leaves": 3, "spines": 1, "hosts_per_leaf": 4}},
    {"kind": "rail_optimized"},
    {"kind": "rail_optimized", "units": 3, "servers_per_unit": 2, "nics_per_server": 4, "spines": 5},
    {"kind": "multi_plane"},
    {"kind": "multi_plane", "planes": 3, "units": 2, "servers_per_unit": 3, "nics_per_server": 2, "spines": 5},
]


@pytest.mark.parametrize("topology", TOPOLOGIES, ids=lambda t: "-".join(map(str, t.values())))
def test_counts_are_what_the_simulator_builds(topology):
    expanded = simulator.expand({"schema_version": 1, "topology": topology})
    built_hosts = sum(n["kind"] == "host" for n in expanded["nodes"])
    model = TypeAdapter(Topology).validate_python(topology)
    assert counts(model) == (len(expanded["nodes"]), len(expanded["links"]))
    assert threads.host_count({"topology": topology}) == built_hosts
    assert fabric_counts.count(model.kind, "hosts", model) == built_hosts


def test_every_generator_has_its_three_counts():
    kinds = {t["kind"] for t in TOPOLOGIES}
    assert set(fabric_counts.FABRIC_COUNTS) == kinds
    assert all(set(f) == {"hosts", "nodes", "links"} for f in fabric_counts.FABRIC_COUNTS.values())


def test_a_formula_is_arithmetic_only():
    with pytest.raises(ValueError, match="not allowed"):
        fabric_counts.parse("__import__('os').getpid()")
    with pytest.raises(ValueError, match="not a whole number"):
        fabric_counts.evaluate("k / 4", lambda _: 3)
    assert fabric_counts.render("site.leaves * (k + 1)", str.upper) == "SITE.LEAVES * (K + 1)"
