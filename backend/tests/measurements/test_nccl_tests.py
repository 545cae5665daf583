"""NCCL-tests output: the six tools' samples (backend/tests/data/fabric/nccl-tests, written from
src/common.cu's formats) and malformed files, each refused with one line naming where."""

from pathlib import Path

import pytest

from app.core.textfile import TextFileError
from app.measurements import nccl_tests

DATA = Path(__file__).resolve().parents[1] / "data" / "fabric"


def sample(name: str) -> str:
    return (DATA / "nccl-tests" / name).read_text()


@pytest.mark.parametrize(("name", "tool", "source", "ranks", "rows"), [
    ("all_reduce_perf.txt", "all_reduce_perf", "file", 8, 25),
    ("all_gather_perf.txt", "all_gather_perf", "file", 8, 15),
    ("reduce_scatter_perf.txt", "reduce_scatter_perf", "table", 8, 15),
    ("alltoall_perf.txt", "alltoall_perf", "file", 8, 14),
    ("broadcast_perf.txt", "broadcast_perf", "table", 8, 10),
    ("sendrecv_perf.txt", "sendrecv_perf", "file", 2, 10),
])
def test_every_tool(name, tool, source, ranks, rows):
    result = nccl_tests.parse(sample(name))
    assert (result.tool, result.tool_source, result.ranks, len(result.rows)) == \
        (tool, source, ranks, rows)
    assert result.notes == []  # busbw = algbw x the bus factor of the ranks, no data errors


def test_all_reduce_header_rows_and_units():
    result = nccl_tests.parse(sample("all_reduce_perf.txt"))
    assert (result.n_threads, result.n_gpus, result.min_bytes, result.max_bytes) == \
        (1, 1, 8, 134217728)
    assert result.header["iters"] == 20 and result.header["warmup_iters"] == 5
    assert result.hosts == ["node01", "node02"]
    last = result.rows[-1]
    assert (last.size_bytes, last.count, last.type, last.redop, last.root) == \
        (134217728, 33554432, "float", "sum", -1)
    assert (last.out_of_place.time_us, last.out_of_place.algbw_gbs,
            last.out_of_place.busbw_gbs, last.out_of_place.wrong) == (5128.1, 26.17, 45.8, 0)
    assert last.out_of_place.busbw_gbps == pytest.approx(45.8 * 8)
    assert result.avg_busbw_gbs == 15.3877


def test_not_available_columns_are_none():
    result = nccl_tests.parse(sample("alltoall_perf.txt"))
    row = result.rows[0]
    assert row.in_place.time_us is None and row.in_place.busbw_gbs is None
    assert row.out_of_place.wrong is None  # -c 0: no data check, '#wrong' is N/A


def test_tool_from_the_request_and_a_contradiction():
    text = sample("reduce_scatter_perf.txt")
    assert nccl_tests.parse(text, "reduce_scatter_perf").tool_source == "request"
    with pytest.raises(TextFileError, match="the file names all_reduce_perf, not all_gather_perf"):
        nccl_tests.parse(sample("all_reduce_perf.txt"), "all_gather_perf")


def test_all_gather_without_a_name_needs_the_tool():
    text = "\n".join(line for line in sample("all_gather_perf.txt").splitlines()
                     if not line.startswith("$"))
    with pytest.raises(TextFileError, match="give the tool"):
        nccl_tests.parse(text)
    assert nccl_tests.parse(text, "all_gather_perf").tool == "all_gather_perf"


def test_wrong_data_and_a_busbw_that_does_not_match_are_noted():
    text = sample("all_reduce_perf.txt").replace(
        "  67108864      16777216     float     sum      -1   2575.1   26.06   45.61      0",
        "  67108864      16777216     float     sum      -1   2575.1   26.06   30.00      3")
    notes = nccl_tests.parse(text).notes
    assert notes[0].startswith("#wrong > 0 at 1 size(s) (first 67108864 B)")
    assert "busbw is not algbw x 1.75" in notes[1]


@pytest.mark.parametrize(("file", "line", "message"), [
    ("nccl_truncated.txt", 30, "expected '# Avg bus bandwidth : ...' after the last row: the file "
                               "is truncated"),
    ("nccl_short_row.txt", 22, "expected 13 columns: size count type redop root, then time algbw "
                               "busbw #wrong out of place and in place; got 7 columns"),
])
def test_malformed_files_name_the_line(file, line, message):
    with pytest.raises(TextFileError) as caught:
        nccl_tests.parse((DATA / "malformed" / file).read_text())
    assert (caught.value.line, caught.value.message) == (line, message)


def test_other_mistakes():
    good = sample("all_reduce_perf.txt")
    cases = [
        ("", 0, "the file is empty"),
        ("hello\nworld\n", 0, "no '# nThread .. nGpus .. minBytes .. maxBytes ..' line: not "
                              "NCCL-tests output"),
        (good.replace("     float     sum      -1    22.00",
                      "     float     sum      -1    2x.00", 1),
         17, "out-of-place time must be a number, got '2x.00'"),
        (good.replace("     float     sum", "     quad     sum", 1), 17,
         "type must be one of int8, uint8, char, int32, uint32, int, int64, uint64, half, "
         "float16, bfloat16, float, float32, double, float64, f8e4m3, f8e5m2, got 'quad'"),
    ]
    for text, line, message in cases:
        with pytest.raises(TextFileError) as caught:
            nccl_tests.parse(text)
        assert (caught.value.line, caught.value.message) == (line, message)


def test_a_size_measured_twice_is_refused():
    lines = sample("broadcast_perf.txt").splitlines()
    row = next(i for i, line in enumerate(lines) if line.strip().startswith("4096 "))
    lines.insert(row + 1, lines[row])
    with pytest.raises(TextFileError, match=r"size 4096 was already measured on line"):
        nccl_tests.parse("\n".join(lines))
