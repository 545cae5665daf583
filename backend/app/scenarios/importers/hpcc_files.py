"""Readers of the HPCC ns-3 simulator's input files (alibaba-edu/High-Precision-Congestion-Control)
and of a plain CSV of flows. Every error names the file and the 1-based line."""

import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from app.scenarios import limits

MAX_TEXT_BYTES = 8_000_000  # one file's text; the API body limit is smaller anyway
MAX_LINES = 400_000


class ImportFileError(ValueError):
    """A problem in one input file at one line (0: the file as a whole)."""

    def __init__(self, file: str, line: int, message: str):
        super().__init__(f"{file}: line {line}: {message}" if line else f"{file}: {message}")
        self.file, self.line, self.message = file, line, message


@dataclass(frozen=True)
class Link:
    """One link of the topology file."""

    a: int
    b: int
    rate_gbps: float
    delay_us: float


@dataclass(frozen=True)
class HpccTopology:
    """The topology file: node count, switch ids, links."""

    nodes: int
    switches: frozenset[int]
    links: tuple[Link, ...]


@dataclass(frozen=True)
class FlowLine:
    """One flow: node ids (HPCC numbers or scenario ids), size, start, priority (None: default)."""

    src: str
    dst: str
    size_bytes: int
    start: Decimal  # seconds in a flow file, microseconds in a CSV
    priority: int | None
    line: int


_RATE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(bps|Kbps|Mbps|Gbps|Tbps|b/s|Kb/s|Mb/s|Gb/s)$")
_RATE_SCALE = {"bps": 1e-9, "b/s": 1e-9, "Kbps": 1e-6, "Kb/s": 1e-6, "Mbps": 1e-3, "Mb/s": 1e-3,
               "Gbps": 1.0, "Gb/s": 1.0, "Tbps": 1e3}
_TIME = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(ns|us|ms|s)$")
_TIME_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def parse_rate_gbps(text: str) -> float | None:
    """'100Gbps' -> 100.0; None when not an ns-3 DataRate string this reader knows."""
    m = _RATE.match(text)
    return float(m.group(1)) * _RATE_SCALE[m.group(2)] if m else None


def parse_time_us(text: str) -> float | None:
    """'1000ns' -> 1.0; None when not an ns-3 Time string this reader knows."""
    m = _TIME.match(text)
    return float(m.group(1)) * _TIME_US[m.group(2)] if m else None


def _lines(file: str, text: str) -> list[tuple[int, list[str]]]:
    """(line number, fields) of the non-empty lines; bounded size."""
    if len(text) > MAX_TEXT_BYTES:
        raise ImportFileError(file, 0, f"is {len(text)} characters, more than {MAX_TEXT_BYTES}")
    raw = text.splitlines()
    if len(raw) > MAX_LINES:
        raise ImportFileError(file, 0, f"has {len(raw)} lines, more than {MAX_LINES}")
    return [(i + 1, line.split()) for i, line in enumerate(raw) if line.strip()]


def _int(file: str, line: int, what: str, text: str, lo: int, hi: int) -> int:
    """A decimal integer in [lo, hi]."""
    if not re.fullmatch(r"[0-9]+", text):
        raise ImportFileError(file, line, f"{what} must be an integer, got '{text[:40]}'")
    value = int(text)
    if not lo <= value <= hi:
        raise ImportFileError(file, line, f"{what} must be >= {lo} and <= {hi}, got {value}")
    return value


def read_topology(text: str, file: str = "topology") -> HpccTopology:
    """`nodes switches links`, then the switch ids, then one `a b rate delay error_rate` a line."""
    lines = _lines(file, text)
    if len(lines) < 2:
        raise ImportFileError(file, 0, "needs a header line, a line of switch ids and the links")
    (n1, head), (n2, ids) = lines[0], lines[1]
    if len(head) != 3:
        raise ImportFileError(file, n1, f"expected 3 fields 'nodes switches links', got {len(head)}")
    nodes = _int(file, n1, "nodes", head[0], 2, limits.PACKET_MAX_NODES)
    n_switches = _int(file, n1, "switches", head[1], 1, nodes - 1)
    n_links = _int(file, n1, "links", head[2], 1, limits.PACKET_MAX_LINKS)
    if len(ids) != n_switches:
        raise ImportFileError(file, n2, f"expected {n_switches} switch ids, got {len(ids)}")
    switches = frozenset(_int(file, n2, "switch id", t, 0, nodes - 1) for t in ids)
    if len(switches) != n_switches:
        raise ImportFileError(file, n2, "switch ids must be distinct")
    body = lines[2:]
    if len(body) != n_links:
        raise ImportFileError(file, body[-1][0] if body else n2,
                              f"the header announces {n_links} links, the file has {len(body)}")
    links = []
    for number, fields in body:
        if len(fields) != 5:
            raise ImportFileError(file, number, f"expected 5 fields 'a b rate delay error_rate', "
                                  f"got {len(fields)}")
        a = _int(file, number, "a", fields[0], 0, nodes - 1)
        b = _int(file, number, "b", fields[1], 0, nodes - 1)
        if a == b:
            raise ImportFileError(file, number, "a link needs two different nodes")
        rate = parse_rate_gbps(fields[2])
        if rate is None or not 0 < rate <= 1600:
            raise ImportFileError(file, number, f"rate must be like '100Gbps' (> 0 and <= 1600 "
                                  f"Gbit/s), got '{fields[2][:40]}'")
        delay = parse_time_us(fields[3])
        if delay is None or delay > 100_000:
            raise ImportFileError(file, number, f"delay must be like '1000ns' (<= 100 ms), got "
                                  f"'{fields[3][:40]}'")
        try:
            error_rate = float(fields[4])
        except ValueError:
            error_rate = -1.0
        if error_rate != 0:
            raise ImportFileError(file, number, f"error_rate must be 0 (random link loss is not "
                                  f"modelled), got '{fields[4][:40]}'")
        links.append(Link(a, b, rate, delay))
    return HpccTopology(nodes, switches, tuple(links))


def read_flows(text: str, file: str = "flows") -> list[FlowLine]:
    """The flow count, then one `src dst priority dport size_bytes start_s` a line."""
    lines = _lines(file, text)
    if not lines:
        raise ImportFileError(file, 0, "is empty")
    number, head = lines[0]
    if len(head) != 1:
        raise ImportFileError(file, number, "the first line must hold the flow count alone")
    count = _int(file, number, "flow count", head[0], 1, MAX_LINES)
    if len(lines) - 1 != count:
        raise ImportFileError(file, lines[-1][0], f"the first line announces {count} flows, the "
                              f"file has {len(lines) - 1}")
    flows = []
    for number, fields in lines[1:]:
        if len(fields) != 6:
            raise ImportFileError(file, number, "expected 6 fields 'src dst priority dport "
                                  f"size_bytes start_s', got {len(fields)}")
        src = _int(file, number, "src", fields[0], 0, limits.PACKET_MAX_NODES - 1)
        dst = _int(file, number, "dst", fields[1], 0, limits.PACKET_MAX_NODES - 1)
        priority = _int(file, number, "priority", fields[2], 0, 7)
        _int(file, number, "dport", fields[3], 0, 65535)
        size = _int(file, number, "size_bytes", fields[4], 1, 10**15)
        start = _decimal(file, number, "start_s", fields[5])
        flows.append(FlowLine(str(src), str(dst), size, start, priority, number))
    return flows


def _decimal(file: str, line: int, what: str, text: str) -> Decimal:
    """A non-negative decimal number, exactly as written."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        value = Decimal(-1)
    if not value.is_finite() or value < 0 or value > Decimal(10**9):
        raise ImportFileError(file, line, f"{what} must be a number >= 0, got '{text[:40]}'")
    return value


def read_csv_flows(text: str, file: str = "csv") -> list[FlowLine]:
    """`src,dst,size_bytes,start_us[,priority]` a line; an optional header line naming them."""
    if len(text) > MAX_TEXT_BYTES:
        raise ImportFileError(file, 0, f"is {len(text)} characters, more than {MAX_TEXT_BYTES}")
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) > MAX_LINES:
        raise ImportFileError(file, 0, f"has {len(rows)} lines, more than {MAX_LINES}")
    flows = []
    for index, row in enumerate(rows):
        number = index + 1
        fields = [f.strip() for f in row]
        if not any(fields):
            continue
        if not flows and fields[:4] == ["src", "dst", "size_bytes", "start_us"]:
            continue  # header
        if len(fields) not in (4, 5):
            raise ImportFileError(file, number, "expected 4 or 5 fields "
                                  f"'src,dst,size_bytes,start_us[,priority]', got {len(fields)}")
        for end in (0, 1):
            if not re.fullmatch(limits.NODE_ID_PATTERN, fields[end]):
                raise ImportFileError(file, number, f"{('src', 'dst')[end]} must be a node id "
                                      f"(letters, digits, _.:-), got '{fields[end][:40]}'")
        size = _int(file, number, "size_bytes", fields[2], 0, 10**15)
        start = _decimal(file, number, "start_us", fields[3])
        priority = _int(file, number, "priority", fields[4], 0, 6) if len(fields) == 5 else None
        flows.append(FlowLine(fields[0], fields[1], size, start, priority, number))
    if not flows:
        raise ImportFileError(file, 0, "holds no flows")
    return flows


def read_config(text: str, file: str = "config") -> dict[str, tuple[int, list[str]]]:
    """`KEY value...` lines of the simulator's configuration -> {KEY: (line, values)}."""
    out: dict[str, tuple[int, list[str]]] = {}
    for number, fields in _lines(file, text):
        key = fields[0]
        if not re.fullmatch(r"[A-Z0-9_]{1,64}", key):
            raise ImportFileError(file, number, f"expected 'KEY value', got '{key[:40]}'")
        if key in out:
            raise ImportFileError(file, number, f"{key} given twice (first on line {out[key][0]})")
        out[key] = (number, fields[1:])
    return out
