"""The collective generator and flow dependencies in the Pydantic models (the simulator's side is
simcore/test/scenario-collective-plan-test.cc), and through the API: bad input is a 422 naming the
field, through the simulator's own checks too (power-of-two ranks, placement), nothing stored."""

import pytest
from pydantic import ValidationError

from app.scenarios.document import Scenario

RAIL = {"kind": "rail_optimized", "units": 2, "servers_per_unit": 2, "nics_per_server": 4, "spines": 2}


def doc(*generators: dict, topology: dict | None = None) -> dict:
    return {"schema_version": 1, "duration_us": 1000, "topology": topology or RAIL,
            "traffic": list(generators)}


def errors_of(document: dict) -> list[dict]:
    with pytest.raises(ValidationError) as info:
        Scenario.model_validate(document)
    return info.value.errors()


def test_collective_defaults_and_fields():
    s = Scenario.model_validate(doc({"kind": "collective", "op": "all_reduce", "message_bytes": 1000}))
    gen = s.traffic[0]
    # unset algorithm: the op's first (the simulator resolves it from the same generated table)
    assert (gen.algorithm, gen.channels, gen.chunk_bytes, gen.iterations, gen.placement) == \
        (None, 1, 0, 1, "packed")
    Scenario.model_validate(doc({"kind": "collective", "op": "all_to_all", "algorithm": "direct",
                                 "message_bytes": 1000, "servers": 2, "placement": "spread"}))
    # an all_to_all that names no algorithm is valid (it was refused as "ring")
    Scenario.model_validate(doc({"kind": "collective", "op": "all_to_all", "message_bytes": 1000}))


@pytest.mark.parametrize(("generator", "loc", "message"), [
    ({"op": "all_to_all", "algorithm": "ring"}, ("algorithm",), "allowed for all_to_all: direct"),
    ({"op": "broadcast", "algorithm": "hierarchical"}, ("algorithm",), "ring, tree"),
    ({"op": "all_reduce", "hosts": ["h0", "h1", "h0"]}, ("hosts", 2), "a rank twice"),
    ({"op": "all_reduce", "hosts": ["h0", "h1"], "servers": 2}, ("servers",), "not both"),
    ({"op": "all_reduce", "qps": 2}, ("qps",), "channels"),
    ({"op": "all_reduce", "channels": 65}, ("channels",), "less than or equal to 64"),
    ({"op": "all_sum"}, ("op",), "all_reduce"),
])
def test_collective_bad_input_names_the_field(generator, loc, message):
    gen = {"kind": "collective", "message_bytes": 1000, **generator}
    errors = errors_of(doc(gen))
    assert any(tuple(e["loc"][-len(loc):]) == loc and message in e["msg"] for e in errors), errors


def test_collective_message_bytes_required_and_positive():
    errors = errors_of(doc({"kind": "collective", "op": "all_reduce"}))
    assert any(e["loc"][-1] == "message_bytes" and e["type"] == "missing" for e in errors)
    errors = errors_of(doc({"kind": "collective", "op": "all_reduce", "message_bytes": 0}))
    assert any(e["loc"][-1] == "message_bytes" for e in errors)


LEAF_SPINE = {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2}


def flows(*items: dict) -> dict:
    return doc({"kind": "flows", "flows": list(items)}, topology=LEAF_SPINE)


def flow(src: str, dst: str, **extra) -> dict:
    return {"src": src, "dst": dst, "size_bytes": 1000, "start_us": 0, **extra}


def test_flow_list_after_and_gap():
    s = Scenario.model_validate(flows(flow("h0", "h1"), flow("h1", "h2", after=[0], gap_us=3)))
    assert s.traffic[0].flows[1].after == [0] and s.traffic[0].flows[1].gap_us == 3


def test_flow_list_cycle_is_refused_at_its_lowest_flow():
    errors = errors_of(flows(flow("h0", "h1", after=[2]), flow("h1", "h2", after=[0]),
                             flow("h2", "h3", after=[1])))
    assert any(e["loc"][-3:] == ("flows", 0, "after") and "dependency cycle" in e["msg"]
               for e in errors), errors


@pytest.mark.parametrize(("after", "message"), [([0], "another flow"), ([5], "0 .. 1")])
def test_flow_list_after_must_name_another_listed_flow(after, message):
    errors = errors_of(flows(flow("h0", "h1", after=after), flow("h1", "h2")))
    assert any(e["loc"][-2:] == ("after", 0) and message in e["msg"] for e in errors), errors


def test_api_422_from_the_simulator_and_nothing_stored(api):
    before = api.get("/scenarios").json()["count"]
    # the simulator's rules: halving-doubling needs 2^k ranks; placement counts free servers
    for generator, field, message in [
        ({"algorithm": "halving_doubling", "hosts": ["h0", "h1", "h2"]}, "hosts", "power-of-two"),
        ({"servers": 5}, "servers", "4 of the fabric's 4 are free"),
    ]:
        body = doc({"kind": "collective", "op": "all_reduce", "message_bytes": 3000, **generator})
        body["name"] = "bad collective"
        response = api.post("/scenarios", json={"scenario": body})
        assert response.status_code == 422, response.text
        detail = response.json()["detail"]
        assert any(d["loc"][-1] == field and message in d["msg"] for d in detail), detail
    assert api.get("/scenarios").json()["count"] == before
    good = doc({"kind": "collective", "op": "all_reduce", "message_bytes": 4000})
    good["name"] = "a ring"
    assert api.post("/scenarios", json={"scenario": good}).status_code == 201


def test_job_names_are_unique_and_hosts_exist():
    errors = errors_of(doc({"kind": "collective", "op": "all_reduce", "message_bytes": 1000, "job": "j"},
                           {"kind": "collective", "op": "all_gather", "message_bytes": 1000, "job": "j"}))
    assert any(e["loc"][-3:] == ("traffic", 1, "job") and "already the job of traffic[0]" in e["msg"]
               for e in errors), errors
    errors = errors_of(doc({"kind": "collective", "op": "all_reduce", "message_bytes": 1000,
                            "hosts": ["h0", "leaf0_0"]}))
    assert any(e["loc"][-2:] == ("hosts", 1) and "a switch" in e["msg"] for e in errors), errors
