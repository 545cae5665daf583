"""A scenario's switch settings as SONiC config_db.json patches, one per switch (for `config load`
or `sonic-cfggen -j FILE --write-to-db`). Tables and fields: SONiC's Configuration Database
Manual (sonic-swss doc/Configuration.md) and YANG models (sonic-buildimage
src/sonic-yang-models); docs/real-fabric.md, "SONiC", has the mapping field by field.

Port names follow the twin's link order (Ethernet0, Ethernet4, ...: SONiC's name for a port's
first lane); DEVICE_NEIGHBOR names the peer of each, so a reader can rename them to the switch's
own ports before loading."""

import json
from dataclasses import dataclass
from typing import Any

from app.fabricsettings import units
from app.fabricsettings.effective import alpha_for, ecn_for, switch_settings, watchdog_settings

HEADER_TABLE = "FABRICTWIN_EXPORT"   # inert: no SONiC daemon reads it (docs/real-fabric.md)
LOSSLESS_POOL = "ingress_lossless_pool"
CABLE_PROFILE = "AZURE"
LANES_PER_PORT = 4
WD_ACTION = "drop"                   # the model's watchdog drops (docs/model.md, PFC watchdog)
# sonic-pfcwd.yang ranges, milliseconds
WD_DETECTION_MS = (100, 5000)
WD_RESTORATION_MS = (100, 60000)


@dataclass(frozen=True)
class Port:
    name: str
    peer: str
    peer_port: str
    peer_kind: str       # "host" or "switch"
    rate_gbps: float
    delay_us: float


def port_name(index: int) -> str:
    return f"Ethernet{index * LANES_PER_PORT}"


def switch_ports(expanded: dict[str, Any]) -> dict[str, list[Port]]:
    """Each switch's ports in link order, with the peer and the peer's port name (a host's NICs
    are eth0, eth1, ... in its link order)."""
    kinds = {n["id"]: n["kind"] for n in expanded["nodes"]}
    order: dict[str, int] = {}
    ends: list[tuple[dict, str, int, str, int]] = []
    for link in expanded["links"]:
        a, b = link["a"], link["b"]
        ia, ib = order.get(a, 0), order.get(b, 0)
        order[a], order[b] = ia + 1, ib + 1
        ends.append((link, a, ia, b, ib))

    def local(node: str, index: int) -> str:
        return port_name(index) if kinds[node] == "switch" else f"eth{index}"

    out: dict[str, list[Port]] = {n["id"]: [] for n in expanded["nodes"] if n["kind"] == "switch"}
    for link, a, ia, b, ib in ends:
        for me, mine, peer, theirs in ((a, ia, b, ib), (b, ib, a, ia)):
            if kinds[me] == "switch":
                out[me].append(Port(local(me, mine), peer, local(peer, theirs), kinds[peer],
                                    link["rate_gbps"], link["delay_us"]))
    return out


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


class _Approx(list):
    def add(self, what: str) -> None:
        if what not in self:
            self.append(what)


def export_switch(document: dict[str, Any], name: str, ports: list[Port],
                  header: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The config_db patch of switch `name` and what had to be rounded."""
    s = switch_settings(document, name)
    wd = watchdog_settings(document)["switch"]
    approx = _Approx()
    priority = s["data_priority"]
    pfc = s["pfc"]
    tables: dict[str, Any] = {HEADER_TABLE: {"header": {**header, "switch": name}}}
    tables["PORT"] = {}
    tables["CABLE_LENGTH"] = {CABLE_PROFILE: {}}
    tables["DEVICE_NEIGHBOR"] = {}
    tables["DEVICE_NEIGHBOR_METADATA"] = {}
    for port in ports:
        mbps, exact = units.gbps_to_mbps(port.rate_gbps)
        if not exact:
            approx.add(f"{port.name} speed {mbps} Mbit/s for {port.rate_gbps} Gbit/s")
        tables["PORT"][port.name] = {"speed": str(mbps), "admin_status": "up"}
        metres = units.delay_us_to_cable_metres(port.delay_us)
        tables["CABLE_LENGTH"][CABLE_PROFILE][port.name] = f"{_number(round(metres, 6))}m"
        tables["DEVICE_NEIGHBOR"][port.name] = {"name": port.peer, "port": port.peer_port}
        tables["DEVICE_NEIGHBOR_METADATA"][port.peer] = {
            "type": "Server" if port.peer_kind == "host" else "LeafRouter"}
    tables["BUFFER_POOL"] = {LOSSLESS_POOL: {"type": "ingress", "mode": "dynamic",
                                             "size": str(s["buffer_bytes"])}}
    profiles, pgs, qos = {}, {}, {}
    for port in ports:
        alpha = alpha_for(pfc, port.rate_gbps)
        th, exact = units.alpha_to_dynamic_th(alpha)
        if not exact:
            approx.add(f"dynamic_th {th} (alpha {2.0 ** th:g}) for pfc.alpha {alpha:g}: SONiC "
                       "takes alpha as a power of two")
        profile_name = _profile_name(th, pfc)
        profiles[profile_name] = _profile(th, pfc)
        pgs[f"{port.name}|{priority}"] = {"profile": profile_name}
        qos[port.name] = {"pfc_enable": str(priority) if pfc["enabled"] else ""}
    tables["BUFFER_PROFILE"] = profiles
    tables["BUFFER_PG"] = pgs
    tables["PORT_QOS_MAP"] = qos
    tables["WRED_PROFILE"], tables["QUEUE"] = _wred(s, ports, approx)
    if wd["enabled"]:
        tables["PFC_WD"] = _watchdog(wd, ports, approx)
    return tables, list(approx)


def _profile_name(th: int, pfc: dict[str, Any]) -> str:
    kind = "lossless" if pfc["enabled"] else "lossy"
    return f"pg_{kind}_dt{th}_profile".replace("-", "m")


def _profile(th: int, pfc: dict[str, Any]) -> dict[str, str]:
    out = {"pool": LOSSLESS_POOL, "dynamic_th": str(th), "xon_offset": str(pfc["xon_offset_bytes"])}
    if pfc["headroom_bytes"] == "auto":
        out["headroom_type"] = "dynamic"   # the dynamic buffer model computes xoff
    else:
        out.update({"size": "0", "xoff": str(pfc["headroom_bytes"]),
                    "xon": str(pfc["xon_offset_bytes"])})
    return out


def wred_profile_name(ecn: dict[str, Any], percent: int) -> str:
    state = "ECN" if ecn["enabled"] else "ECN_OFF"
    return f"FT_{state}_{ecn['kmin_bytes']}_{ecn['kmax_bytes']}_{percent}"


def _wred(s: dict[str, Any], ports: list[Port], approx: _Approx) -> tuple[dict, dict]:
    profiles: dict[str, dict[str, str]] = {}
    queues: dict[str, dict[str, str]] = {}
    priorities = sorted({s["data_priority"], *(int(p) for p in s.get("ecn_by_priority", {}))})
    for port in ports:
        for priority in priorities:
            ecn = ecn_for(s, port.rate_gbps, priority)
            percent, exact = units.fraction_to_percent(ecn["pmax"])
            if not exact:
                approx.add(f"green_drop_probability {percent} % for ecn pmax {ecn['pmax']:g}")
            name = wred_profile_name(ecn, percent)
            profiles[name] = {"wred_green_enable": "true",
                              "ecn": "ecn_all" if ecn["enabled"] else "ecn_none",
                              "green_min_threshold": str(ecn["kmin_bytes"]),
                              "green_max_threshold": str(ecn["kmax_bytes"]),
                              "green_drop_probability": str(percent)}
            queues[f"{port.name}|{priority}"] = {"wred_profile": name}
    return profiles, queues


def _watchdog(wd: dict[str, Any], ports: list[Port], approx: _Approx) -> dict[str, Any]:
    detect, restore = units.us_to_ms(wd["detect_us"]), units.us_to_ms(wd["restore_us"])
    for what, value, (lo, hi) in (("detection_time", detect, WD_DETECTION_MS),
                                  ("restoration_time", restore, WD_RESTORATION_MS)):
        if not lo <= value <= hi or not float(value).is_integer():
            approx.add(f"PFC_WD {what} {value:g} ms: sonic-pfcwd.yang takes whole ms in "
                       f"{lo}..{hi}; SONiC will refuse it")
    chosen = [p for p in ports if wd["ports"] == "all" or p.peer_kind == "host"]
    return {p.name: {"action": WD_ACTION, "detection_time": _number(detect),
                     "restoration_time": _number(restore)} for p in chosen}


def dumps(tables: dict[str, Any]) -> str:
    return json.dumps(tables, indent=2) + "\n"
