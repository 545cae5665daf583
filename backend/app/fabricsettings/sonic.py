"""Several switches' config_db.json files -> one scenario: the settings most switches share go to
`switch`, a switch that differs gets `switch_overrides[<hostname>]`, the PFC watchdog goes to
`watchdogs.switch`, and DEVICE_NEIGHBOR with PORT redraw the topology when one file per switch
is given (docs/real-fabric.md, "SONiC")."""

import copy
import json
import re
from collections import Counter
from typing import Any

from app.fabricsettings.effective import switch_settings, watchdog_settings
from app.fabricsettings.report import Report
from app.fabricsettings.sonic_import import (SonicFileError, SwitchView, is_switch_peer,
                                             read_file, view, watchdog_ports)
from app.scenarios import limits

# The switch settings config_db carries (dotted under `switch`), and those it has no field for.
CARRIED = ("buffer_bytes", "data_priority", "pfc.enabled", "pfc.alpha", "pfc.alpha_by_rate",
           "pfc.headroom_bytes", "pfc.xon_offset_bytes", "ecn.enabled", "ecn.kmin_bytes",
           "ecn.kmax_bytes", "ecn.pmax", "ecn_by_rate", "ecn_by_priority")
NOT_IN_CONFIG_DB = {
    "cell_bytes": "the ASIC's cell size is not configurable",
    "pfc.pause_mode": "the ASIC's pause timing is not in config_db",
    "pfc.pause_quanta": "the ASIC's pause timing is not in config_db",
    "ecmp_seed": "the hash seed is not in the QoS tables",
    "ecn_mark_point": "the ASIC decides where it marks",
    "load_balancing": "not in the QoS tables",
    "trimming": "not in the QoS tables",
}
MAX_FILES = 512
_NODE_ID = re.compile(limits.NODE_ID_PATTERN)


def _flatten(settings: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for path in CARRIED:
        node: Any = settings
        for part in path.split("."):
            node = node.get(part) if isinstance(node, dict) else None
            if node is None:
                break
        if node is not None:
            out[path] = node
    return out


def _set(target: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    for part in parts[:-1]:
        target = target.setdefault(part, {})
    target[parts[-1]] = copy.deepcopy(value)


def _get(source: dict[str, Any], path: str) -> Any:
    node: Any = source
    for part in path.split("."):
        node = node[part]
    return node


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def import_files(document: dict[str, Any], files: list[tuple[str, str]],
                 draw_topology: bool = True) -> tuple[dict[str, Any], Report]:
    """The document with the files' switch settings (and topology), and the report."""
    if not files:
        raise SonicFileError("sonic", 0, "give at least one config_db.json")
    if len(files) > MAX_FILES:
        raise SonicFileError("sonic", 0, f"at most {MAX_FILES} files (got {len(files)})")
    report = Report()
    parsed = [read_file(label, text) for label, text in files]
    seen: dict[str, str] = {}
    for sw in parsed:
        if sw.hostname in seen:
            raise SonicFileError(sw.label, 0, f"switch '{sw.hostname}' is also {seen[sw.hostname]}")
        seen[sw.hostname] = sw.label
    views = [view(sw, report) for sw in parsed]
    doc = copy.deepcopy(document)
    names = set(seen)
    if draw_topology and len(views) > 1 and any(p.peer for v in views for p in v.ports.values()):
        doc["topology"] = draw(views, names, report)
    elif len(views) > 1:
        report.kept("topology", doc["topology"].get("kind"),
                    "not redrawn (draw_topology off, or no DEVICE_NEIGHBOR)")
    _settings(doc, views, report)
    _watchdogs(doc, views, names, report)
    return doc, report


def _settings(doc: dict[str, Any], views: list[SwitchView], report: Report) -> None:
    flat = [_flatten(v.settings) for v in views]
    base: dict[str, Any] = {}
    for path in CARRIED:
        values = [f[path] for f in flat if path in f]
        if values:
            base[path] = json.loads(Counter(_key(x) for x in values).most_common(1)[0][0])
    switch = doc.setdefault("switch", {})
    for path, value in base.items():
        _set(switch, path, value)
    current = switch_settings(doc)
    for path in CARRIED:
        if path not in base:
            report.kept(f"switch.{path}", _get(current, path), "not in the files: as it was")
    for path, why in NOT_IN_CONFIG_DB.items():
        report.kept(f"switch.{path}", _get(current, path), why)
    switches = _switch_ids(doc)
    for v, values in zip(views, flat):
        differ = {p: val for p, val in values.items() if _key(val) != _key(base.get(p))}
        if not differ:
            continue
        host = v.file.hostname
        if switches is not None and host not in switches:
            report.ignored(f"{v.file.label}", host,
                           f"'{host}' is not a switch of the scenario: its settings that differ "
                           f"({', '.join(sorted(differ))}) are not applied")
            continue
        override = doc.setdefault("switch_overrides", {}).setdefault(host, {})
        for path, value in differ.items():
            _set(override, path, value)
        report.mapped(v.file.label, ", ".join(sorted(differ)), f"switch_overrides.{host}",
                      override, "where this switch differs from the others")


def _switch_ids(doc: dict[str, Any]) -> set[str] | None:
    """Switch ids of an explicit topology (None for a generated one: checked on validation)."""
    topology = doc.get("topology", {})
    if topology.get("kind") != "explicit":
        return None
    return {n["id"] for n in topology.get("nodes", []) if n.get("kind") == "switch"}


def _watchdogs(doc: dict[str, Any], views: list[SwitchView], names: set[str],
               report: Report) -> None:
    found = []
    for v in views:
        if v.watchdog is not None:
            found.append({**v.watchdog, "ports": watchdog_ports(v, names)})
            report.mapped(f"{v.file.label}: PFC_WD (ports)", ",".join(v.watchdog_ports),
                          "watchdogs.switch.ports", found[-1]["ports"],
                          "a port facing a switch listed = all, else servers")
    if not found:
        report.kept("watchdogs.switch", watchdog_settings(doc)["switch"],
                    "no PFC_WD table: as it was")
        return
    chosen = json.loads(Counter(_key(w) for w in found).most_common(1)[0][0])
    watchdogs = doc.setdefault("watchdogs", {})
    watchdogs["switch"] = {**watchdogs.get("switch", {}), **chosen}
    if len({_key(w) for w in found}) > 1 or len(found) < len(views):
        report.ignored("PFC_WD", f"{len(found)} of {len(views)} switches",
                       "switches differ: the model has one switch watchdog (the most common "
                       "setting is taken)")


def draw(views: list[SwitchView], names: set[str], report: Report) -> dict[str, Any]:
    """An explicit topology from each switch's ports and their DEVICE_NEIGHBOR peers."""
    links, seen = [], set()
    hosts: set[str] = set()
    guessed = 0
    for v in views:
        me = v.file.hostname
        for port in v.ports.values():
            if not port.peer:
                continue
            pair = frozenset({(me, port.name), (port.peer, port.peer_port or f"?{me}:{port.name}")})
            if pair in seen:
                continue
            seen.add(pair)
            if not is_switch_peer(port, names):
                hosts.add(port.peer)
            rate = port.rate_gbps or _peer_rate(views, port.peer, port.peer_port)
            if rate is None:
                raise SonicFileError(v.file.label, 0, f"PORT|{port.name} has no speed: the link "
                                                      f"to {port.peer} needs one")
            link: dict[str, Any] = {"a": me, "b": port.peer, "rate_gbps": rate}
            if port.metres is not None:
                link["length_km"] = port.metres / 1000
            else:
                link["delay_us"] = 1.0
                guessed += 1
            links.append(link)
    for node in sorted(names | hosts):
        if not _NODE_ID.match(node):
            raise SonicFileError("DEVICE_NEIGHBOR", 0, f"'{node}' cannot be a node id "
                                                       f"({limits.NODE_ID_PATTERN})")
    tiers = _tiers(names, hosts, links)
    nodes = ([{"id": h, "kind": "host"} for h in sorted(hosts, key=_natural)]
             + [{"id": v.file.hostname, "kind": "switch", "tier": tiers.get(v.file.hostname, 1)}
                for v in views])
    extra = sorted({link["b"] for link in links} - hosts - names)
    nodes += [{"id": s, "kind": "switch", "tier": tiers.get(s, 1)} for s in extra]
    report.mapped("DEVICE_NEIGHBOR + PORT", f"{len(views)} files", "topology",
                  {"kind": "explicit", "nodes": len(nodes), "links": len(links)},
                  "one node per switch file and per neighbor, one link per port (speed from PORT, "
                  "length from CABLE_LENGTH at 5 us/km)",
                  f"{guessed} links without CABLE_LENGTH got delay_us 1" if guessed else None)
    return {"kind": "explicit", "nodes": nodes, "links": links}


def _peer_rate(views: list[SwitchView], peer: str, peer_port: str | None) -> float | None:
    for v in views:
        if v.file.hostname == peer and peer_port in v.ports:
            return v.ports[peer_port].rate_gbps
    return None


def _tiers(switches: set[str], hosts: set[str], links: list[dict[str, Any]]) -> dict[str, int]:
    """A switch's tier: its distance in links from the nearest host (a ToR is 1)."""
    adjacent: dict[str, set[str]] = {}
    for link in links:
        adjacent.setdefault(link["a"], set()).add(link["b"])
        adjacent.setdefault(link["b"], set()).add(link["a"])
    tier = {h: 0 for h in hosts}
    frontier = list(hosts)
    while frontier:
        nxt = []
        for node in frontier:
            for peer in adjacent.get(node, ()):
                if peer not in tier:
                    tier[peer] = min(tier[node] + 1, 4)
                    nxt.append(peer)
        frontier = nxt
    return {s: max(1, tier.get(s, 1)) for s in switches}


def _natural(name: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))
