"""Each unit conversion against a conversion worked by hand (docs/real-fabric.md, "Units")."""

import pytest

from app.measurements import units


def test_nccl_tests_gb_per_second_is_ten_to_the_nine_bytes():
    # 45.61 GB/s = 45.61e9 B/s = 364.88e9 bit/s = 364.88 Gbit/s
    assert units.nccl_gbs_to_gbps(45.61) == pytest.approx(364.88)
    assert units.gbps_to_nccl_gbs(364.88) == pytest.approx(45.61)


def test_perftest_mb_per_second_is_two_to_the_twenty_bytes():
    # 11504.24 MB/s = 11504.24 x 1,048,576 B/s = 12,063,069,962.24 B/s = 96.50456 Gbit/s
    # (read as 10^6 bytes it would be 92.03 Gbit/s: 4.9 % less)
    assert units.perftest_mbs_to_gbps(11504.24) == pytest.approx(96.50455969792, rel=1e-12)
    assert units.gbps_to_perftest_mbs(96.50455969792) == pytest.approx(11504.24, rel=1e-12)


def test_perftest_report_gbits_is_already_gigabits():
    # --report_gbits: 98.51 Gb/sec = 98.51 x 125,000,000 B/s = 98.51 Gbit/s
    assert units.perftest_gbits_to_gbps(98.51) == pytest.approx(98.51)
