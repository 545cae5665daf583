"""What a scenario document sets, with every default filled in: the values a real device must be
given to behave as the scenario does (the export writes these, the round trip compares them)."""

from typing import Any

from app.scenarios.cc_presets import CC_PRESETS, CNP_PRESETS
from app.scenarios.devices import Cc, Nic, Switch
from app.scenarios.document import deep_merge
from app.scenarios.faults import Watchdogs


def switch_settings(document: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    """`switch` (merged with `switch_overrides[name]`) with its defaults."""
    base = document.get("switch", {})
    if name is not None and name in document.get("switch_overrides", {}):
        base = deep_merge(base, document["switch_overrides"][name])
    return Switch.model_validate(base).model_dump(mode="json")


def nic_settings(document: dict[str, Any], host: str | None = None) -> dict[str, Any]:
    """`nic` (merged with `nic_overrides[host]`): its defaults, every `cc` field from its preset
    when unset, and the notification point from the preset when `cnp_interval_us` / `cnp_mode`
    are unset (devices.py Cc: "unset DCQCN parameters come from `preset`")."""
    raw = document.get("nic", {})
    if host is not None and host in document.get("nic_overrides", {}):
        raw = deep_merge(raw, document["nic_overrides"][host])
    nic = Nic.model_validate(raw).model_dump(mode="json")
    cc_raw = raw.get("cc", {})
    preset = nic["cc"]["preset"]
    nic["cc"] = {**CC_PRESETS[preset], **{k: v for k, v in cc_raw.items() if v is not None},
                 "preset": preset, "algorithm": nic["cc"]["algorithm"]}
    for key, value in CNP_PRESETS[preset].items():
        nic[key] = raw[key] if raw.get(key) is not None else value
    return nic


def watchdog_settings(document: dict[str, Any]) -> dict[str, Any]:
    return Watchdogs.model_validate(document.get("watchdogs", {})).model_dump(mode="json")


CC_FIELDS = tuple(name for name in Cc.model_fields if name not in ("algorithm", "preset"))


def switch_by_port_rate(document: dict[str, Any], name: str, rates: list[float]) -> dict[str, Any]:
    """What one switch does at ports of each rate: alpha and the ECN of every priority that has
    one of its own, with the scalar settings. Two documents that differ only in how they spread
    this over `switch`, `switch_overrides`, `alpha_by_rate`, `ecn_by_rate` and `ecn_by_priority`
    give the same (the round trip compares this)."""
    s = switch_settings(document, name)
    priorities = sorted({s["data_priority"], *(int(p) for p in s["ecn_by_priority"])})
    pfc = {k: v for k, v in s["pfc"].items() if k not in ("alpha", "alpha_by_rate")}
    scalars = {k: v for k, v in s.items() if k not in ("pfc", "ecn", "ecn_by_rate",
                                                       "ecn_by_priority")}
    return {**scalars, "pfc": pfc, "by_rate": {
        f"{rate:g}": {"alpha": alpha_for(s["pfc"], rate),
                      "ecn": {p: ecn_for(s, rate, p) for p in priorities}}
        for rate in sorted(set(rates))}}


def ecn_for(settings: dict[str, Any], rate: float, priority: int) -> dict[str, Any]:
    """ECN of an egress queue: ecn, then ecn_by_rate[rate], then ecn_by_priority[priority]."""
    ecn = dict(settings["ecn"])
    for key, part in settings.get("ecn_by_rate", {}).items():
        if float(key) == rate:
            ecn = deep_merge(ecn, part)
    ecn = deep_merge(ecn, settings.get("ecn_by_priority", {}).get(str(priority)) or {})
    return ecn


def alpha_for(pfc: dict[str, Any], rate: float) -> float:
    """The PFC alpha at ports of `rate`: alpha_by_rate[rate], else alpha."""
    for key, alpha in pfc.get("alpha_by_rate", {}).items():
        if float(key) == rate:
            return alpha
    return pfc["alpha"]
