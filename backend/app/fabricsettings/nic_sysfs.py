"""NVIDIA ConnectX DCQCN settings as the driver's sysfs files (/sys/class/net/<if>/ecn/roce_rp/*
for the reaction point, .../roce_np/* for the notification point), read from a dump and written
as the `echo` commands that set them. Names and units: NVIDIA's "DCQCN CC Parameters" (DOCA /
MLNX_OFED documentation); the names the twin's nvidia-default preset already pairs with its
fields are in app/scenarios/cc_presets.py (its docstring). docs/real-fabric.md, "NIC sysfs".
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from app.fabricsettings import units
from app.fabricsettings.effective import nic_settings, switch_settings
from app.fabricsettings.report import Report
from app.core.textfile import TextFileError as SettingsFileError
from app.core.textfile import lines_of
from app.scenarios.devices import CcPartial, NicPartial


@dataclass(frozen=True)
class Param:
    """One sysfs file and the scenario field (under `nic`) it is."""

    group: str                     # "roce_rp" or "roce_np"
    name: str
    field: str                     # "cc.rai_mbps", "cnp_interval_us"
    to_scenario: Callable[[int], Any]
    to_device: Callable[[Any], tuple[int, bool]]
    conversion: str                # how, in words (the report's)


def _same(value: int) -> float:
    return float(value)


def _flag(value: int) -> bool:
    if value not in (0, 1):
        raise ValueError("must be 0 or 1")
    return value == 1


def _flag_out(value: bool) -> tuple[int, bool]:
    return int(bool(value)), True


PARAMS = (
    Param("roce_rp", "rpg_time_reset", "cc.rate_increase_timer_us", _same, units.whole, "us = us"),
    Param("roce_rp", "rpg_byte_reset", "cc.byte_counter_bytes", int, units.whole, "bytes = bytes"),
    Param("roce_rp", "rpg_threshold", "cc.fast_recovery_steps", int, units.whole,
          "steps = steps"),
    Param("roce_rp", "rpg_ai_rate", "cc.rai_mbps", _same, units.whole, "Mbit/s = Mbit/s"),
    Param("roce_rp", "rpg_hai_rate", "cc.rhai_mbps", _same, units.whole, "Mbit/s = Mbit/s"),
    Param("roce_rp", "rpg_min_rate", "cc.min_rate_mbps", _same, units.whole, "Mbit/s = Mbit/s"),
    Param("roce_rp", "rpg_min_dec_fac", "cc.max_decrease", units.min_dec_fac_to_max_decrease,
          units.max_decrease_to_min_dec_fac, "max_decrease = 1 - rpg_min_dec_fac / 100"),
    Param("roce_rp", "clamp_tgt_rate", "cc.clamp_target_rate", _flag, _flag_out, "1 = true"),
    Param("roce_rp", "clamp_tgt_rate_after_time_inc", "cc.clamp_target_after_timer_increase",
          _flag, _flag_out, "1 = true"),
    Param("roce_rp", "dce_tcp_g", "cc.g", units.dce_tcp_g_to_g, units.g_to_dce_tcp_g,
          "g = (1024 - dce_tcp_g) / 1024"),
    Param("roce_rp", "dce_tcp_rtt", "cc.alpha_update_us", _same, units.whole, "us = us"),
    Param("roce_rp", "rate_reduce_monitor_period", "cc.rate_decrease_interval_us", _same,
          units.whole, "us = us"),
    Param("roce_np", "min_time_between_cnps", "cnp_interval_us", _same, units.whole, "us = us"),
)
BY_NAME = {(p.group, p.name): p for p in PARAMS}
IGNORED = {
    "rpg_max_rate": "the NIC's rate cap: the model sends at line rate",
    "rpg_gd": "the model cuts the rate by alpha / 2 (rpg_gd 11); other values are not modelled",
    "initial_alpha_value": "the model starts alpha at 1 (1023 / 1024 on the NIC)",
    "rate_to_set_on_first_cnp": "the model cuts from the current rate on the first CNP as on any "
                                "other (rate_to_set_on_first_cnp 0)",
    "cnp_dscp": "CNPs travel at the control priority (7) in the model",
    "cnp_802p_prio": "CNPs travel at the control priority (7) in the model",
    "cnp_prio_mode": "CNPs travel at the control priority (7) in the model",
}
_GREP = re.compile(r"^(?P<path>\S*?/(?P<group>roce_rp|roce_np)/(?P<name>[A-Za-z0-9_]+(?:/\d)?))"
                   r"\s*:\s*(?P<value>\S+)$")
_ECHO = re.compile(r"^echo\s+(?P<value>\S+)\s*>\s*\"?"
                   r"(?P<path>\S*?(?P<group>roce_rp|roce_np|\$RP|\$NP)/"
                   r"(?P<name>[A-Za-z0-9_]+(?:/\d)?))\"?\s*(#.*)?$")
_PLAIN = re.compile(r"^(?:(?P<group>roce_rp|roce_np)/)?(?P<name>[A-Za-z0-9_]+(?:/\d)?)"
                    r"\s*(?:=|:|\s)\s*(?P<value>\S+)\s*(#.*)?$")
_INTERFACE = re.compile(r"/sys/class/net/([^/]+)/ecn/")
NP_NAMES = {"min_time_between_cnps", "cnp_dscp", "cnp_802p_prio", "cnp_prio_mode"}
EXPECTED = ("'name value', 'roce_rp/name value', the 'path:value' lines of grep . "
            "/sys/class/net/<if>/ecn/roce_rp/*, or 'echo value > path'")


@dataclass
class SysfsLine:
    line: int
    group: str
    name: str
    value: int
    interface: str | None


def read(text: str) -> list[SysfsLine]:
    """Every parameter line of a dump; an error names the first line that is none of the forms."""
    out: list[SysfsLine] = []
    for at, raw in enumerate(lines_of(text), start=1):
        line = raw.strip()
        # comments, the shell's prompt and variables, grep's "Is a directory" complaints
        if not line or line.startswith(("#", "$ ", "IF=", "RP=", "NP=", "grep: ")):
            continue
        found = _GREP.match(line) or _ECHO.match(line) or _PLAIN.match(line)
        if found is None:
            raise SettingsFileError(at, f"expected {EXPECTED}")
        name = found.group("name")
        group = {"$RP": "roce_rp", "$NP": "roce_np"}.get(found.group("group") or "",
                                                         found.group("group"))
        group = group or ("roce_np" if name in NP_NAMES else "roce_rp")
        token = found.group("value")
        try:
            value = int(token, 0)
        except ValueError:
            raise SettingsFileError(at, f"{group}/{name} must be an integer, got '{token}'") \
                from None
        path = found.groupdict().get("path") or ""
        iface = _INTERFACE.search(path)
        out.append(SysfsLine(at, group, name, value, iface.group(1) if iface else None))
    if not out:
        raise SettingsFileError(0, f"no parameter lines: expected {EXPECTED}")
    return out


def _range_error(field: str, value: Any) -> str | None:
    """The scenario model's own message for `value` at `nic.<field>` (its range, once)."""
    try:
        if field.startswith("cc."):
            CcPartial.model_validate({field[3:]: value})
        else:
            NicPartial.model_validate({field: value})
    except ValidationError as exc:
        return exc.errors()[0]["msg"]
    return None


def to_patch(lines: list[SysfsLine], data_priority: int, algorithm: str,
             where: str) -> tuple[dict[str, Any], Report]:
    """The `nic` patch a dump gives, and its report. `where` names the target ("nic" or
    "nic_overrides.h3") in the report; `algorithm` is the target's current cc.algorithm."""
    report = Report()
    patch: dict[str, Any] = {}
    seen: dict[tuple[str, str], tuple[int, int]] = {}
    first_interface = next((s.interface for s in lines if s.interface), None)
    for item in lines:
        key = (item.group, item.name)
        source = f"line {item.line}: {item.group}/{item.name}"
        if key in seen:
            line, value = seen[key]
            if value != item.value:
                raise SettingsFileError(item.line, f"{item.group}/{item.name} is {item.value} here "
                                        f"and {value} on line {line}{_interfaces(lines)}")
            continue
        seen[key] = (item.line, item.value)
        if item.name.startswith("enable/"):
            _enable(item, source, data_priority, algorithm, where, patch, report)
            continue
        param = BY_NAME.get(key)
        if param is None:
            report.ignored(source, item.value, IGNORED.get(item.name, "not a DCQCN parameter the "
                                                                       "model has"))
            continue
        try:
            converted = param.to_scenario(item.value)
        except ValueError as exc:
            raise SettingsFileError(item.line, f"{item.group}/{item.name} {exc}") from None
        problem = _range_error(param.field, converted)
        if problem is not None:
            raise SettingsFileError(item.line, f"{item.group}/{item.name} {item.value} gives "
                                               f"{where}.{param.field} = {converted}: {problem}")
        _set(patch, param.field, converted)
        report.mapped(source, item.value, f"{where}.{param.field}", converted, param.conversion)
    if first_interface:
        report.ignored("interface", first_interface, "the values are applied to "
                       f"{where} (every host it covers)")
    return patch, report


def _interfaces(lines: list[SysfsLine]) -> str:
    names = sorted({s.interface for s in lines if s.interface})
    if len(names) < 2:
        return ""
    return f" (interfaces {', '.join(names)}: import one NIC's dump at a time)"


def _enable(item: SysfsLine, source: str, data_priority: int, algorithm: str, where: str,
            patch: dict[str, Any], report: Report) -> None:
    priority = int(item.name.split("/")[1])
    if item.group == "roce_np" or priority != data_priority:
        why = ("the notification point answers every marked packet while cc.algorithm is not none"
               if item.group == "roce_np" else f"priority {priority} carries no data in the "
               f"scenario (switch.data_priority is {data_priority})")
        report.ignored(source, item.value, why)
        return
    if item.value == 0:
        chosen = "none"
    elif algorithm in ("dcqcn", "dcqcn_sampled"):
        chosen = algorithm
    else:
        chosen = "dcqcn_sampled"  # the ConnectX firmware's form (devices.py, Cc.algorithm)
    _set(patch, "cc.algorithm", chosen)
    report.mapped(source, item.value, f"{where}.cc.algorithm", chosen,
                  "0 = none; 1 = DCQCN (kept when the scenario has one, else dcqcn_sampled, the "
                  "ConnectX form)")


def _set(patch: dict[str, Any], dotted: str, value: Any) -> None:
    node = patch
    parts = dotted.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value


def _get(nic: dict[str, Any], dotted: str) -> Any:
    node: Any = nic
    for part in dotted.split("."):
        node = node[part]
    return node


def export(document: dict[str, Any], header: list[str],
           host: str | None = None) -> tuple[str, list[str]]:
    """The shell script that writes the NIC's effective settings, and what could not be written
    exactly (values rounded to the NIC's units)."""
    nic = nic_settings(document, host)
    priority = switch_settings(document)["data_priority"]
    approx: list[str] = []
    body = [f"echo {0 if nic['cc']['algorithm'] == 'none' else 1} > $RP/enable/{priority}"
            f"   # nic.cc.algorithm {nic['cc']['algorithm']}",
            f"echo {0 if nic['cc']['algorithm'] == 'none' else 1} > $NP/enable/{priority}"]
    for param in PARAMS:
        value = _get(nic, param.field)
        device, exact = param.to_device(value)
        if not exact:
            approx.append(f"{param.name} {device} for nic.{param.field} {value} (rounded)")
        folder = "$RP" if param.group == "roce_rp" else "$NP"
        shown = (f"{value:g}" if isinstance(value, float) else str(value).lower()
                 if isinstance(value, bool) else str(value))
        body.append(f"echo {device} > {folder}/{param.name}   # nic.{param.field} {shown}")
    lines = ["#!/bin/sh", *(f"# {h}" for h in header),
             f"# preset {nic['cc']['preset']}: every value below is the scenario's effective one",
             *(f"# approximated: {a}" for a in approx),
             "# usage: sh THIS_FILE <interface>   (as root; e.g. sh dcqcn.sh eth0)",
             'IF="${1:?usage: sh THIS_FILE <interface>}"',
             'RP="/sys/class/net/$IF/ecn/roce_rp"', 'NP="/sys/class/net/$IF/ecn/roce_np"',
             *body, ""]
    return "\n".join(lines), approx
