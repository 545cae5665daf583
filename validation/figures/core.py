"""Stated figures: every measured number that docs/presets.md, docs/model.md and the labs state,
tied to the simulator run that produces it.

A figure is declared once, in a module of this package (one per preset or lab): the case that
produces it (a preset, or a scenario, with a patch of dotted paths such as
`switch.load_balancing` or `traffic.0.channels`, the paths a preset's comparison uses), a function
of the result, and the digits it is stated with. In a document the stated number carries the
figure's id in an HTML comment right after it, which no renderer shows:

    | preset | 20.94<!--fig incast.preset.goodput--> | ...

`python -m validation.figures --write` runs every case on `fabricsim` and rewrites each tagged
number; `--check` (the test command, backend/tests/test_stated_figures.py) runs them again and
fails when a stated number is off by more than 1 % (or by more than half its last digit, where
the rounding of the stated digits is coarser), names an undeclared figure, or a declared figure is
stated nowhere.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
PRESETS_DIR = ROOT / "backend" / "app" / "presets" / "data"
DOCS = [ROOT / "docs" / "presets.md", ROOT / "docs" / "model.md", ROOT / "docs" / "tuning.md",
        ROOT / "validation" / "findings.md",  # rendered into docs/validation.md
        *sorted((ROOT / "docs" / "labs").glob("lab*.md"))]
TAG = re.compile(r"(?P<num>\d[\d,]*(?:\.\d+)?)<!--fig (?P<id>[a-z0-9_.\-]+)-->")
REL_TOLERANCE = 0.01


@dataclass(frozen=True)
class Case:
    """A run: a preset's scenario (or a scenario given whole) with a patch applied."""

    key: str
    preset: str | None = None
    patch: dict[str, Any] = field(default_factory=dict)
    scenario: Callable[[], dict] | None = None  # instead of a preset: builds the document
    args: tuple[str, ...] = ()  # fabricsim run's options (`--engine flow`, ...)

    def document(self) -> dict:
        if self.scenario is not None:
            doc = self.scenario()
        else:
            doc = preset_scenario(self.preset)
        for path, value in self.patch.items():
            set_path(doc, path, value)
        return doc


@dataclass(frozen=True)
class Figure:
    id: str
    cases: tuple[str, ...]  # value(result of cases[0], result of cases[1], ...)
    value: Callable[..., float]
    digits: int = 1  # decimals as stated
    what: str = ""


CASES: dict[str, Case] = {}
FIGURES: dict[str, Figure] = {}


def case(key: str, preset: str | None = None, scenario: Callable[[], dict] | None = None,
         args: tuple[str, ...] = (), **patch: Any) -> str:
    """Declares a case; keyword names are dotted paths with '__' for '.' (or pass patch=dict)."""
    extra = patch.pop("patch", {})
    paths = {k.replace("__", "."): v for k, v in patch.items()} | extra
    if key in CASES:
        raise ValueError(f"case {key} declared twice")
    CASES[key] = Case(key, preset, paths, scenario, tuple(args))
    return key


def figure(fid: str, cases: str | tuple[str, ...], value: Callable[..., float], digits: int = 1,
           what: str = "") -> None:
    """A number read from one run (value(result)) or compared across runs (value(r1, r2, ...)),
    stated with `digits` decimals."""
    keys = (cases,) if isinstance(cases, str) else tuple(cases)
    if fid in FIGURES:
        raise ValueError(f"figure {fid} declared twice")
    for key in keys:
        if key not in CASES:
            raise ValueError(f"figure {fid}: unknown case {key}")
    FIGURES[fid] = Figure(fid, keys, value, digits, what)


# -- scenario helpers --------------------------------------------------------------------------

_PRESETS: dict[str, dict] = {}
_PRESETS_LOCK = threading.Lock()


def preset_scenario(key: str) -> dict:
    with _PRESETS_LOCK:  # the runs' threads ask at once: none may see a half-read set
        if not _PRESETS:
            for p in PRESETS_DIR.glob("*.json"):
                d = json.loads(p.read_text())
                _PRESETS[d["key"]] = d
    return copy.deepcopy(_PRESETS[key]["scenario"])


def set_path(doc: dict, path: str, value: Any) -> None:
    parts = path.split(".")
    node: Any = doc
    for part in parts[:-1]:
        key: Any = int(part) if isinstance(node, list) else part
        if isinstance(node, dict) and key not in node:
            node[key] = {}
        node = node[key]
    last: Any = int(parts[-1]) if isinstance(node, list) else parts[-1]
    if value is DELETE and isinstance(node, list):
        node.pop(last)
    elif value is DELETE:
        node.pop(last, None)
    else:
        node[last] = value


DELETE = object()


# -- result helpers --------------------------------------------------------------------------

def summary(r: dict) -> dict:
    return r["summary"]


def at(path: str) -> Callable[[dict], float]:
    """The number at a dotted path of the result: at("summary.slowdown.p95")."""
    def value(r: dict) -> float:
        node: Any = r
        for part in path.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]
        return node
    return value


def queue(r: dict, name: str) -> dict:
    return next(q for q in r["summary"]["queues"] if q["queue"] == name)


def link_util(r: dict, name: str) -> float:
    return next(u["utilization"] for u in r["summary"]["link_utilization"] if u["link"] == name)


def job(r: dict, name: str) -> dict:
    return next(j for j in r["jobs"] if j["name"] == name)


# -- running -----------------------------------------------------------------------------------

def fabricsim_bin() -> Path:
    return Path(os.environ.get("FABRICSIM_BIN", ROOT / "simcore" / "build" / "fabricsim"))


def run_case(c: Case, workdir: Path) -> dict:
    text = json.dumps(c.document(), sort_keys=True)
    name = hashlib.sha256((text + " ".join(c.args)).encode()).hexdigest()[:16]
    src, out = workdir / f"{name}.json", workdir / f"{name}.out.json"
    src.write_text(text)
    proc = subprocess.run([str(fabricsim_bin()), "run", str(src), "--out", str(out), *c.args],
                          capture_output=True, text=True, timeout=1800, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"case {c.key}: fabricsim exited {proc.returncode}: {proc.stderr[-500:]}")
    return json.loads(out.read_text())


# -- metrics shared by the declarations --------------------------------------------------------

def thr(r: dict) -> float:
    return r["summary"]["throughput_gbps"]


def marks(r: dict) -> float:
    return r["summary"]["ecn_marked_packets"]


def cnps(r: dict) -> float:
    return r["summary"]["cnps_sent"]


def pauses(r: dict) -> float:
    return r["summary"]["pfc_pauses_sent"]


def retx(r: dict) -> float:
    return r["summary"]["retransmitted_packets"]


def qmean_kb(name: str) -> Callable[[dict], float]:
    return lambda r: queue(r, name)["mean_bytes"] / 1000


def qmax_kb(name: str, whole_run: bool = False) -> Callable[[dict], float]:
    key = "max_bytes_whole_run" if whole_run else "max_bytes"
    return lambda r: queue(r, name)[key] / 1000


def peak_time_us(name: str) -> Callable[[dict], float]:
    """When the queue's sampled series peaks (the first sample at its maximum)."""
    def value(r: dict) -> float:
        series = r["series"]["queues"][name]
        return r["series"]["t_us"][series.index(max(series))]
    return value


def flow_goodput(index: int) -> Callable[[dict], float]:
    return lambda r: r["flows"][index]["goodput_after_warmup_gbps"]


def jct_us(name: str) -> Callable[[dict], float]:
    return lambda r: job(r, name)["jct_us"]
