"""A measurement file -> (tool, the stored form) and the stored form -> rows in Gbit/s and us."""

from typing import Any

from app.measurements import nccl_tests, perftest
from app.measurements.schemas import MeasuredPoint
from app.measurements.units import nccl_gbs_to_gbps


def read(kind: str, text: str, tool: str | None) -> tuple[str, dict[str, Any]]:
    """Parse `text`; TextFileError names the line that is wrong."""
    if kind == "nccl_tests":
        result = nccl_tests.parse(text, tool)
    else:
        result = perftest.parse(text, tool)
    return result.tool, result.as_json()


def _gbps(value: float | None) -> float | None:
    return None if value is None else nccl_gbs_to_gbps(value)


def rows(kind: str, parsed: dict[str, Any]) -> list[MeasuredPoint]:
    """The stored rows in the simulator's units."""
    out = []
    for row in parsed["rows"]:
        if kind == "nccl_tests":
            oop, ip = row["out_of_place"], row["in_place"]
            out.append(MeasuredPoint(
                line=row["line"], size_bytes=row["size_bytes"],
                iterations=parsed.get("header", {}).get("iters"),
                busbw_gbps=_gbps(oop["busbw_gbs"]), busbw_in_place_gbps=_gbps(ip["busbw_gbs"]),
                algbw_gbps=_gbps(oop["algbw_gbs"]), time_us=oop["time_us"],
                wrong=max((t["wrong"] or 0) for t in (oop, ip))))
        else:
            out.append(MeasuredPoint(
                line=row["line"], size_bytes=row["size_bytes"], iterations=row["iterations"],
                bw_average_gbps=row["bw_average_gbps"], bw_peak_gbps=row["bw_peak_gbps"],
                t_typical_us=row["t_typical_us"], t_avg_us=row["t_avg_us"],
                t_min_us=row["t_min_us"], t_max_us=row["t_max_us"], p99_us=row["p99_us"],
                p999_us=row["p999_us"]))
    return out


def header(kind: str, parsed: dict[str, Any]) -> dict[str, Any]:
    if kind == "nccl_tests":
        keys = ("n_threads", "n_gpus", "min_bytes", "max_bytes", "ranks", "hosts",
                "avg_busbw_gbs", "out_of_bounds", "time_column", "tool_source")
        return {**{k: parsed[k] for k in keys}, **parsed.get("header", {}),
                "avg_busbw_gbps": nccl_gbs_to_gbps(parsed["avg_busbw_gbs"])}
    return {"kind": parsed["kind"], "unit": parsed["unit"], **parsed["settings"]}
