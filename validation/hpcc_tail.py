"""Which flows make the HPCC benchmark's slowdown tail, and what FabricTwin gives for them.

    python -m validation.hpcc_tail RESULT.json [--data validation/data/hpcc] [--markdown out.md]

The tail: the flows the reference completed with a slowdown above its own p95. For each, the
size class, where the two hosts sit (same ToR, same pod, across pods), and how busy its hosts
were while it ran in the reference: the mean number of other flows of the same sender (and of
the same receiver) active over its lifetime (overlap / own FCT, summed), and of flows into its
sender (their data queues where its ACKs come back). Beside the reference's
slowdown: ours for exactly those flows, and the median ln(ours/theirs) per class. A class whose
median ratio is clearly below 0 is where our tail is short.
"""

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from validation.hpcc_compare import ROOT, flow_rows, stats

HOSTS_PER_TOR, TORS_PER_POD = 16, 4  # the benchmark's fat tree (topology-fat.txt)
END_NS = 10_000_000  # flows not completed by the reference are active until the run's end


def placement(src: int, dst: int) -> str:
    if src // HOSTS_PER_TOR == dst // HOSTS_PER_TOR:
        return "same ToR"
    if src // (HOSTS_PER_TOR * TORS_PER_POD) == dst // (HOSTS_PER_TOR * TORS_PER_POD):
        return "same pod"
    return "across pods"


def size_class(size: int) -> str:
    return "< 100 KB" if size < 100_000 else ("100 KB - 1 MB" if size < 1_000_000 else ">= 1 MB")


def mean_competitors(rows: list[dict], key: str, their_key: str | None = None) -> list[float]:
    """Per listed row: the other listed flows whose `their_key` host is this row's `key` host
    (default the same key: the same sender or receiver), their overlap with this flow's lifetime
    in the reference summed and divided by that lifetime (the mean number of rivals)."""
    their_key = their_key or key
    life = [(r["start_ns"], r["start_ns"] + r["theirs"] if r["theirs"] is not None else END_NS)
            for r in rows]
    by_host = defaultdict(list)
    for i, r in enumerate(rows):
        if r["listed"]:
            by_host[r[their_key]].append(i)
    out = [0.0] * len(rows)
    for i, r in enumerate(rows):
        if not r["listed"]:
            continue
        a, b = life[i]
        overlap = sum(max(0, min(b, life[j][1]) - max(a, life[j][0]))
                      for j in by_host.get(r[key], ()) if j != i)
        out[i] = overlap / max(1, b - a)
    return out


def rivals_class(x: float) -> str:
    return "0" if x < 0.5 else ("about 1" if x < 1.5 else ">= 1.5")


def analyse(result: dict, data: Path) -> dict:
    rows, _ = flow_rows(result, data)
    send_rivals = mean_competitors(rows, "src")
    recv_rivals = mean_competitors(rows, "dst")
    into_sender = mean_competitors(rows, "src", "dst")
    for r, s, d, a in zip(rows, send_rivals, recv_rivals, into_sender):
        r["send_rivals"], r["recv_rivals"], r["into_sender"] = s, d, a
    ref_done = [r for r in rows if r["theirs"] is not None]
    ours_done = [r for r in rows if r["ours"] is not None]
    ref_p95 = stats([r["theirs"] / r["alone"] for r in ref_done])["p95"]
    our_p95 = stats([r["ours"] / r["alone"] for r in ours_done])["p95"]
    tail = [r for r in ref_done if r["theirs"] / r["alone"] > ref_p95]
    our_tail = [r for r in ours_done if r["ours"] / r["alone"] > our_p95]
    both = [r for r in tail if r["ours"] is not None]
    groups = {}
    for name, fn in (("size", lambda r: size_class(r["size"])),
                     ("placement", lambda r: placement(r["src"], r["dst"])),
                     ("sender rivals", lambda r: rivals_class(r["send_rivals"])),
                     ("receiver rivals", lambda r: rivals_class(r["recv_rivals"])),
                     ("flows into the sender", lambda r: rivals_class(r["into_sender"]))):
        table = defaultdict(list)
        for r in tail:
            table[fn(r)].append(r)
        groups[name] = {label: summarise(sub) for label, sub in sorted(table.items())}
    return {
        "reference_p95": ref_p95, "ours_p95": our_p95, "tail_flows": len(tail),
        "tail_completed_by_ours": len(both),
        "tail_in_our_tail": sum(1 for r in both if r["ours"] / r["alone"] > our_p95),
        "our_tail_flows": len(our_tail),
        "all": summarise(tail), "groups": groups,
        "all_flows_rivals": {
            "sender_mean": float(np.mean([r["send_rivals"] for r in ref_done])),
            "receiver_mean": float(np.mean([r["recv_rivals"] for r in ref_done])),
            "tail_sender_mean": float(np.mean([r["send_rivals"] for r in tail])),
            "tail_receiver_mean": float(np.mean([r["recv_rivals"] for r in tail]))},
    }


def summarise(sub: list[dict]) -> dict:
    done = [r for r in sub if r["ours"] is not None]
    ratio = [np.log(r["ours"] / r["theirs"]) for r in done]
    return {"flows": len(sub), "ours_completed": len(done),
            "theirs_median": float(np.median([r["theirs"] / r["alone"] for r in sub])),
            "ours_median": float(np.median([r["ours"] / r["alone"] for r in done])) if done else None,
            "median_log_ratio": float(np.median(ratio)) if ratio else None}


def markdown(a: dict) -> str:
    lines = [f"Reference tail: {a['tail_flows']} flows above its p95 ({a['reference_p95']:.3f}); "
             f"we complete {a['tail_completed_by_ours']} of them, {a['tail_in_our_tail']} of which are "
             f"above our own p95 ({a['ours_p95']:.3f}). Mean rivals (other flows of the same host "
             f"active meanwhile, in the reference) over all completed flows: sender "
             f"{a['all_flows_rivals']['sender_mean']:.2f}, receiver "
             f"{a['all_flows_rivals']['receiver_mean']:.2f}; over the tail: sender "
             f"{a['all_flows_rivals']['tail_sender_mean']:.2f}, receiver "
             f"{a['all_flows_rivals']['tail_receiver_mean']:.2f}.", "",
             "| class | value | tail flows | we complete | reference median slowdown | ours | "
             "median ln(ours/theirs) |", "|---|---|---|---|---|---|---|"]

    def row(cls, label, s):
        ours = "-" if s["ours_median"] is None else f"{s['ours_median']:.3f}"
        lr = "-" if s["median_log_ratio"] is None else f"{s['median_log_ratio']:+.3f}"
        lines.append(f"| {cls} | {label} | {s['flows']} | {s['ours_completed']} | "
                     f"{s['theirs_median']:.3f} | {ours} | {lr} |")

    row("all", "", a["all"])
    for cls, table in a["groups"].items():
        for label, s in table.items():
            row(cls, label, s)
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", type=Path)
    parser.add_argument("--data", type=Path, default=ROOT / "validation" / "data" / "hpcc")
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    text = markdown(analyse(json.loads(args.result.read_text()), args.data))
    if args.markdown:
        args.markdown.write_text(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
