"""SONiC config_db.json files (one switch, or one per switch) -> the scenario's switch settings,
the switch PFC watchdog and, from DEVICE_NEIGHBOR and PORT of several files, an explicit topology.
Each field read is reported (mapped, with its conversion, or ignored and why). docs/real-fabric.md,
"SONiC", lists the mapping with its sources."""

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from app.core.textfile import TextFileError
from app.fabricsettings import units
from app.fabricsettings.report import Report
from app.fabricsettings.sonic_export import HEADER_TABLE
from app.scenarios.devices import SwitchPartial
from app.scenarios.faults import SwitchWatchdog

MAX_FILE_CHARS = 4_000_000
READ_TABLES = {"PORT", "BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG", "WRED_PROFILE", "QUEUE",
               "PORT_QOS_MAP", "PFC_WD", "DEVICE_NEIGHBOR", "DEVICE_NEIGHBOR_METADATA",
               "DEVICE_METADATA", "CABLE_LENGTH", HEADER_TABLE}
_METRES = re.compile(r"^(\d+(?:\.\d+)?)m$")


class SonicFileError(TextFileError):
    """An error in one file: its label leads the message."""

    def __init__(self, label: str, line: int, message: str):
        super().__init__(line, f"{label}: {message}")
        self.label = label


@dataclass
class SwitchFile:
    label: str                   # the file's name, as the report names it
    hostname: str
    tables: dict[str, Any]


@dataclass
class PortView:
    name: str
    rate_gbps: float | None = None
    metres: float | None = None
    peer: str | None = None
    peer_port: str | None = None
    peer_type: str | None = None


@dataclass
class SwitchView:
    file: SwitchFile
    ports: dict[str, PortView] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)     # SwitchPartial fields
    watchdog: dict[str, Any] | None = None                     # SwitchWatchdog fields
    watchdog_ports: list[str] = field(default_factory=list)


def read_file(label: str, text: str) -> SwitchFile:
    """Parse one config_db.json; JSON errors name the line."""
    if len(text) > MAX_FILE_CHARS:
        raise SonicFileError(label, 0, f"{len(text):,} characters (at most {MAX_FILE_CHARS:,})")
    try:
        tables = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SonicFileError(label, exc.lineno, f"expected JSON: {exc.msg} (column {exc.colno})") \
            from None
    if not isinstance(tables, dict) or not all(isinstance(v, dict) for v in tables.values()):
        raise SonicFileError(label, 1, "expected a config_db object: {\"TABLE\": {\"key\": "
                                       "{\"field\": \"value\"}}}")
    meta = tables.get("DEVICE_METADATA", {}).get("localhost", {})
    hostname = str(meta.get("hostname") or re.sub(r"(\.config_db)?\.json$", "", label))
    return SwitchFile(label, hostname, tables)


def _split_key(key: str) -> tuple[list[str], list[int]]:
    """"Ethernet0,Ethernet4|3-4" -> (["Ethernet0", "Ethernet4"], [3, 4])."""
    ports, _, rest = key.partition("|")
    priorities: list[int] = []
    for part in filter(None, rest.split(",")):
        lo, _, hi = part.partition("-")
        priorities += list(range(int(lo), int(hi or lo) + 1))
    return [p.strip() for p in ports.split(",") if p.strip()], priorities


def _ref(value: Any) -> str:
    """"[BUFFER_PROFILE|name]" or "name" -> "name"."""
    text = str(value).strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1].split("|", 1)[-1]
    return text


def _int(sw: SwitchFile, where: str, value: Any) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise SonicFileError(sw.label, 0, f"{where} must be an integer, got '{value}'") from None


def _num(sw: SwitchFile, where: str, value: Any) -> float:
    try:
        out = float(str(value).strip())
    except ValueError:
        raise SonicFileError(sw.label, 0, f"{where} must be a number, got '{value}'") from None
    if out != out:
        raise SonicFileError(sw.label, 0, f"{where} must be a number, got '{value}'")
    return out


def _check(sw: SwitchFile, where: str, path: str, value: Any, model=SwitchPartial) -> None:
    """The scenario model's own range message when `value` cannot be `path` (one source)."""
    node: dict[str, Any] = {}
    cursor = node
    parts = path.split(".")
    for part in parts[:-1]:
        cursor = cursor.setdefault(part, {})
    cursor[parts[-1]] = value
    where = where.removeprefix(f"{sw.label}: ")
    try:
        model.model_validate(node)
    except ValidationError as exc:
        raise SonicFileError(sw.label, 0, f"{where} gives {path} = {value}: "
                                          f"{exc.errors()[0]['msg']}") from None


def view(sw: SwitchFile, report: Report) -> SwitchView:
    """Read one switch's tables into per-port facts and its settings."""
    v = SwitchView(sw)
    t = sw.tables
    for table in sorted(set(t) - READ_TABLES):
        count = len(t[table])
        report.ignored(f"{sw.label}: {table}", f"{count} entr{'y' if count == 1 else 'ies'}",
                       "not a table the model has settings for")
    if HEADER_TABLE in t:
        report.ignored(f"{sw.label}: {HEADER_TABLE}", "header", "FabricTwin's export header")
    _ports(sw, v, report)
    priorities = _priorities(sw, v, report)
    _buffers(sw, v, priorities, report)
    _wred(sw, v, report)
    _watchdog(sw, v, report)
    return v


def _ports(sw: SwitchFile, v: SwitchView, report: Report) -> None:
    t = sw.tables
    other: dict[str, list[str]] = {}
    for name, fields in t.get("PORT", {}).items():
        port = v.ports.setdefault(name, PortView(name))
        if "speed" in fields:
            port.rate_gbps = units.mbps_to_gbps(_num(sw, f"PORT|{name}.speed", fields["speed"]))
        for key in set(fields) - {"speed"}:
            other.setdefault(key, []).append(name)
    if "PORT" in t:
        speeds = sorted({p.rate_gbps for p in v.ports.values() if p.rate_gbps is not None})
        report.read(f"{sw.label}: PORT.speed", f"{len(t['PORT'])} ports at "
                    + ", ".join(f"{s:g}" for s in speeds) + " Gbit/s",
                    "groups ports by link rate (alpha_by_rate, ecn_by_rate) and gives the drawn "
                    "links their rate (Gbit/s = Mbit/s / 1000)")
    for key, ports in sorted(other.items()):
        report.ignored(f"{sw.label}: PORT.{key}", f"{len(ports)} ports",
                       "the model's frames are sized by nic.mtu_bytes" if key == "mtu"
                       else "not a setting the model has")
    for profile, lengths in t.get("CABLE_LENGTH", {}).items():
        for name, text in lengths.items():
            found = _METRES.match(str(text).strip())
            if not found:
                raise SonicFileError(sw.label, 0, f"CABLE_LENGTH|{profile}.{name} must be metres "
                                                  f"like '5m', got '{text}'")
            v.ports.setdefault(name, PortView(name)).metres = float(found.group(1))
        report.read(f"{sw.label}: CABLE_LENGTH|{profile}", f"{len(lengths)} ports",
                    "the drawn links' length (km = m / 1000; 5 us per km)")
    metadata = t.get("DEVICE_NEIGHBOR_METADATA", {})
    types = {peer: str(f.get("type", "")) for peer, f in metadata.items()}
    for key, fields in t.get("DEVICE_NEIGHBOR", {}).items():
        local = fields.get("local_port", key)   # keyed by local port, or (older) by neighbor name
        peer = fields.get("name", key if "local_port" in fields else None)
        port = v.ports.setdefault(local, PortView(local))
        port.peer, port.peer_port = peer, fields.get("port")
        port.peer_type = types.get(peer or "", fields.get("type"))
    if "DEVICE_NEIGHBOR" in t:
        report.read(f"{sw.label}: DEVICE_NEIGHBOR", f"{len(t['DEVICE_NEIGHBOR'])} neighbors",
                    "which ports face hosts and which switches (watchdog ports; the topology "
                    "when one file per switch is given)")


def _priorities(sw: SwitchFile, v: SwitchView, report: Report) -> set[int]:
    """Lossless priorities (PORT_QOS_MAP pfc_enable) -> pfc.enabled and data_priority."""
    qos = sw.tables.get("PORT_QOS_MAP")
    lossless: set[int] = set()
    if qos is None:
        return lossless
    for key, fields in qos.items():
        value = str(fields.get("pfc_enable", "")).strip()
        lossless |= {_int(sw, f"PORT_QOS_MAP|{key}.pfc_enable", p) for p in value.split(",") if p}
        for other in sorted(set(fields) - {"pfc_enable"}):
            report.ignored(f"{sw.label}: PORT_QOS_MAP|{key}.{other}", fields[other],
                           "the model maps priorities to queues one to one")
    source = f"{sw.label}: PORT_QOS_MAP.pfc_enable"
    v.settings["pfc"] = {"enabled": bool(lossless)}
    report.mapped(source, ",".join(map(str, sorted(lossless))) or "(none)", "switch.pfc.enabled",
                  bool(lossless), "a priority listed = PFC on")
    if lossless:
        priority = min(lossless)
        _check(sw, source, "data_priority", priority)
        v.settings["data_priority"] = priority
        note = (f"priorities {sorted(lossless)} are lossless: the model's data goes at one "
                "priority, the lowest") if len(lossless) > 1 else None
        report.mapped(source, priority, "switch.data_priority", priority,
                      "the lossless priority", note)
    return lossless


def _majority(values: list[Any]) -> Any:
    counts = Counter(json.dumps(x, sort_keys=True) for x in values)
    return json.loads(counts.most_common(1)[0][0])


def _buffers(sw: SwitchFile, v: SwitchView, lossless: set[int], report: Report) -> None:
    """BUFFER_PG of the data priority -> its profile -> alpha (per port rate), headroom and xon
    offset; the profile's pool -> buffer_bytes."""
    t = sw.tables
    profiles = t.get("BUFFER_PROFILE", {})
    priority = v.settings.get("data_priority")
    per_port: dict[str, str] = {}
    for key, fields in t.get("BUFFER_PG", {}).items():
        ports, prios = _split_key(key)
        name = _ref(fields.get("profile", ""))
        if priority is None and prios and name != "NULL" and "lossy" not in name:
            priority = prios[0]
        if priority in prios:
            for port in ports:
                per_port[port] = name
        else:
            report.ignored(f"{sw.label}: BUFFER_PG|{key}", name,
                           f"priorities {prios} carry no data in the scenario")
    if priority is not None and "data_priority" not in v.settings:
        v.settings["data_priority"] = priority
        report.mapped(f"{sw.label}: BUFFER_PG", priority, "switch.data_priority", priority,
                      "the priority of the lossless PG")
    used = sorted(set(per_port.values()))
    for name in sorted(set(profiles) - set(used)):
        report.ignored(f"{sw.label}: BUFFER_PROFILE|{name}", "profile",
                       "not the profile of the data priority's PG")
    alphas: dict[str, float] = {}
    headroom: list[Any] = []
    xon: list[int] = []
    pools: set[str] = set()
    for name in used:
        src = f"{sw.label}: BUFFER_PROFILE|{name}"
        if name == "NULL":
            headroom.append("auto")
            continue
        if name not in profiles:
            raise SonicFileError(sw.label, 0, f"BUFFER_PG names profile '{name}', which "
                                              "BUFFER_PROFILE does not define")
        prof = profiles[name]
        pools.add(_ref(prof.get("pool", "ingress_lossless_pool")))
        if "dynamic_th" in prof:
            th = _int(sw, f"BUFFER_PROFILE|{name}.dynamic_th", prof["dynamic_th"])
            alpha = units.dynamic_th_to_alpha(th)
            _check(sw, f"{src}.dynamic_th {th}", "pfc.alpha", alpha)
            for port, pname in per_port.items():
                if pname == name:
                    alphas[port] = alpha
            report.mapped(f"{src}.dynamic_th", th, "switch.pfc.alpha", alpha,
                          f"alpha = 2^dynamic_th = 2^{th}")
        elif "static_th" in prof:
            report.ignored(f"{src}.static_th", prof["static_th"],
                           "a static threshold: the model's PFC threshold is dynamic (alpha)")
        if prof.get("headroom_type") == "dynamic" or "xoff" not in prof:
            headroom.append("auto")
        else:
            value = _int(sw, f"BUFFER_PROFILE|{name}.xoff", prof["xoff"])
            _check(sw, f"{src}.xoff", "pfc.headroom_bytes", value)
            headroom.append(value)
        if "xon_offset" in prof:
            xon.append(_int(sw, f"BUFFER_PROFILE|{name}.xon_offset", prof["xon_offset"]))
        for key in sorted(set(prof) - {"dynamic_th", "xoff", "xon_offset", "pool", "headroom_type",
                                       "static_th"}):
            why = {"size": "a PG's reserved minimum: the model reserves none beyond headroom",
                   "xon": "the model resumes at threshold - xon_offset (xon_offset is read)"}
            report.ignored(f"{src}.{key}", prof[key], why.get(key, "not a setting the model has"))
    pfc = v.settings.setdefault("pfc", {})
    if alphas:
        pfc["alpha_by_rate"] = {}
        _alpha(sw, v, alphas, pfc, report)
    if headroom:
        chosen = _majority(headroom)
        pfc["headroom_bytes"] = chosen
        report.mapped(f"{sw.label}: BUFFER_PROFILE.xoff / headroom_type", chosen,
                      "switch.pfc.headroom_bytes",
                      chosen, "headroom = xoff bytes (profile NULL or headroom_type dynamic: auto)",
                      None if len(set(map(str, headroom))) == 1 else
                      "ports differ: the model has one headroom per switch (the most common)")
    if xon:
        value = _majority(xon)
        _check(sw, f"{sw.label}: BUFFER_PROFILE.xon_offset", "pfc.xon_offset_bytes", value)
        pfc["xon_offset_bytes"] = value
        report.mapped(f"{sw.label}: BUFFER_PROFILE.xon_offset", value,
                      "switch.pfc.xon_offset_bytes", value, "bytes = bytes")
    _pool(sw, v, pools or {"ingress_lossless_pool"}, report)


def _alpha(sw: SwitchFile, v: SwitchView, alphas: dict[str, float], pfc: dict[str, Any],
           report: Report) -> None:
    """One alpha per switch, and per port rate where the ports of a rate share another one."""
    base = _majority(list(alphas.values()))
    pfc["alpha"] = base
    by_rate: dict[str, float] = {}
    rates: dict[float, set[float]] = {}
    for port, alpha in alphas.items():
        rate = v.ports.get(port, PortView(port)).rate_gbps
        if rate is not None:
            rates.setdefault(rate, set()).add(alpha)
    for rate, values in sorted(rates.items()):
        if len(values) > 1:
            report.ignored(f"{sw.label}: BUFFER_PG", sorted(values),
                           f"ports of {rate:g} Gbit/s differ in alpha: the model sets alpha per "
                           "link rate")
        elif values != {base}:
            by_rate[_rate_key(rate)] = values.pop()
    if by_rate:
        pfc["alpha_by_rate"] = by_rate
        report.mapped(f"{sw.label}: BUFFER_PG (per port speed)", by_rate,
                      "switch.pfc.alpha_by_rate", by_rate, "the ports of a speed share a profile")


def _rate_key(rate: float) -> str:
    return f"{rate:g}"


def _pool(sw: SwitchFile, v: SwitchView, pools: set[str], report: Report) -> None:
    table = sw.tables.get("BUFFER_POOL", {})
    for name, fields in table.items():
        src = f"{sw.label}: BUFFER_POOL|{name}"
        if name not in pools:
            report.ignored(src, fields.get("size", ""), "not the pool of the data priority's PG")
            continue
        if "size" not in fields:
            report.ignored(src, "(no size)", "a dynamic pool without size: buffer kept")
            continue
        size = _int(sw, f"BUFFER_POOL|{name}.size", fields["size"])
        extra = _int(sw, f"BUFFER_POOL|{name}.xoff", fields["xoff"]) if "xoff" in fields else 0
        total = size + extra
        _check(sw, src, "buffer_bytes", total)
        v.settings["buffer_bytes"] = total
        report.mapped(f"{src}.size" + ("+xoff" if extra else ""), size + extra,
                      "switch.buffer_bytes", total,
                      "shared pool + shared headroom pool" if extra else "bytes = bytes")


def _wred(sw: SwitchFile, v: SwitchView, report: Report) -> None:
    """QUEUE wred_profile per (port, priority) -> ecn, ecn_by_rate, ecn_by_priority."""
    profiles = sw.tables.get("WRED_PROFILE", {})
    queues = sw.tables.get("QUEUE")
    table: dict[tuple[str, int], dict[str, Any]] = {}
    if queues is None:
        if len(profiles) == 1 and "data_priority" in v.settings:
            (name, prof), = profiles.items()
            ecn = _ecn(sw, name, prof, report)
            v.settings["ecn"] = ecn
            report.mapped(f"{sw.label}: WRED_PROFILE|{name}", name, "switch.ecn", ecn,
                          "the only WRED profile, taken for the data priority (no QUEUE table)")
        return
    read: dict[str, dict[str, Any]] = {}
    for key, fields in queues.items():
        ports, prios = _split_key(key)
        if "wred_profile" not in fields:
            continue
        name = _ref(fields["wred_profile"])
        if name not in profiles:
            raise SonicFileError(sw.label, 0, f"QUEUE|{key} names WRED profile '{name}', which "
                                              "WRED_PROFILE does not define")
        if name not in read:
            read[name] = _ecn(sw, name, profiles[name], report)
        for port in ports:
            for prio in prios:
                table[(port, prio)] = read[name]
    if table:
        v.settings["ecn_by_rate"], v.settings["ecn_by_priority"] = {}, {}
        _ecn_tables(sw, v, table, report)


def _ecn(sw: SwitchFile, name: str, prof: dict[str, Any], report: Report) -> dict[str, Any]:
    src = f"{sw.label}: WRED_PROFILE|{name}"
    mode = str(prof.get("ecn", "ecn_none"))
    ecn: dict[str, Any] = {"enabled": "green" in mode or mode == "ecn_all"}
    report.mapped(f"{src}.ecn", mode, "switch.ecn.enabled", ecn["enabled"],
                  "ecn_all / ecn_green* = marking on")
    pairs = (("green_min_threshold", "kmin_bytes"), ("green_max_threshold", "kmax_bytes"))
    for sonic, ours in pairs:
        if sonic in prof:
            ecn[ours] = _int(sw, f"WRED_PROFILE|{name}.{sonic}", prof[sonic])
            _check(sw, f"{src}.{sonic}", f"ecn.{ours}", ecn[ours])
            report.mapped(f"{src}.{sonic}", prof[sonic], f"switch.ecn.{ours}", ecn[ours],
                          "bytes = bytes")
    if "green_drop_probability" in prof:
        percent = _num(sw, f"WRED_PROFILE|{name}.green_drop_probability",
                       prof["green_drop_probability"])
        ecn["pmax"] = units.percent_to_fraction(percent)
        _check(sw, f"{src}.green_drop_probability", "ecn.pmax", ecn["pmax"])
        report.mapped(f"{src}.green_drop_probability", prof["green_drop_probability"],
                      "switch.ecn.pmax", ecn["pmax"], "pmax = percent / 100")
    for key in sorted(set(prof) - {"ecn", "green_min_threshold", "green_max_threshold",
                                   "green_drop_probability"}):
        report.ignored(f"{src}.{key}", prof[key],
                       "RoCE frames are green: yellow and red thresholds do not apply"
                       if key.startswith(("yellow", "red", "wred_yellow", "wred_red"))
                       else "the model marks ECN-capable frames; WRED drops are not modelled")
    return ecn


def _ecn_tables(sw: SwitchFile, v: SwitchView, table: dict[tuple[str, int], dict[str, Any]],
                report: Report) -> None:
    """Split the (port, priority) table into ecn, ecn_by_rate and ecn_by_priority."""
    priority = v.settings.get("data_priority", min(p for _, p in table))
    rate_of = {name: port.rate_gbps for name, port in v.ports.items()}
    data = {port: ecn for (port, prio), ecn in table.items() if prio == priority}
    if not data:
        return
    rates = Counter(rate_of.get(port) for port in data)
    main_rate = rates.most_common(1)[0][0]
    base = _majority([e for p, e in data.items() if rate_of.get(p) == main_rate])
    v.settings["ecn"] = base
    by_rate = {}
    for rate in sorted(r for r in rates if r is not None and r != main_rate):
        values = [e for p, e in data.items() if rate_of.get(p) == rate]
        chosen = _majority(values)
        diff = {k: val for k, val in chosen.items() if base.get(k) != val}
        if diff:
            by_rate[_rate_key(rate)] = diff
    if by_rate:
        v.settings["ecn_by_rate"] = by_rate
        report.mapped(f"{sw.label}: QUEUE (per port speed)", by_rate, "switch.ecn_by_rate",
                      by_rate, "the queues of a port speed share a WRED profile")
    by_prio = {}
    for prio in sorted({p for _, p in table} - {priority}):
        values = [e for (port, p), e in table.items()
                  if p == prio and rate_of.get(port) == main_rate]
        if values:
            diff = {k: val for k, val in _majority(values).items() if base.get(k) != val}
            if diff:
                by_prio[str(prio)] = diff
    if by_prio:
        v.settings["ecn_by_priority"] = by_prio
        report.mapped(f"{sw.label}: QUEUE (per priority)", by_prio, "switch.ecn_by_priority",
                      by_prio, "queues of other priorities with their own WRED profile")


def _watchdog(sw: SwitchFile, v: SwitchView, report: Report) -> None:
    table = sw.tables.get("PFC_WD")
    if table is None:
        return
    entries = {k: f for k, f in table.items() if k != "GLOBAL"}
    if "GLOBAL" in table:
        report.ignored(f"{sw.label}: PFC_WD|GLOBAL", table["GLOBAL"].get("POLL_INTERVAL", ""),
                       "the model's watchdog watches continuously (no polling interval)")
    if not entries:
        return
    detect = _majority([str(f.get("detection_time", "")) for f in entries.values()])
    restore = _majority([str(f.get("restoration_time", "")) for f in entries.values()])
    action = _majority([str(f.get("action", "drop")) for f in entries.values()])
    wd: dict[str, Any] = {"enabled": True}
    src = f"{sw.label}: PFC_WD"
    report.mapped(src, f"{len(entries)} ports", "watchdogs.switch.enabled", True, "listed = on")
    for what, value, ours in (("detection_time", detect, "detect_us"),
                              ("restoration_time", restore, "restore_us")):
        if value:
            us = units.ms_to_us(_num(sw, f"PFC_WD.{what}", value))
            _check(sw, f"{src}.{what}", ours, us, SwitchWatchdog)
            wd[ours] = us
            report.mapped(f"{src}.{what}", value, f"watchdogs.switch.{ours}", us, "us = ms x 1000")
    if action != "drop":
        report.ignored(f"{src}.action", action, "the model's watchdog drops (action drop)")
    v.watchdog = wd
    v.watchdog_ports = sorted(entries)


def watchdog_ports(v: SwitchView, switch_names: set[str]) -> str:
    """"all" when the watchdog covers a port facing a switch (a peer of type *Router, or one of
    the files' switches), else "servers" (ports facing hosts only)."""
    for name in v.watchdog_ports:
        port = v.ports.get(name)
        if port is not None and port.peer and is_switch_peer(port, switch_names):
            return "all"
    return "servers"


def is_switch_peer(port: PortView, switch_names: set[str]) -> bool:
    return port.peer in switch_names or (bool(port.peer_type) and
                                         "router" in port.peer_type.lower())
