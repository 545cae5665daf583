"""Calls to the `fabricsim` binary that the API makes (validate, expand, version).

Always an argument list, never a shell; the scenario goes through a temporary file.
"""

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from app.core.config import get_settings


class SimulatorUnavailable(RuntimeError):
    """The binary is missing or not executable."""


class SimulatorRejected(ValueError):
    """The simulator refused the input (exit 2): `path` is its JSON path, `message` the rule."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def binary() -> Path:
    """Path of the simulator, or SimulatorUnavailable."""
    path = Path(get_settings().FABRICSIM_BIN)
    if not path.is_file():
        raise SimulatorUnavailable(f"fabricsim not found at {path}")
    return path


def parse_error_line(stderr: str) -> tuple[str, str]:
    """`topology.links[0].rate_gbps: must be > 0` -> (path, message); unparsable -> ("", line)."""
    line = next((ln.strip() for ln in stderr.splitlines() if ln.strip()), "invalid scenario")
    path, sep, message = line.partition(": ")
    if not sep or " " in path:
        return "", line
    return path, message


def _call(command: str, document: dict[str, Any]) -> str:
    """Run `fabricsim <command> <file>`; stdout on exit 0, SimulatorRejected on exit 2."""
    settings = get_settings()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=True) as handle:
        json.dump(document, handle)
        handle.flush()
        proc = subprocess.run([str(binary()), command, handle.name], capture_output=True,
                              text=True, timeout=settings.VALIDATE_TIMEOUT_S, check=False)
    if proc.returncode == 2:
        raise SimulatorRejected(*parse_error_line(proc.stderr))
    if proc.returncode != 0:
        raise SimulatorUnavailable(f"fabricsim {command} exited {proc.returncode}: "
                                   f"{proc.stderr.strip()[:500]}")
    return proc.stdout


def validate(document: dict[str, Any]) -> None:
    """`fabricsim validate`: returns on success, raises SimulatorRejected otherwise."""
    _call("validate", document)


def expand(document: dict[str, Any]) -> dict[str, Any]:
    """`fabricsim expand`: the explicit nodes, links and stats of the document's topology."""
    return json.loads(_call("expand", document))


def expand_fabric(document: dict[str, Any]) -> dict[str, Any]:
    """`fabricsim expand` of the document's fabric alone: without its traffic (which may hold
    more flows and transfers than expand lists, or than a caller may wait for) and its monitor
    (which may name that traffic's flows)."""
    fabric = {key: value for key, value in document.items() if key not in ("traffic", "monitor")}
    return expand({**fabric, "traffic": []})


def config_check(document: dict[str, Any]) -> str:
    """`fabricsim check`: the configuration check's JSON (findings, counts, effective)."""
    return _call("check", document)


def version() -> str:
    """`fabricsim --version`, or a note that it is unavailable."""
    try:
        proc = subprocess.run([str(binary()), "--version"], capture_output=True, text=True,
                              timeout=10, check=False)
    except (SimulatorUnavailable, OSError, subprocess.TimeoutExpired) as exc:
        return f"unavailable ({exc})"
    return proc.stdout.strip() or f"unavailable (exit {proc.returncode})"
