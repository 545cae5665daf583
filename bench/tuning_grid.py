"""The ByteTuning grid of a preset as scenario files, and the loss table of their results.

  PYTHONPATH=backend:. .venv/bin/python bench/tuning_grid.py write DIR [--preset incast-2to1]
      [--duration-us 10000] [--fidelity 1.0] [--seed 1] [--points N] [--params kmin,pmax,...]
  PYTHONPATH=backend:. .venv/bin/python bench/tuning_grid.py table DIR OUT.json [--beta 0.5]

`write` puts one scenario file per grid point (3,300 for the whole ByteTuning space) plus the
vendor and experience points into DIR, each exactly the document a tuning would simulate
(app.tunings.spec.document_for, stored form), and DIR/manifest.json for `fabricsim batch`
with paths relative to DIR (run it from DIR; the folder can be copied to another machine).
`--params` keeps only those axes of the ByteTuning space (the others stay at the scenario's own
values; kmax follows kmin when kmin is kept): a smaller space for a heavier scenario.
`table` reads DIR/*.result.json and writes [{"point", "loss", "metrics"}] scored with the
throughput-sensitive objective (beta): the TABLE that bench/tuning_strategies.py replays.
"""

import argparse
import json
import sys
from pathlib import Path

from app.presets.service import load_presets
from app.scenarios.document import Scenario
from app.scenarios.service import to_document
from app.tunings import objectives as O
from app.tunings.spec import document_for
from app.tunings.space import Space, bytetuning_space
from app.tunings.strategies.base import Request
from app.tunings.strategies.fixed import EXPERIENCE_SETTINGS, VENDOR_SETTINGS

FIXED = {"vendor": VENDOR_SETTINGS, "experience": EXPERIENCE_SETTINGS}


def bench_space(params: str | None = None) -> Space:
    """The ByteTuning space, or only the named axes of it (comma-separated)."""
    full = bytetuning_space()
    if not params:
        return full
    keep = params.split(",")
    unknown = set(keep) - {p.name for p in full.parameters}
    if unknown:
        raise SystemExit(f"--params: unknown {sorted(unknown)}; the axes are "
                         f"{[p.name for p in full.parameters]}")
    return Space(parameters=tuple(p for p in full.parameters if p.name in keep),
                 linked=tuple(link for link in full.linked if link.source in keep))


def base_document(preset: str, duration_us: float, seed: int) -> dict:
    document = to_document(load_presets()[preset].scenario)
    document.update(duration_us=duration_us, seed=seed)
    return document


def write(args: argparse.Namespace) -> None:
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    space = bench_space(args.params)
    base = base_document(args.preset, args.duration_us, args.seed)
    requests = [(f"p{space.index_of(p):04d}", Request(p, args.fidelity))
                for p in list(space.points())[:args.points]]
    requests += [(name, Request(None, args.fidelity, overrides=tuple(sorted(s.items()))))
                 for name, s in FIXED.items()]
    entries, points = [], {}
    for name, request in requests:
        document = to_document(Scenario.model_validate(document_for(base, space, request)))
        (out / f"{name}.json").write_text(json.dumps(document))
        entries.append({"scenario": f"{name}.json", "out": f"{name}.result.json"})
        points[name] = list(request.point) if request.point is not None else None
    (out / "manifest.json").write_text(json.dumps({"runs": entries}))
    (out / "points.json").write_text(json.dumps(points))
    print(f"{len(entries)} scenarios in {out} ({args.preset}, {args.duration_us} us x "
          f"{args.fidelity}, seed {args.seed})")


def table(args: argparse.Namespace) -> None:
    src = Path(args.dir)
    points = json.loads((src / "points.json").read_text())
    objective = O.Objective(kind="bytetuning_throughput", goal="max", beta=args.beta)
    rows, missing = [], []
    for name, point in points.items():
        result_path = src / f"{name}.result.json"
        if not result_path.exists():
            missing.append(name)
            continue
        document = json.loads((src / f"{name}.json").read_text())
        metrics = O.derive_metrics(json.loads(result_path.read_text()), document)
        value = O.value(objective, metrics)
        rows.append({"name": name, "point": point, "loss": -value if value is not None else 1e30,
                     "metrics": {k: metrics.get(k) for k in O.SINGLE_METRICS}})
    Path(args.out).write_text(json.dumps(rows))
    print(f"{len(rows)} rows to {args.out}; {len(missing)} results missing")
    if missing:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("dir")
    w.add_argument("--preset", default="incast-2to1")
    w.add_argument("--duration-us", type=float, default=10_000)
    w.add_argument("--fidelity", type=float, default=1.0)
    w.add_argument("--seed", type=int, default=1)
    w.add_argument("--points", type=int, default=None)
    w.add_argument("--params", default=None, help="keep only these axes, e.g. kmin,pmax,alpha")
    t = sub.add_parser("table")
    t.add_argument("dir")
    t.add_argument("out")
    t.add_argument("--beta", type=float, default=0.5)
    args = parser.parse_args()
    write(args) if args.command == "write" else table(args)


if __name__ == "__main__":
    main()
