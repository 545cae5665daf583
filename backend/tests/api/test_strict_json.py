"""Strict JSON bodies (issue 7, section 4): a key given twice or a number JSON cannot hold is a
422 naming where it is, as `fabricsim validate` refuses the same file; nothing is stored."""

import json

import pytest

from app.core.strict_json import strict_errors
from tests.scenarios_data import incast


def post(api, path: str, raw: bytes):
    """POST raw JSON bytes."""
    return api.post(path, content=raw, headers={"content-type": "application/json"})


def test_duplicate_key_is_named_by_path():
    errors = strict_errors(b'{"scenario": {"topology": {"links": [{"a": 1}, {"a": 1, "a": 2}]}}}')
    assert errors == [{"loc": ("body", "scenario", "topology", "links", 1, "a"),
                       "type": "duplicate_key",
                       "msg": "duplicate key 'a' (each key may appear once in an object)"}]
    assert strict_errors(b'{"x": {"k": 1}, "y": {"k": 1}}') == []  # same key, other objects


@pytest.mark.parametrize("literal", [b"1e400", b"-1e400", b"NaN", b"Infinity", b"-Infinity"])
def test_non_finite_numbers_are_refused(literal):
    errors = strict_errors(b'{"duration_us": ' + literal + b"}")
    assert len(errors) == 1 and errors[0]["loc"] == ("body",), errors
    assert errors[0]["type"] == "json_invalid"


def test_syntax_errors_are_left_to_fastapi():
    assert strict_errors(b'{"a": ') == []


def test_api_refuses_duplicate_key_with_422_at_its_path(api):
    body = json.dumps({"scenario": incast()})
    raw = body.replace('"schema_version": 1', '"schema_version": 1, "seed": 3, "seed": 4', 1)
    assert raw != body
    for path in ("/scenarios/validate", "/scenarios"):
        response = post(api, path, raw.encode())
        assert response.status_code == 422, response.text
        detail = response.json()["detail"]
        assert detail[0]["loc"] == ["body", "scenario", "seed"], detail
        assert "duplicate key 'seed'" in detail[0]["msg"]
    # the same document without the duplicate is accepted
    assert post(api, "/scenarios/validate", body.encode()).status_code == 200


def test_api_refuses_out_of_range_number(api):
    raw = json.dumps({"scenario": incast()}).replace('"schema_version": 1',
                                                     '"schema_version": 1, "duration_us": 1e400', 1)
    response = post(api, "/scenarios/validate", raw.encode())
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["body"]
    assert "1e400 is out of range" in response.json()["detail"][0]["msg"]


def test_physical_lower_bounds_at_the_api(api):
    cases = [(("topology", "host_rate_gbps"), 1e-6), (("nic", "cc", "min_rate_mbps"), 1e-300),
             (("nic", "cc", "alpha_update_us"), 0.5), (("switch", "pfc", "pause_quanta"), 1),
             (("switch", "pfc", "alpha"), 1e-300)]
    for path, value in cases:
        document = incast()
        node = document
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
        response = api.post("/scenarios/validate", json={"scenario": document})
        assert response.status_code == 422, (path, response.text)
        locs = [item["loc"] for item in response.json()["detail"]]
        assert ["body", "scenario", *path] in locs, (path, locs)
