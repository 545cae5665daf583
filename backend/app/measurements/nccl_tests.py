"""Reader of NCCL-tests' text output (github.com/NVIDIA/nccl-tests, src/common.cu): the header
line `# nThread .. nGpus .. minBytes .. maxBytes ..`, the `#  Rank` lines, the table of size,
count, type, redop, root, then time, algbw, busbw and #wrong out of place and in place, and the
`# Avg bus bandwidth` line that closes a complete run. docs/real-fabric.md, "NCCL-tests".

Bandwidths are kept as printed (GB/s = 10^9 B/s) and converted to Gbit/s once (units.py)."""

import re
from dataclasses import asdict, dataclass, field

from app.measurements.errors import MAX_ROWS, MeasurementFileError, ToolError, lines_of, number
from app.measurements.units import nccl_gbs_to_gbps

# The six tools and the collective each measures (the scenario's `collective.op`, None for
# sendrecv, which the model has no collective for), with NCCL-tests' bus factor for n ranks
# (doc/PERFORMANCE.md, "Summary"; sendrecv: 1, src/sendrecv.cu).
TOOLS = {
    "all_reduce_perf": "all_reduce",
    "all_gather_perf": "all_gather",
    "reduce_scatter_perf": "reduce_scatter",
    "alltoall_perf": "all_to_all",
    "broadcast_perf": "broadcast",
    "sendrecv_perf": None,
}


def bus_factor(tool: str, ranks: int) -> float:
    """busbw / algbw of `tool` over `ranks` ranks (doc/PERFORMANCE.md)."""
    if tool == "all_reduce_perf":
        return 2 * (ranks - 1) / ranks
    if tool in ("all_gather_perf", "reduce_scatter_perf", "alltoall_perf"):
        return (ranks - 1) / ranks
    return 1.0


# Bytes per element of each type NCCL-tests names (src/common.cu test_typenames; fp8 in 2.19+).
TYPE_BYTES = {"int8": 1, "uint8": 1, "char": 1, "int32": 4, "uint32": 4, "int": 4, "int64": 8,
              "uint64": 8, "half": 2, "float16": 2, "bfloat16": 2, "float": 4, "float32": 4,
              "double": 8, "float64": 8, "f8e4m3": 1, "f8e5m2": 1}
REDOPS = ("sum", "prod", "max", "min", "avg", "mulsum", "none")
NOT_AVAILABLE = "N/A"
ROW_COLUMNS = 13
ROW_EXPECTED = ("13 columns: size count type redop root, then time algbw busbw #wrong out of "
                "place and in place")

_HEADER = re.compile(r"^#\s*nThread\s+(\d+)\s+nGpus\s+(\d+)\s+minBytes\s+(\d+)\s+maxBytes\s+(\d+)"
                     r"(?P<rest>.*)$")
_HEADER_EXTRA = {
    "step": re.compile(r"step:\s*(\d+)\s*\((factor|bytes)\)"),
    "warmup_iters": re.compile(r"warmup iters:\s*(\d+)"),
    "iters": re.compile(r"(?<!warmup )(?<!agg )iters:\s*(\d+)"),
    "agg_iters": re.compile(r"agg iters:\s*(\d+)"),
    "validation": re.compile(r"validation:\s*(\d+)"),
    "graph": re.compile(r"graph:\s*(\d+)"),
}
_RANK = re.compile(r"^#\s*Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+"
                   r"device\s+(\d+)")
_COLUMNS = re.compile(r"^#\s*size\s+count\s+type\s+redop\s+root\s+(time|cputime)\s+algbw\s+busbw\s+"
                      r"#wrong")
_AVG = re.compile(r"^#\s*Avg bus bandwidth\s*:\s*(\S+)")
_OUT_OF_BOUNDS = re.compile(r"^#\s*Out of bounds values\s*:\s*(\d+)")
_TOOL_NAME = re.compile(r"\b(" + "|".join(TOOLS) + r")\b")
# NCCL's own log lines (NCCL_DEBUG=INFO/WARN) and launcher noise may precede the table.
_NCCL_LOG = re.compile(r"^\S+:\d+:\d+ \[\d+\] NCCL (INFO|WARN|TRACE)")


@dataclass
class Timing:
    """One half of a row (out of place or in place); None where the tool printed N/A."""

    time_us: float | None
    algbw_gbs: float | None
    busbw_gbs: float | None
    wrong: int | None  # None: N/A (no data check) or -1 (older versions)

    @property
    def busbw_gbps(self) -> float | None:
        return None if self.busbw_gbs is None else nccl_gbs_to_gbps(self.busbw_gbs)


@dataclass
class Row:
    line: int
    size_bytes: int
    count: int
    type: str
    redop: str
    root: int
    out_of_place: Timing
    in_place: Timing


@dataclass
class NcclTestsResult:
    """Everything read from one run of an NCCL-tests tool."""

    tool: str
    n_threads: int
    n_gpus: int
    min_bytes: int
    max_bytes: int
    ranks: int | None
    hosts: list[str]
    rows: list[Row]
    avg_busbw_gbs: float
    out_of_bounds: int | None
    time_column: str
    tool_source: str  # "request", "file" (named in the text) or "table" (inferred)
    header: dict[str, int | str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        return asdict(self)


def _timing(tokens: list[str], line: int, half: str) -> Timing:
    """time algbw busbw #wrong of one half; N/A is kept as None."""
    def value(token: str, what: str) -> float | None:
        return None if token == NOT_AVAILABLE else float(number(token, line, f"{half} {what}"))
    wrong_token = tokens[3]
    wrong = None
    if wrong_token != NOT_AVAILABLE:
        wrong = int(number(wrong_token, line, f"{half} #wrong", integer=True))
        wrong = None if wrong < 0 else wrong
    return Timing(value(tokens[0], "time"), value(tokens[1], "algbw"), value(tokens[2], "busbw"),
                  wrong)


def _row(text: str, line: int) -> Row:
    tokens = text.split()
    if len(tokens) != ROW_COLUMNS:
        raise MeasurementFileError(line, f"expected {ROW_EXPECTED}; got {len(tokens)} columns")
    size = int(number(tokens[0], line, "size", integer=True))
    count = int(number(tokens[1], line, "count", integer=True))
    if size < 0 or count < 0:
        raise MeasurementFileError(line, "size and count must be >= 0")
    if tokens[2] not in TYPE_BYTES:
        raise MeasurementFileError(line, f"type must be one of {', '.join(TYPE_BYTES)}, got "
                                         f"'{tokens[2]}'")
    if tokens[3] not in REDOPS:
        raise MeasurementFileError(line, f"redop must be one of {', '.join(REDOPS)}, got "
                                         f"'{tokens[3]}'")
    root = int(number(tokens[4], line, "root", integer=True))
    return Row(line, size, count, tokens[2], tokens[3], root,
               _timing(tokens[5:9], line, "out-of-place"), _timing(tokens[9:13], line, "in-place"))


def _header(match: re.Match) -> dict[str, int | str]:
    out: dict[str, int | str] = {}
    rest = match.group("rest")
    for key, pattern in _HEADER_EXTRA.items():
        found = pattern.search(rest)
        if found:
            out[key] = int(found.group(1))
            if key == "step":
                out["step_kind"] = found.group(2)
    return out


def _infer_tool(rows: list[Row], ranks: int | None) -> str | None:
    """The tool, from what the table shows: redop, root and size / (count x element size), which
    is 1 for all_reduce, broadcast and sendrecv and the rank count for the others (src/*.cu
    getCollByteCount). None when two tools print the same table (all_gather and alltoall)."""
    row = next((r for r in rows if r.count > 0), rows[0])
    per_element = row.size_bytes / max(1, row.count * TYPE_BYTES[row.type])
    reduces = row.redop != "none"
    if per_element <= 1.0001:
        if reduces:
            return "all_reduce_perf" if row.root < 0 else None  # root >= 0: reduce_perf
        return "broadcast_perf" if row.root >= 0 else "sendrecv_perf"
    if reduces:
        return "reduce_scatter_perf"
    return None


def _tool(text: str, asked: str | None, rows: list[Row], ranks: int | None) -> tuple[str, str]:
    """(tool, where it came from); an error when the request and the file disagree or nothing
    says which tool printed the table."""
    named = sorted(set(_TOOL_NAME.findall(text)))
    if asked is not None:
        if asked not in TOOLS:
            raise ToolError(0, f"tool must be one of {', '.join(TOOLS)}, got '{asked}'")
        if named and asked not in named:
            raise ToolError(0, f"the file names {', '.join(named)}, not {asked}")
        return asked, "request"
    if len(named) == 1:
        return named[0], "file"
    inferred = _infer_tool(rows, ranks)
    if inferred is None:
        raise ToolError(0, "the table does not say which tool printed it (all_gather_perf "
                                      "and alltoall_perf print the same columns): give the tool, "
                                      f"one of {', '.join(TOOLS)}")
    return inferred, "table"


def parse(text: str, tool: str | None = None) -> NcclTestsResult:
    """Read one NCCL-tests output; MeasurementFileError names the first line that is wrong."""
    lines = lines_of(text)
    header = columns_at = None
    extra: dict[str, int | str] = {}
    ranks: dict[int, str] = {}
    rows: list[Row] = []
    avg = out_of_bounds = None
    time_column = "time"
    for number_, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not stripped or _NCCL_LOG.match(stripped):
            continue
        if (found := _HEADER.match(stripped)) is not None:
            header = tuple(int(found.group(i)) for i in range(1, 5))
            extra = _header(found)
        elif (found := _RANK.match(stripped)) is not None:
            ranks[int(found.group(1))] = found.group(2)
        elif (found := _COLUMNS.match(stripped)) is not None:
            if header is None:
                raise MeasurementFileError(
                    number_, "expected the '# nThread .. nGpus .. minBytes .. maxBytes ..' line "
                             "before the table")
            columns_at, time_column = number_, found.group(1)
        elif (found := _AVG.match(stripped)) is not None:
            avg = float(number(found.group(1), number_, "Avg bus bandwidth"))
            break
        elif (found := _OUT_OF_BOUNDS.match(stripped)) is not None:
            out_of_bounds = int(found.group(1))
        elif stripped.startswith("#"):
            continue
        elif columns_at is not None:
            rows.append(_row(stripped, number_))
            if len(rows) > MAX_ROWS:
                raise MeasurementFileError(number_, f"more than {MAX_ROWS} rows")
        # other lines before the table: the launcher's or the job's output, not NCCL-tests'
    if header is None:
        raise MeasurementFileError(0, "no '# nThread .. nGpus .. minBytes .. maxBytes ..' line: "
                                      "not NCCL-tests output")
    if columns_at is None:
        raise MeasurementFileError(len(lines), "expected the table's column line '#  size  count  "
                                               "type  redop  root  time  algbw  busbw  #wrong ...'")
    if not rows:
        raise MeasurementFileError(columns_at + 1, f"expected a row of {ROW_EXPECTED}")
    if avg is None:
        raise MeasurementFileError(len(lines), "expected '# Avg bus bandwidth : ...' after the "
                                               "last row: the file is truncated")
    _check_sizes(rows)
    n_threads, n_gpus, min_bytes, max_bytes = header
    rank_count = len(ranks) or None
    name, source = _tool(text, tool, rows, rank_count)
    result = NcclTestsResult(name, n_threads, n_gpus, min_bytes, max_bytes, rank_count,
                             sorted(set(ranks.values())), rows, avg, out_of_bounds, time_column,
                             source, extra)
    result.notes = _notes(result)
    return result


def _check_sizes(rows: list[Row]) -> None:
    seen: dict[int, int] = {}
    for row in rows:
        if row.size_bytes in seen:
            raise MeasurementFileError(row.line, f"size {row.size_bytes} was already measured on "
                                                 f"line {seen[row.size_bytes]}")
        seen[row.size_bytes] = row.line


def _notes(result: NcclTestsResult) -> list[str]:
    """What a reader of the numbers should know (data errors, busbw that does not match)."""
    notes = []
    wrong = [r.size_bytes for r in result.rows
             if any((t.wrong or 0) > 0 for t in (r.out_of_place, r.in_place))]
    if wrong:
        notes.append(f"#wrong > 0 at {len(wrong)} size(s) (first {wrong[0]} B): the collective "
                     "returned wrong data there")
    if result.ranks and result.ranks > 1:
        factor = bus_factor(result.tool, result.ranks)
        off = [r.size_bytes for r in result.rows
               if r.out_of_place.algbw_gbs and r.out_of_place.busbw_gbs is not None
               and r.out_of_place.algbw_gbs >= 1
               and abs(r.out_of_place.busbw_gbs / (r.out_of_place.algbw_gbs * factor) - 1) > 0.05]
        if off:
            notes.append(f"busbw is not algbw x {factor:.4g} (the bus factor of {result.ranks} "
                         f"ranks) at {len(off)} size(s): the Rank lines may not list every rank")
    if result.time_column == "cputime":
        notes.append("times are CPU times (-C 1), not GPU completion times")
    return notes
