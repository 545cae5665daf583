"""docs/presets.md section 3 and lab 6: the PFC alpha incident (Guo et al. 2016, section 6)."""

from validation.figures.core import case, cnps, figure, marks, pauses, qmax_kb, qmean_kb, thr

P = "pfc-alpha-incast"
Q = "leaf0->h0"
# The table's runs: 1 ms, 0.2 ms of warm-up, without the preset's replay of the fix at 1000 us.
ONE_MS = {"duration_us": 1000, "faults": []}


def pause_time_us(r: dict) -> float:
    """Time the 7 senders' ports were paused, summed (summary.pfc, whole run)."""
    return sum(p["pause_duration_us"] for p in r["summary"]["pfc"] if p["port"].startswith("h"))


def drops(r: dict) -> float:
    return r["summary"]["drops"]["total"]


ROWS = {
    "a64": case("pfc-alpha.a64", P, patch=ONE_MS),
    "a16": case("pfc-alpha.a16", P, patch=ONE_MS | {"switch.pfc.alpha": 0.0625}),
    "a64-none": case("pfc-alpha.a64-none", P, patch=ONE_MS | {"nic.cc.algorithm": "none"}),
    "a16-none": case("pfc-alpha.a16-none", P,
                     patch=ONE_MS | {"switch.pfc.alpha": 0.0625, "nic.cc.algorithm": "none"}),
}
for row, c in ROWS.items():
    figure(f"pfc-alpha.{row}.pauses", c, pauses, 0)
    figure(f"pfc-alpha.{row}.pause_us", c, pause_time_us, 0)
    figure(f"pfc-alpha.{row}.marks", c, marks, 0)
    figure(f"pfc-alpha.{row}.cnps", c, cnps, 0)
    figure(f"pfc-alpha.{row}.qmean", c, qmean_kb(Q), 0, "KB")
    figure(f"pfc-alpha.{row}.qmax", c, qmax_kb(Q), 0, "KB")
    figure(f"pfc-alpha.{row}.goodput", c, thr, 2)
    figure(f"pfc-alpha.{row}.drops", c, drops, 0)
# With DCQCN: how many times the pauses, their time and the ECN marks change from 1/16 to 1/64.
figure("pfc-alpha.x_pauses", (ROWS["a64"], ROWS["a16"]), lambda a, b: pauses(a) / pauses(b), 1)
figure("pfc-alpha.x_pause_us", (ROWS["a64"], ROWS["a16"]),
       lambda a, b: pause_time_us(a) / pause_time_us(b), 1)
figure("pfc-alpha.x_marks", (ROWS["a16"], ROWS["a64"]), lambda a, b: marks(a) / marks(b), 0)

# Without congestion control the queue toward h0 is what the 7 paused ingresses hold: its frames
# (1062 bytes stored, 1248 in 208-byte cells) per ingress, in KB of cells.
for row in ("a16-none", "a64-none"):
    figure(f"pfc-alpha.{row}.per_ingress", ROWS[row],
           lambda r: r["summary"]["queues"][0]["mean_bytes"] / 1062 * 1248 / 7 / 1000
           if r["summary"]["queues"][0]["queue"] == Q else float("nan"), 1, "KB per ingress")

# How unevenly the 7 senders are paused at 1/64 (pauses each sender's port received).
SENDERS = [f"h{i}->leaf0" for i in range(1, 8)]
for name, pick in (("min", min), ("max", max)):
    figure(f"pfc-alpha.a64.sender_pauses_{name}", ROWS["a64"],
           lambda r, pick=pick: pick(p["pauses_received"] for p in r["summary"]["pfc"]
                                     if p["port"] in SENDERS), 0)
