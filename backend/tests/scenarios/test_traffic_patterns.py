"""Stride and inter-pod permutation generators in the Pydantic models (the simulator's side is
simcore/test/scenario-traffic-patterns-test.cc; docs/examples hold them together)."""

import pytest
from pydantic import ValidationError

from app.scenarios.document import Scenario


def fat_tree(generator: dict) -> dict:
    """A k = 4 fat tree (16 hosts) with one generator."""
    return {"schema_version": 1, "duration_us": 100, "topology": {"kind": "fat_tree", "k": 4},
            "traffic": [generator]}


def test_stride_accepts_one_to_hosts_minus_one():
    for stride in (1, 4, 15):
        Scenario.model_validate(fat_tree({"kind": "stride", "stride": stride}))
    Scenario.model_validate(fat_tree({"kind": "stride", "stride": 2, "hosts": ["h0", "h5", "h9"]}))


@pytest.mark.parametrize(("generator", "message"), [
    ({"kind": "stride", "stride": 16}, "<= 15"),
    ({"kind": "stride", "stride": 3, "hosts": ["h0", "h5", "h9"]}, "<= 2"),
    ({"kind": "stride", "stride": 0}, "greater than or equal to 1"),
])
def test_stride_out_of_range_names_the_field(generator, message):
    with pytest.raises(ValidationError) as info:
        Scenario.model_validate(fat_tree(generator))
    errors = info.value.errors()
    assert any(e["loc"][-1] == "stride" and e["loc"][0] == "traffic" for e in errors), errors
    assert any(message in e["msg"] for e in errors), errors


def test_stride_requires_stride():
    with pytest.raises(ValidationError) as info:
        Scenario.model_validate(fat_tree({"kind": "stride"}))
    assert any(e["loc"][-1] == "stride" and e["type"] == "missing" for e in info.value.errors())


def test_inter_pod_permutation_hosts_must_exist():
    Scenario.model_validate(fat_tree({"kind": "inter_pod_permutation", "size_bytes": 1000}))
    with pytest.raises(ValidationError) as info:
        Scenario.model_validate(fat_tree({"kind": "inter_pod_permutation", "hosts": ["h0", "h99"]}))
    assert any(e["loc"][-2:] == ("hosts", 1) for e in info.value.errors()), info.value.errors()
