#!/usr/bin/env bash
# Byte-for-byte comparison of two fabricsim builds on every example scenario.
#   bench/compare-results.sh OLD_FABRICSIM NEW_FABRICSIM [--only REGEX] [--keep DIR] [--list]
# Builds nothing: give it two `fabricsim` binaries (for example a copy of main's build in
# /tmp/fabricsim-main and your worktree's simcore/build/fabricsim). Runs every scenario below through
# both, with the seed the scenario names, and compares the result files byte for byte after cutting
# the top-level "perf" object (wall time, events per second, RSS: the only part that may differ).
# The exit status of both runs must match too. Scenarios:
#   docs/examples/valid/*.json           the format's examples
#   bench/scenarios/*.json               the bench scenarios
#   bench/reference-a.json               Reference A, cut to 500 us (the full 10 ms takes a minute)
#   backend/app/presets/data/*.json      the presets' scenarios (their "scenario" object)
#   validation/data/hpcc                 the HPCC benchmark imported as the validation does
#                                        (validation/hpcc_run.sh), cut to 300 us; skipped with a
#                                        note when .venv/bin/python is missing
# Prints one table row per scenario (result bytes, CPU seconds of each build, same/DIFFERENT) and
# exits 1 when any result differs or a scenario fails with both builds (every one is valid), 2 on
# bad usage. --keep DIR keeps both sides' results there.
# The environment passes through to both runs: FABRICSIM_SCHEDULER=ns3::MapScheduler compares the
# Simulator::Schedule fallback path (docs/model.md). Run it under `heavy` on the shared machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec python3 - "$root" "$@" <<'PY'
import argparse, glob, json, os, re, resource, shutil, subprocess, sys, tempfile, time

root = sys.argv[1]
ap = argparse.ArgumentParser(prog="bench/compare-results.sh")
ap.add_argument("old")
ap.add_argument("new")
ap.add_argument("--only", help="run only scenarios whose name matches this regular expression")
ap.add_argument("--keep", help="keep both sides' results (old/ and new/) in this directory")
ap.add_argument("--list", action="store_true", help="list the scenarios and exit")
try:
    args = ap.parse_args(sys.argv[2:])
except SystemExit as e:
    sys.exit(2 if e.code else 0)
for b in (args.old, args.new):
    if not (os.path.isfile(b) and os.access(b, os.X_OK)):
        print(f"not an executable: {b}", file=sys.stderr)
        sys.exit(2)

REFERENCE_A_US = 500.0
HPCC_US = 300.0


def cut(scenario, duration_us):
    """The scenario run for duration_us: flows of explicit lists that start later are left out
    (the format refuses a flow starting at or after the end)."""
    scenario["duration_us"] = duration_us
    for t in scenario.get("traffic", []):
        if t.get("kind") == "flows":
            t["flows"] = [f for f in t["flows"]
                          if t.get("start_us", 0) + f.get("start_us", 0) < duration_us]
    return scenario


def scenarios(work):
    """(name, path) of every scenario, writing derived ones (cut durations, presets) into work."""
    out = []
    for f in sorted(glob.glob(f"{root}/docs/examples/valid/*.json")):
        out.append(("docs/" + os.path.basename(f), f))
    for f in sorted(glob.glob(f"{root}/bench/scenarios/*.json")):
        out.append(("bench/" + os.path.basename(f), f))
    ref = cut(json.load(open(f"{root}/bench/reference-a.json")), REFERENCE_A_US)
    p = f"{work}/reference-a-{int(REFERENCE_A_US)}us.json"
    json.dump(ref, open(p, "w"))
    out.append((f"bench/reference-a.json@{int(REFERENCE_A_US)}us", p))
    for f in sorted(glob.glob(f"{root}/backend/app/presets/data/*.json")):
        p = f"{work}/preset-{os.path.basename(f)}"
        json.dump(json.load(open(f))["scenario"], open(p, "w"))
        out.append(("preset/" + os.path.basename(f), p))
    py = f"{root}/.venv/bin/python"
    data = f"{root}/validation/data/hpcc"
    if os.path.isdir(data):
        if os.access(py, os.X_OK):
            p = f"{work}/hpcc-full.json"
            subprocess.run([py, "-m", "app.scenarios.importers.hpcc",
                            "--topology", f"{data}/topology-fat.txt",
                            "--flows", f"{data}/flows-websearch30.txt",
                            "--config", f"{data}/config-dcqcn.txt",
                            "--name", "HPCC DCQCN benchmark (WebSearch 30%)", "-o", p],
                           cwd=f"{root}/backend", check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            s = cut(json.load(open(p)), HPCC_US)
            p2 = f"{work}/hpcc-{int(HPCC_US)}us.json"
            json.dump(s, open(p2, "w"))
            out.append((f"validation/hpcc@{int(HPCC_US)}us", p2))
        else:
            print(f"note: {py} missing: validation/data/hpcc skipped", file=sys.stderr)
    return out


def top_level_span(text, key):
    """[start, end) of `,"key":value` (or `"key":value,`) at depth 1 of a JSON object, or None."""
    depth, i, n = 0, 0, len(text)
    want = json.dumps(key)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if depth == 1 and text[i:j + 1] == want:
                k = j + 1
                while text[k] in " \t\r\n":
                    k += 1
                if text[k] == ":":
                    k += 1
                    while text[k] in " \t\r\n":
                        k += 1
                    _, end = json.JSONDecoder().raw_decode(text, k)
                    start = i
                    b = start - 1
                    while b >= 0 and text[b] in " \t\r\n":
                        b -= 1
                    if text[b] == ",":
                        return b, end
                    e = end
                    while e < n and text[e] in " \t\r\n":
                        e += 1
                    if text[e] == ",":
                        return start, e + 1
                    return start, end
            i = j + 1
            continue
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        i += 1
    return None


def without_perf(raw):
    text = raw.decode("utf-8", errors="surrogateescape")
    span = top_level_span(text, "perf") if text.lstrip().startswith("{") else None
    if span is None:
        return raw
    return (text[:span[0]] + text[span[1]:]).encode("utf-8", errors="surrogateescape")


def run(binary, scenario, out):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([binary, "run", scenario, "--out", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    data = open(out, "rb").read() if os.path.exists(out) else b""
    return p.returncode, data, p.stderr, cpu


work = tempfile.mkdtemp(prefix="compare-results-")
try:
    todo = scenarios(work)
    if args.only:
        todo = [t for t in todo if re.search(args.only, t[0])]
    if args.list:
        for name, path in todo:
            print(name)
        sys.exit(0)
    if args.keep:
        for side in ("old", "new"):
            os.makedirs(f"{args.keep}/{side}", exist_ok=True)
    width = max(len(n) for n, _ in todo)
    print(f"old: {args.old}\nnew: {args.new}")
    print(f"{'scenario':<{width}}  {'rc':>5}  {'bytes':>10}  {'old cpu s':>9}  {'new cpu s':>9}  result")
    differ = 0
    for name, path in todo:
        safe = re.sub(r"[^A-Za-z0-9_.@-]", "_", name)
        rc_o, old, err_o, cpu_o = run(args.old, path, f"{work}/{safe}.old")
        rc_n, new, err_n, cpu_n = run(args.new, path, f"{work}/{safe}.new")
        if args.keep:
            open(f"{args.keep}/old/{safe}", "wb").write(old)
            open(f"{args.keep}/new/{safe}", "wb").write(new)
        a, b = without_perf(old), without_perf(new)
        if rc_o != rc_n:
            verdict = f"DIFFERENT exit status {rc_o} vs {rc_n}"
        elif rc_o != 0 and err_o != err_n:
            verdict = "DIFFERENT error: " + err_n.decode(errors="replace").strip()[:120]
        elif a != b:
            k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            verdict = (f"DIFFERENT at byte {k}: old ...{a[max(0, k - 40):k + 40].decode(errors='replace')}..."
                       f" new ...{b[max(0, k - 40):k + 40].decode(errors='replace')}...")
        else:
            verdict = "same" if rc_o == 0 else f"FAILED in both (exit {rc_o}): {err_n.decode(errors='replace').strip()[:80]}"
        if verdict != "same":
            differ += 1
        print(f"{name:<{width}}  {rc_n:>5}  {len(b):>10}  {cpu_o:>9.2f}  {cpu_n:>9.2f}  {verdict}",
              flush=True)
    print(f"{len(todo) - differ} of {len(todo)} results byte-identical (outside \"perf\")"
          + (f"; {differ} DIFFERENT or failed" if differ else ""))
    sys.exit(1 if differ else 0)
finally:
    shutil.rmtree(work, ignore_errors=True)
PY
