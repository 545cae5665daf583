"""Settings import into a scenario document and export from one (the router's work)."""

import copy
from typing import Any

from app.core import simulator
from app.fabricsettings import nic_sysfs, nvue, sonic, sonic_export
from app.fabricsettings.effective import nic_settings, switch_settings
from app.fabricsettings.report import Report
from app.fabricsettings.schemas import ExportFile, ExportFormat, SettingsExport
from app.scenarios.document import deep_merge

MAX_EXPORT_SWITCHES = 256
SYSFS_NOT_CARRIED = {
    "cc.preset": "the values are written out one by one",
    "cc.alpha_timer": "the NIC's alpha timer is periodic (dce_tcp_rtt); restart_on_cnp has no "
                      "parameter",
    "cnp_mode": "the NIC's notification point holds off (min_time_between_cnps)",
}
SONIC_NOT_CARRIED = sorted(sonic.NOT_IN_CONFIG_DB) + ["watchdogs.nic"]
NVUE_NOT_CARRIED = ["pfc.alpha (a comment gives the qos_infra.conf line)", "buffer_bytes",
                    "watchdogs.switch.restore_us"] + sorted(sonic.NOT_IN_CONFIG_DB)


def import_settings(document: dict[str, Any], *, sonic_files: list[tuple[str, str]],
                    sysfs_text: str | None, nic_host: str | None,
                    draw_topology: bool) -> tuple[dict[str, Any], Report]:
    """The document with the files' settings, and the report (nothing stored)."""
    doc = copy.deepcopy(document)
    report = Report()
    if sonic_files:
        doc, report = sonic.import_files(doc, sonic_files, draw_topology)
    if sysfs_text is not None:
        _import_sysfs(doc, sysfs_text, nic_host, report)
    return doc, report


def _import_sysfs(doc: dict[str, Any], text: str, host: str | None, report: Report) -> None:
    where = f"nic_overrides.{host}" if host else "nic"
    current = nic_settings(doc, host)
    priority = switch_settings(doc)["data_priority"]
    patch, sysfs_report = nic_sysfs.to_patch(nic_sysfs.read(text), priority,
                                             current["cc"]["algorithm"], where)
    if host:
        overrides = doc.setdefault("nic_overrides", {})
        overrides[host] = deep_merge(overrides.get(host, {}), patch)
    else:
        doc["nic"] = deep_merge(doc.get("nic", {}), patch)
    report.entries += sysfs_report.entries
    set_fields = {e.parameter for e in sysfs_report.entries if e.status == "mapped"}
    after = nic_settings(doc, host)
    for param in nic_sysfs.PARAMS:
        path = f"{where}.{param.field}"
        if path not in set_fields:
            report.kept(path, _dig(after, param.field), "not in the dump: as it was (from "
                        f"preset {after['cc']['preset']} when unset)")
    for field, why in SYSFS_NOT_CARRIED.items():
        report.kept(f"{where}.{field}", _dig(after, field), why)


def _dig(node: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        node = node[part]
    return node


def _header_lines(source: dict[str, Any], what: str) -> list[str]:
    lines = [f"FabricTwin settings export: {what}",
             f"scenario: {source['scenario_name'] or '(unnamed)'} ({source['scenario_id']})",
             f"run: {source.get('run_id') or 'none'}"]
    if source.get("tuning_id"):
        lines.append(f"tuning {source['tuning_id']}, {source['strategy']} pick (evaluation "
                     f"{source['evaluation_id']}): {source['pick']}")
    lines.append("conversions: docs/real-fabric.md")
    return lines


def export_settings(document: dict[str, Any], fmt: ExportFormat, source: dict[str, Any], *,
                    switch: str | None = None, host: str | None = None) -> SettingsExport:
    """Files of `fmt` for the document; `switch` / `host` limit the export to one device.
    Raises LookupError (unknown device) and ValueError (too many switches)."""
    if fmt == "nic_sysfs":
        return _sysfs(document, source, host)
    expanded = simulator.expand(document)
    ports = sonic_export.switch_ports(expanded)
    if switch is not None:
        if switch not in ports:
            raise LookupError(f"'{switch}' is not a switch of the scenario")
        ports = {switch: ports[switch]}
    if len(ports) > MAX_EXPORT_SWITCHES:
        raise ValueError(f"the scenario has {len(ports)} switches: export one at a time (switch=) "
                         f"or at most {MAX_EXPORT_SWITCHES}")
    files, approx = [], []
    for name, switch_ports in ports.items():
        if fmt == "sonic":
            header = {k: v for k, v in source.items() if v is not None}
            tables, notes = sonic_export.export_switch(document, name, switch_ports, header)
            files.append(ExportFile(name=f"{name}.config_db.json", media_type="application/json",
                                    content=sonic_export.dumps(tables)))
        else:
            text, notes = nvue.export_switch(document, name, switch_ports, _header_lines(
                source, f"NVIDIA Cumulus Linux NVUE, switch {name}"))
            files.append(ExportFile(name=f"{name}.nvue.sh", media_type="text/plain", content=text))
        approx += [f"{name}: {n}" for n in notes]
    return SettingsExport(format=fmt, source=source, files=files, approximations=approx,
                          not_exported=SONIC_NOT_CARRIED if fmt == "sonic" else NVUE_NOT_CARRIED)


def _sysfs(document: dict[str, Any], source: dict[str, Any], host: str | None) -> SettingsExport:
    overrides = document.get("nic_overrides", {})
    if host is not None and host not in overrides:
        hosts = [None]  # the host has the defaults
    else:
        hosts = [host] if host is not None else [None, *sorted(overrides)]
    files, approx = [], []
    for h in hosts:
        label = f"host {host}" if host else ("every host (nic)" if h is None else f"host {h} "
                                              "(nic_overrides)")
        text, notes = nic_sysfs.export(document, _header_lines(
            source, f"ConnectX DCQCN sysfs writes for {label}"), h)
        files.append(ExportFile(name=f"dcqcn-{h or host or 'all-hosts'}.sh",
                                media_type="text/x-shellscript", content=text))
        approx += notes
    return SettingsExport(format="nic_sysfs", source=source, files=files, approximations=approx,
                          not_exported=[f"nic.{k}: {v}" for k, v in SYSFS_NOT_CARRIED.items()])
