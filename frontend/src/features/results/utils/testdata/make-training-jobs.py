# python3 make-training-jobs.py: writes training-jobs.json beside it.
# The hand-made training job of frontend/src/features/results/utils/testdata/training-jobs.json:
# raw intervals of one 1F1B iteration on a stage-0 rank, reduced as simcore's training-summary.cc
# does (elementary intervals; computing, else charged to the first of TP, EP, PP, DP in flight).
import json
import os
F, B, TPF, TPB, PPS, P, M = 9000, 18000, 1200, 2400, 400, 4, 8
compute, comm = [], []  # (a, b) and (kind, a, b)
t = 0
for i in range(M):
    compute.append((t, t + F)); t += F
    comm.append(("tp", t, t + TPF)); comm.append(("pp", t, t + PPS)); t += TPF
bubble = (P - 1) * (F + B)
comm.append(("pp", t, t + PPS)); t += bubble
for i in range(M):
    compute.append((t, t + B))
    if i >= 3: comm.append(("dp", t + 2000, t + 5000))
    t += B
    comm.append(("tp", t, t + TPB)); t += TPB
comm.append(("dp", t, t + 42000)); t += 42000
end = t
cuts = sorted({0, end} | {x for a, b in compute for x in (a, b)} | {x for _, a, b in comm for x in (a, b)})
order = ["tp", "ep", "pp", "dp"]
exposed = {k: 0 for k in order}; cus = 0; idle = 0; segs = []
def add(kind, a, b, e):
    for s in reversed(segs):
        if s["kind"] == kind:
            if s["end_us"] == a and s["exposed"] == e: s["end_us"] = b; return
            break
    segs.append({"kind": kind, "start_us": a, "end_us": b, "exposed": e})
for a, b in zip(cuts, cuts[1:]):
    comp = any(x <= a and y >= b for x, y in compute)
    active = [k for k in order if any(kk == k and x <= a and y >= b for kk, x, y in comm)]
    if comp: cus += b - a; add("compute", a, b, False)
    for k in ["tp", "ep", "pp", "dp"]:
        if k in active: add(k, a, b, not comp)
    if not comp:
        if active: exposed[active[0]] += b - a
        else: idle += b - a
segs.sort(key=lambda s: s["start_us"])
its = [end, end - 300, end + 300]
mean = sum(its) / 3
tokens = 32 * M * 1 * 8192
job = {"name": "llama70b", "generator": 0, "kind": "training", "completed": True, "jct_us": sum(its),
       "ranks": 1024, "servers": 128, "hosts": [],
       "training": {"model": "llama3-70b", "tp": 8, "pp": 4, "dp": 32, "ep": 1, "micro_batches": M,
                    "micro_batch_size": 1, "tokens_per_iteration": tokens, "iteration_us": its,
                    "mean_iteration_us": mean, "tokens_per_s": round(tokens / mean * 1e6, 1),
                    "critical_rank": 0, "compute_us": cus, "bubble_us": idle,
                    "exposed_us": {"tp": exposed["tp"], "pp": exposed["pp"], "dp": exposed["dp"], "ep": exposed["ep"]},
                    "critical_collective": {"kind": "dp", "op": "reduce_scatter", "ranks": 32, "bytes": 1093140480, "us": 42000, "exposed_us": 42000},
                    "timeline": segs, "timeline_truncated": False}}
json.dump([job], open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "training-jobs.json"), "w"), indent=1)
print(end, cus, idle, exposed, len(segs))
