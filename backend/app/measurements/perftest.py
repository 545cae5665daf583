"""Reader of perftest's text output (github.com/linux-rdma/perftest): the test's title line
("RDMA_Write BW Test"), its settings ("Number of qps : 1", "TX depth : 128", "Mtu : 4096[B]"),
then one table: bandwidth (`#bytes #iterations BW peak[MB/sec] BW average[MB/sec]
MsgRate[Mpps]`, or [Gb/sec] with --report_gbits) or latency (`#bytes #iterations t_min[usec]
t_max[usec] t_typical[usec] t_avg[usec] t_stdev[usec] 99% percentile[usec] 99.9% percentile[usec]`),
closed by a line of dashes (src/perftest_parameters.h RESULT_FMT*, REPORT_FMT*, RESULT_LINE).
docs/real-fabric.md, "perftest"."""

import re
from dataclasses import asdict, dataclass, field

from app.measurements.errors import MAX_ROWS, MeasurementFileError, ToolError, lines_of, number
from app.measurements.units import perftest_gbits_to_gbps, perftest_mbs_to_gbps

TITLES = {
    "RDMA_Write BW Test": "ib_write_bw", "RDMA_Read BW Test": "ib_read_bw",
    "Send BW Test": "ib_send_bw", "RDMA_Write Latency Test": "ib_write_lat",
    "RDMA_Read Latency Test": "ib_read_lat", "Send Latency Test": "ib_send_lat",
}
TOOLS = tuple(TITLES.values())
BW_UNITS = {"MB": ("MB/sec", perftest_mbs_to_gbps), "Gb": ("Gb/sec", perftest_gbits_to_gbps)}
# What a latency test's time is, in one-way message latencies (src/perftest_parameters.c,
# print_report_lat: rtt_factor 1 for READ and ATOMIC, else 2): ib_write_lat and ib_send_lat
# ping-pong and print half the round trip; ib_read_lat prints the whole round trip.
LATENCY_ROUND_TRIPS = {"ib_write_lat": 0.5, "ib_send_lat": 0.5, "ib_read_lat": 1.0}

_TITLE = re.compile(r"^(" + "|".join(re.escape(t) for t in TITLES) + r")\s*$")
_BW_HEADER = re.compile(r"^#bytes\s+#iterations\s+BW peak\[(MB|Gb)/sec\]\s+"
                        r"BW average\[(MB|Gb)/sec\]\s+MsgRate\[Mpps\]")
_LAT_HEADER = re.compile(r"^#bytes\s+#iterations\s+t_min\[usec\]\s+t_max\[usec\]\s+"
                         r"t_typical\[usec\]\s+t_avg\[usec\]\s+t_stdev\[usec\]\s+"
                         r"99% percentile\[usec\]\s+99\.9% percentile\[usec\]")
_LAT_DURATION_HEADER = re.compile(r"^#bytes\s+#iterations\s+t_avg\[usec\]\s+tps average")
_OTHER_TABLE = re.compile(r"^#bytes\s")
_DASHES = re.compile(r"^-{20,}$")
_SETTING = re.compile(r"^([A-Za-z][A-Za-z0-9 ._*()-]*?)\s*:\s*(.+?)\s*$")
SETTINGS = {"Number of qps": "qps", "TX depth": "tx_depth", "Mtu": "mtu", "Link type": "link_type",
            "Connection type": "connection_type", "Transport type": "transport_type",
            "Device": "device", "Dual-port": "dual_port", "CQ Moderation": "cq_moderation",
            "Max inline data": "max_inline"}
BW_EXPECTED = "5 columns: #bytes #iterations BW peak BW average MsgRate"
LAT_EXPECTED = ("9 columns: #bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9% "
                "percentile")
LAT_DURATION_EXPECTED = "4 columns: #bytes #iterations t_avg tps"


@dataclass
class PerftestRow:
    line: int
    size_bytes: int
    iterations: int
    # bandwidth tests (as printed, and in Gbit/s)
    bw_peak: float | None = None
    bw_average: float | None = None
    msg_rate_mpps: float | None = None
    bw_average_gbps: float | None = None
    bw_peak_gbps: float | None = None
    # latency tests, microseconds
    t_min_us: float | None = None
    t_max_us: float | None = None
    t_typical_us: float | None = None
    t_avg_us: float | None = None
    t_stdev_us: float | None = None
    p99_us: float | None = None
    p999_us: float | None = None


@dataclass
class PerftestResult:
    tool: str
    kind: str          # "bw" or "lat"
    unit: str          # "MB/sec", "Gb/sec" or "usec"
    settings: dict[str, str | int]
    rows: list[PerftestRow]
    notes: list[str] = field(default_factory=list)

    @property
    def qps(self) -> int:
        return int(self.settings.get("qps", 1))

    def as_json(self) -> dict:
        return asdict(self)


def _settings(line: str) -> dict[str, str | int]:
    """`Number of qps   : 1\t\tTransport type : IB` -> {"qps": 1, "transport_type": "IB"}."""
    out: dict[str, str | int] = {}
    for piece in re.split(r"\t+|\s{3,}(?=[A-Z][A-Za-z .]+:)", line.strip()):
        found = _SETTING.match(piece.strip())
        if found and found.group(1) in SETTINGS:
            key, value = SETTINGS[found.group(1)], found.group(2)
            if key in ("qps", "tx_depth", "cq_moderation"):
                out[key] = int(value) if value.isdigit() else value
            elif key == "mtu":
                digits = re.match(r"(\d+)", value)
                out["mtu_bytes"] = int(digits.group(1)) if digits else value
            else:
                out[key] = value
    return out


def _bw_row(tokens: list[str], line: int, to_gbps) -> PerftestRow:
    if len(tokens) not in (5, 6):  # a sixth column with --cpu_util
        raise MeasurementFileError(line, f"expected {BW_EXPECTED}; got {len(tokens)} columns")
    size = int(number(tokens[0], line, "#bytes", integer=True))
    iters = int(number(tokens[1], line, "#iterations", integer=True))
    peak, avg, rate = (float(number(t, line, what)) for t, what in
                       zip(tokens[2:5], ("BW peak", "BW average", "MsgRate")))
    return PerftestRow(line, size, iters, bw_peak=peak, bw_average=avg, msg_rate_mpps=rate,
                       bw_average_gbps=to_gbps(avg), bw_peak_gbps=to_gbps(peak))


def _lat_row(tokens: list[str], line: int) -> PerftestRow:
    if len(tokens) not in (9, 10):
        raise MeasurementFileError(line, f"expected {LAT_EXPECTED}; got {len(tokens)} columns")
    size = int(number(tokens[0], line, "#bytes", integer=True))
    iters = int(number(tokens[1], line, "#iterations", integer=True))
    names = ("t_min", "t_max", "t_typical", "t_avg", "t_stdev", "99% percentile",
             "99.9% percentile")
    values = [float(number(t, line, what)) for t, what in zip(tokens[2:9], names)]
    return PerftestRow(line, size, iters, t_min_us=values[0], t_max_us=values[1],
                       t_typical_us=values[2], t_avg_us=values[3], t_stdev_us=values[4],
                       p99_us=values[5], p999_us=values[6])


def _lat_duration_row(tokens: list[str], line: int) -> PerftestRow:
    if len(tokens) != 4:
        raise MeasurementFileError(line, f"expected {LAT_DURATION_EXPECTED}; got {len(tokens)} "
                                         "columns")
    size = int(number(tokens[0], line, "#bytes", integer=True))
    iters = int(number(tokens[1], line, "#iterations", integer=True))
    return PerftestRow(line, size, iters, t_avg_us=float(number(tokens[2], line, "t_avg")))


def parse(text: str, tool: str | None = None) -> PerftestResult:
    """Read one perftest output; MeasurementFileError names the first line that is wrong."""
    lines = lines_of(text)
    title = None
    settings: dict[str, str | int] = {}
    table: tuple[str, str, object] | None = None   # (kind, unit, row reader)
    table_at = 0
    rows: list[PerftestRow] = []
    closed = False
    for at, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        if table is not None:
            if _DASHES.match(stripped):
                closed = True
                break
            kind, unit, reader = table
            rows.append(reader(stripped.split(), at))  # type: ignore[operator]
            if len(rows) > MAX_ROWS:
                raise MeasurementFileError(at, f"more than {MAX_ROWS} rows")
            continue
        if (found := _TITLE.match(stripped)) is not None:
            title = found.group(1)
        elif title is None and _OTHER_TABLE.match(stripped):
            raise MeasurementFileError(at, "expected the test's title ('RDMA_Write BW Test', "
                                           "'Send Latency Test', ...) before the results table")
        elif (found := _BW_HEADER.match(stripped)) is not None:
            unit, to_gbps = BW_UNITS[found.group(2)]
            table, table_at = ("bw", unit, lambda t, n, f=to_gbps: _bw_row(t, n, f)), at
        elif _LAT_HEADER.match(stripped):
            table, table_at = ("lat", "usec", _lat_row), at
        elif _LAT_DURATION_HEADER.match(stripped):
            table, table_at = ("lat", "usec", _lat_duration_row), at
        elif _OTHER_TABLE.match(stripped):
            raise MeasurementFileError(
                at, "expected the bandwidth table header ('#bytes #iterations BW peak[MB/sec] "
                    "BW average[MB/sec] MsgRate[Mpps]') or the latency one; per-port and QoS "
                    "tables are not read")
        elif title is not None:
            settings.update(_settings(raw))
    if title is None:
        raise MeasurementFileError(0, "no test title ('RDMA_Write BW Test', 'Send Latency Test', "
                                      "...): not perftest output")
    if table is None:
        raise MeasurementFileError(len(lines), "expected the results table ('#bytes #iterations "
                                               "...') after the test's settings")
    if not rows:
        raise MeasurementFileError(table_at + 1, "expected a row of results after the table header")
    if not closed:
        raise MeasurementFileError(len(lines), "expected the line of dashes that closes the "
                                               "results: the file is truncated")
    name = TITLES[title]
    if tool is not None and tool != name:
        if tool not in TOOLS:
            raise ToolError(0, f"tool must be one of {', '.join(TOOLS)}, got '{tool}'")
        raise ToolError(0, f"the file is {name} output ('{title}'), not {tool}")
    kind, unit, _reader = table
    if (kind == "bw") != name.endswith("_bw"):
        which = "bandwidth" if name.endswith("_bw") else "latency"
        raise MeasurementFileError(table_at, f"a {title} prints the {which} table")
    result = PerftestResult(name, kind, unit, settings, rows)
    result.notes = _notes(result)
    return result


def _notes(result: PerftestResult) -> list[str]:
    notes = []
    if result.kind == "lat":
        half = LATENCY_ROUND_TRIPS[result.tool] == 0.5
        notes.append(f"{result.tool} prints " + ("half the round trip of a ping-pong (one message "
                     "outstanding)" if half else "the whole round trip of each read"))
    if result.settings.get("link_type") not in (None, "Ethernet"):
        notes.append(f"link type {result.settings['link_type']}: the model is RoCEv2 over Ethernet")
    return notes
