"""validation/hpcc_compare.py: the reference's own FCTs fed back as "ours" pass every target
with a zero log ratio; a run 20% slower on every flow fails the slowdown targets."""

import json
from decimal import Decimal

from tests.support import ROOT
from validation.hpcc_compare import compare, markdown

DATA = ROOT / "validation" / "data" / "hpcc"


def reference_as_result(scale: float) -> dict:
    """A result whose completed flows have the reference's FCT x scale."""
    lines = [l.split() for l in (DATA / "flows-websearch30.txt").read_text().splitlines()[1:]]
    fct = {}
    for line in (DATA / "fct-dcqcn.txt").read_text().splitlines():
        sip, dip, sport, _, _, _, t, _ = line.split()
        fct[((int(sip, 16) >> 8) & 0xFFFF, (int(dip, 16) >> 8) & 0xFFFF, int(sport))] = int(t)
    port, flows = {}, []
    for src, dst, _pg, _dport, size, start in lines:
        key = (int(src), int(dst))
        sport = port.get(key, 10000)
        port[key] = sport + 1
        start_us = round(float((Decimal(start) - Decimal("2.000")) * 1_000_000), 3)
        if start_us >= 10_000:
            continue
        t = fct.get((*key, sport))
        flows.append({"src": f"h{src}", "dst": f"h{dst}", "size_bytes": int(size), "start_us": start_us,
                      "sender_fct_us": None if t is None else t * scale / 1000, "slowdown": None})
    return {"flows": flows}


def test_reference_against_itself_passes_exactly():
    c = compare(reference_as_result(1.0), DATA)
    assert c["standalone_formula_mismatches"] == 0
    assert c["reference_completed"] == c["ours_completed"] == c["both_completed"] == 6767
    assert c["flows_started_in_run"] == 7010
    assert round(c["slowdown_reference"]["p50"], 3) == 1.188
    assert round(c["slowdown_reference"]["p95"], 3) == 4.218
    assert round(c["slowdown_reference"]["p99"], 3) == 6.266
    assert abs(c["abs_log_ratio"]["p90"]) < 1e-9 and c["all_pass"]
    assert "| completed flows by 10 ms | 6,767 | 3% | 6,767 | PASS |" in markdown(c)


def test_twenty_percent_slower_fails_the_slowdown_targets():
    c = compare(reference_as_result(1.2), DATA)
    assert [t["pass"] for t in c["targets"]] == [False, False, False, True]
    assert abs(c["abs_log_ratio"]["median"] - 0.18232) < 1e-4  # ln 1.2
    json.dumps(c)  # serialisable
