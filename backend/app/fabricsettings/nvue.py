"""A scenario's switch settings as NVIDIA Cumulus Linux NVUE commands (`nv set qos ...`): PFC on
the data priority, ECN on its egress queue, the PFC watchdog. Syntax and units: Cumulus Linux
user guide, "Quality of Service" (NVUE thresholds in bytes, probability in percent, watchdog
polling interval in ms; switch priority p maps to traffic class p by default).
docs/real-fabric.md, "NVUE"."""

from typing import Any

from app.fabricsettings import units
from app.fabricsettings.effective import ecn_for, switch_settings, watchdog_settings
from app.fabricsettings.sonic_export import Port

PROFILE = "default-global"
WD_ROBUSTNESS = 3   # Cumulus' default: polling intervals before the watchdog acts


def swp(port_name: str) -> str:
    """The twin's EthernetN (link order) as Cumulus' swpK (1-based)."""
    return f"swp{int(port_name.removeprefix('Ethernet')) // 4 + 1}"


def _alpha_name(alpha: float) -> str:
    """Cumulus' dynamic quota name for alpha (ALPHA_1_16 for 1/16, ALPHA_2 for 2)."""
    if alpha >= 1:
        return f"ALPHA_{alpha:g}"
    return f"ALPHA_1_{1 / alpha:g}"


def export_switch(document: dict[str, Any], name: str | None, ports: list[Port],
                  header: list[str]) -> tuple[str, list[str]]:
    """The commands for one switch (name None: the `switch` defaults, no port list)."""
    s = switch_settings(document, name)
    wd = watchdog_settings(document)["switch"]
    approx: list[str] = []
    p = s["data_priority"]
    pfc = s["pfc"]
    out = [*(f"# {h}" for h in header)]
    if pfc["enabled"]:
        out += [f"nv set qos pfc {PROFILE} switch-priority {p}",
                f"nv set qos pfc {PROFILE} tx enable", f"nv set qos pfc {PROFILE} rx enable"]
        if pfc["headroom_bytes"] != "auto":
            out.append(f"nv set qos pfc {PROFILE} xoff-threshold {pfc['headroom_bytes']}"
                       "   # switch.pfc.headroom_bytes")
        else:
            out.append("# switch.pfc.headroom_bytes auto: Cumulus sizes the headroom from "
                       "cable-length")
        out.append(f"nv set qos pfc {PROFILE} xon-threshold {pfc['xon_offset_bytes']}"
                   "   # switch.pfc.xon_offset_bytes")
    else:
        out.append(f"nv unset qos pfc {PROFILE}   # switch.pfc.enabled false")
    out.append(f"# switch.pfc.alpha {pfc['alpha']:g}: no nv command; in "
               "/etc/mlx/datapath/qos/qos_infra.conf: flow_control.ingress_buffer.dynamic_quota "
               f"= {_alpha_name(pfc['alpha'])}")
    for rate, alpha in pfc.get("alpha_by_rate", {}).items():
        out.append(f"# switch.pfc.alpha_by_rate {rate}: {alpha:g} ({_alpha_name(alpha)}) on the "
                   f"{rate} Gbit/s ports: no nv command")
    out += _ecn_lines(s, ports, approx)
    if wd["enabled"]:
        out += _watchdog_lines(wd, ports, approx)
    out += ["nv config apply", ""]
    return "\n".join(out), approx


def _ecn_block(profile: str, tc: int, ecn: dict[str, Any], approx: list[str]) -> list[str]:
    prefix = f"nv set qos congestion-control {profile} traffic-class {tc}"
    if not ecn["enabled"]:
        return [f"{prefix} ecn disable"]
    percent, exact = units.fraction_to_percent(ecn["pmax"])
    if not exact:
        approx.append(f"probability {percent} for ecn pmax {ecn['pmax']:g}")
    return [f"{prefix} ecn enable", f"{prefix} min-threshold {ecn['kmin_bytes']}",
            f"{prefix} max-threshold {ecn['kmax_bytes']}", f"{prefix} probability {percent}",
            f"{prefix} red disable"]


def _ecn_lines(s: dict[str, Any], ports: list[Port], approx: list[str]) -> list[str]:
    priorities = sorted({s["data_priority"], *(int(k) for k in s.get("ecn_by_priority", {}))})
    rates = sorted({port.rate_gbps for port in ports})
    main = max(rates, key=lambda r: sum(port.rate_gbps == r for port in ports)) if rates else None
    out = []
    for tc in priorities:
        out += _ecn_block(PROFILE, tc, ecn_for(s, main if main is not None else -1, tc), approx)
    for rate in rates:
        if rate == main:
            continue
        profile = f"ft-{rate:g}g".replace(".", "-")
        blocks = [_ecn_block(profile, tc, ecn_for(s, rate, tc), approx) for tc in priorities]
        default = [_ecn_block(PROFILE, tc, ecn_for(s, main, tc), []) for tc in priorities]
        if blocks == [[line.replace(profile, PROFILE) for line in b] for b in default]:
            continue
        for block in blocks:
            out += block
        names = ",".join(swp(p.name) for p in ports if p.rate_gbps == rate)
        out.append(f"nv set interface {names} qos congestion-control profile {profile}")
    return out


def _watchdog_lines(wd: dict[str, Any], ports: list[Port], approx: list[str]) -> list[str]:
    detect_ms = units.us_to_ms(wd["detect_us"])
    polling = max(1, round(detect_ms / WD_ROBUSTNESS))
    approx.append(f"PFC watchdog: detection after {WD_ROBUSTNESS} polls of {polling} ms "
                  f"({polling * WD_ROBUSTNESS} ms) for detect_us {wd['detect_us']:g}; restoration "
                  f"after one poll without pause (restore_us {wd['restore_us']:g} not settable)")
    out = [f"nv set qos pfc-watchdog polling-interval {polling}",
           f"nv set qos pfc-watchdog robustness {WD_ROBUSTNESS}"]
    chosen = [swp(p.name) for p in ports if wd["ports"] == "all" or p.peer_kind == "host"]
    if chosen:
        out.append(f"nv set interface {','.join(chosen)} qos pfc-watchdog")
    else:
        out.append("# nv set interface <ports facing servers> qos pfc-watchdog")
    return out
