"""perftest output: bandwidth (MB/s and --report_gbits) and latency samples
(backend/tests/data/fabric/perftest, written from src/perftest_parameters.h's formats), and
malformed files."""

from pathlib import Path

import pytest

from app.core.textfile import TextFileError
from app.measurements import perftest

DATA = Path(__file__).resolve().parents[1] / "data" / "fabric"


def sample(name: str) -> str:
    return (DATA / "perftest" / name).read_text()


@pytest.mark.parametrize(("name", "tool", "kind", "unit", "rows"), [
    ("ib_write_bw.txt", "ib_write_bw", "bw", "Gb/sec", 1),
    ("ib_write_bw_all_sizes.txt", "ib_write_bw", "bw", "MB/sec", 23),
    ("ib_read_bw.txt", "ib_read_bw", "bw", "MB/sec", 1),
    ("ib_send_bw.txt", "ib_send_bw", "bw", "Gb/sec", 3),
    ("ib_write_lat.txt", "ib_write_lat", "lat", "usec", 3),
    ("ib_send_lat.txt", "ib_send_lat", "lat", "usec", 1),
    ("ib_read_lat.txt", "ib_read_lat", "lat", "usec", 2),
])
def test_every_tool(name, tool, kind, unit, rows):
    result = perftest.parse(sample(name))
    assert (result.tool, result.kind, result.unit, len(result.rows)) == (tool, kind, unit, rows)
    assert result.settings["link_type"] == "Ethernet" and result.settings["mtu_bytes"] == 4096


def test_bandwidth_in_both_units():
    gbits = perftest.parse(sample("ib_write_bw.txt"))
    row = gbits.rows[0]
    assert (row.size_bytes, row.iterations, row.bw_peak, row.bw_average, row.msg_rate_mpps) == \
        (65536, 5000, 98.80, 98.51, 0.187891)
    assert row.bw_average_gbps == pytest.approx(98.51)
    assert gbits.settings["tx_depth"] == 128 and gbits.qps == 1
    mbs = perftest.parse(sample("ib_read_bw.txt")).rows[0]
    assert mbs.bw_average_gbps == pytest.approx(mbs.bw_average * 1048576 * 8 / 1e9)


def test_latency_percentiles():
    result = perftest.parse(sample("ib_write_lat.txt"))
    row = result.rows[0]
    assert (row.size_bytes, row.iterations, row.t_min_us, row.t_max_us, row.t_typical_us,
            row.t_avg_us, row.t_stdev_us, row.p99_us, row.p999_us) == \
        (2, 1000, 1.55, 6.56, 1.60, 1.62, 0.10, 1.95, 6.24)
    assert result.settings["tx_depth"] == 1
    assert result.notes == ["ib_write_lat prints half the round trip of a ping-pong (one message "
                            "outstanding)"]
    assert perftest.parse(sample("ib_read_lat.txt")).notes == [
        "ib_read_lat prints the whole round trip of each read"]


@pytest.mark.parametrize(("file", "line", "message"), [
    ("perftest_truncated.txt", 24, "expected the line of dashes that closes the results: the file "
                                   "is truncated"),
    ("perftest_bad_number.txt", 24, "#iterations must be an integer, got '5OOO'"),
])
def test_malformed_files_name_the_line(file, line, message):
    with pytest.raises(TextFileError) as caught:
        perftest.parse((DATA / "malformed" / file).read_text())
    assert (caught.value.line, caught.value.message) == (line, message)


def test_other_mistakes():
    bw = sample("ib_write_bw.txt")
    with pytest.raises(TextFileError, match="^line 1: expected the test's title"):
        perftest.parse("#bytes 1 2\n")
    with pytest.raises(TextFileError, match="^no test title"):
        perftest.parse("hello\n")
    with pytest.raises(TextFileError) as caught:
        perftest.parse(bw.replace("98.51  \t\t   0.187891", "98.51"))
    assert (caught.value.line, caught.value.message) == (
        24, "expected 5 columns: #bytes #iterations BW peak BW average MsgRate; got 4 columns")
    with pytest.raises(TextFileError, match="the file is ib_write_bw output .* not ib_read_bw"):
        perftest.parse(bw, "ib_read_bw")
