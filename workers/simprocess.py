"""Running `fabricsim run` as a child process: argument list, limits, progress lines."""

import ctypes
import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child: get SIGKILL when the worker process dies (kill -9 leaves no orphan)."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _child_setup(nice: int) -> Callable[[], None]:
    """The child's set-up before exec: die with the worker, and run at niceness `nice` (never
    raised above the worker's own priority: an unprivileged worker could not undo it)."""

    def setup() -> None:
        _die_with_parent()
        if nice > os.getpriority(os.PRIO_PROCESS, 0):
            os.setpriority(os.PRIO_PROCESS, 0, min(nice, 19))

    return setup


@dataclass
class Outcome:
    """How the simulator ended."""

    returncode: int | None  # None: we killed it (cancelled or over the wall limit)
    error: str
    killed_reason: str = ""


def command(binary: Path, workdir: Path, wall_s: int, memory_mb: int, threads: int = 1,
            engine: str = "packet") -> list[str]:
    """The argument list of one run on `threads` simulator threads, answered by `engine`
    ("packet" or "flow": `fabricsim run --engine`)."""
    return [str(binary), "run", str(workdir / "scenario.json"), "--out",
            str(workdir / "result.json"), "--progress", "--max-wall-s", str(wall_s),
            "--max-memory-mb", str(memory_mb), "--threads", str(threads), "--engine", engine]


def run_simulator(argv: list[str], workdir: Path, *, hard_wall_s: float, tick_s: float,
                  on_tick: Callable[[dict[str, Any] | None], bool],
                  on_line: Callable[[dict[str, Any]], None] | None = None,
                  nice: int = 0) -> Outcome:
    """Run `argv`, calling `on_tick(last progress line)` every `tick_s`; False from it kills the run.
    `on_line`, if given, sees every JSON line as it arrives (a batch's per-entry lines).
    `nice`: the simulator's CPU niceness (SIM_NICE), so that on a host it shares with the API
    the simulations yield the cores to requests (bench/load.py)."""
    stderr_path = workdir / "stderr.txt"
    with open(stderr_path, "wb") as stderr:
        proc = subprocess.Popen(argv, cwd=workdir, stdout=subprocess.PIPE, stderr=stderr,
                                stdin=subprocess.DEVNULL, preexec_fn=_child_setup(nice))
        reason = _pump(proc, hard_wall_s=hard_wall_s, tick_s=tick_s, on_tick=on_tick,
                       on_line=on_line)
    error = _first_line(stderr_path)
    if reason:
        return Outcome(None, reason, reason)
    return Outcome(proc.returncode, error)


def _pump(proc: subprocess.Popen, *, hard_wall_s: float, tick_s: float,
          on_tick: Callable[[dict[str, Any] | None], bool],
          on_line: Callable[[dict[str, Any]], None] | None = None) -> str:
    """Read progress lines until exit; returns a kill reason or ""."""
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    started = last_tick = time.monotonic()
    buffer, last_line = b"", None
    while True:
        for _key, _ in selector.select(timeout=tick_s / 2):
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                selector.unregister(proc.stdout)
                proc.wait()
                on_tick(last_line)
                return ""
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            if on_line is not None:
                for value in _json_lines(lines):
                    on_line(value)
            last_line = _last_json(lines) or last_line
        now = time.monotonic()
        if now - started > hard_wall_s:
            _kill(proc)
            return f"killed by the worker after {hard_wall_s:g} s of wall time"
        if now - last_tick >= tick_s:
            last_tick = now
            if not on_tick(last_line):
                _kill(proc)
                return "cancelled"


def _json_lines(lines: list[bytes]) -> list[dict[str, Any]]:
    """The parsable JSON objects among `lines`, in order."""
    out = []
    for raw in lines:
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def _last_json(lines: list[bytes]) -> dict[str, Any] | None:
    """The last parsable JSON object among `lines`."""
    for raw in reversed(lines):
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _kill(proc: subprocess.Popen) -> None:
    """SIGKILL and reap."""
    proc.kill()
    proc.wait()


def _first_line(path: Path) -> str:
    """The simulator's one-line reason (first non-empty stderr line)."""
    for line in path.read_text(errors="replace").splitlines():
        if line.strip():
            return line.strip()[:2000]
    return ""
