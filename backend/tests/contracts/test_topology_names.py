"""A generated topology's node names are derived once, by the simulator (`fabricsim expand`):
the API's reference checks use exactly the names it prints."""

import pytest
from pydantic import ValidationError

from app.core import simulator
from app.scenarios import topology
from app.scenarios.document import Scenario

GENERATED = [
    {"kind": "leaf_spine", "leaves": 2, "spines": 3, "hosts_per_leaf": 2},
    {"kind": "fat_tree", "k": 4},
    {"kind": "three_tier", "podsets": 2, "tors_per_podset": 2, "leafs_per_podset": 2, "spines": 4,
     "hosts_per_tor": 2},
    {"kind": "dci", "site": {"leaves": 2, "spines": 2, "hosts_per_leaf": 2}},
]


def doc(topo, **extra):
    return {"schema_version": 1, "topology": topo, **extra}


@pytest.mark.parametrize("topo", GENERATED, ids=lambda t: t["kind"])
def test_node_ids_are_the_simulators(topo):
    expanded = simulator.expand(doc(topo))
    hosts, switches = topology.node_ids(Scenario.model_validate(doc(topo)).topology)
    assert hosts == [n["id"] for n in expanded["nodes"] if n["kind"] == "host"]
    assert switches == [n["id"] for n in expanded["nodes"] if n["kind"] == "switch"]


def test_names_follow_the_simulator_not_a_copy(monkeypatch):
    """Whatever the simulator names the nodes, the API checks references against those names."""
    topology._expanded_ids.cache_clear()
    calls = []

    def fake_expand(document):
        calls.append(document)
        return {"nodes": [{"id": "host-a", "kind": "host"}, {"id": "host-b", "kind": "host"},
                          {"id": "tor-1", "kind": "switch"}], "links": [], "stats": {}}

    monkeypatch.setattr(simulator, "expand", fake_expand)
    try:
        incast = {"kind": "incast", "senders": ["host-a"], "receiver": "host-b"}
        Scenario.model_validate(doc({"kind": "leaf_spine"}, traffic=[incast],
                                    switch_overrides={"tor-1": {"cell_bytes": 256}}))
        with pytest.raises(ValidationError) as exc:
            Scenario.model_validate(doc({"kind": "leaf_spine"},
                                        traffic=[{**incast, "receiver": "h1"}]))
        assert exc.value.errors()[0]["loc"][-1] == "receiver"
        assert len(calls) == 1  # cached per topology
    finally:
        topology._expanded_ids.cache_clear()


def test_without_the_simulator_references_are_left_to_it(monkeypatch):
    topology._expanded_ids.cache_clear()

    def unavailable(document):
        raise simulator.SimulatorUnavailable("fabricsim not found")

    monkeypatch.setattr(simulator, "expand", unavailable)
    try:
        incast = {"kind": "incast", "senders": ["h0"], "receiver": "nowhere"}
        Scenario.model_validate(doc({"kind": "leaf_spine"}, traffic=[incast]))
    finally:
        topology._expanded_ids.cache_clear()
