"""Each settings conversion against a conversion worked by hand (docs/real-fabric.md, "Units")."""

import pytest

from app.fabricsettings import units


def test_dynamic_th_is_a_power_of_two():
    # SAI: the threshold is 2^n of the free buffer; dynamic_th -4 -> alpha 1/16 = 0.0625
    assert units.dynamic_th_to_alpha(-4) == 0.0625
    assert units.dynamic_th_to_alpha(1) == 2.0
    assert units.alpha_to_dynamic_th(0.0625) == (-4, True)
    assert units.alpha_to_dynamic_th(0.1) == (-3, False)   # 2^-3.32 -> -3 (alpha 0.125)


def test_wred_drop_probability_is_a_percentage():
    # green_drop_probability 5 (%) -> pmax 0.05; pmax 0.2 -> 20 %
    assert units.percent_to_fraction(5) == 0.05
    assert units.fraction_to_percent(0.2) == (20, True)
    assert units.fraction_to_percent(0.005) == (0, False)  # SONiC's percent is a whole number


def test_speeds_times_and_cable_lengths():
    assert units.mbps_to_gbps(400000) == 400                # PORT.speed is Mbit/s
    assert units.gbps_to_mbps(25.78125) == (25781, False)
    assert units.ms_to_us(200) == 200_000                   # PFC_WD times are ms
    assert units.us_to_ms(150) == 0.15
    # 1 us of fibre at 5 us/km is 200 m; CABLE_LENGTH 40m -> 0.04 km
    assert units.delay_us_to_cable_metres(1) == pytest.approx(200)
    assert units.cable_metres_to_km(40) == 0.04


def test_connectx_dcqcn_fixed_point_and_percentages():
    # dce_tcp_g 1019: alpha <- 1019/1024 alpha + 5/1024 -> g = 5/1024 (the nvidia-default's)
    assert units.dce_tcp_g_to_g(1019) == 5 / 1024
    assert units.g_to_dce_tcp_g(1 / 256) == (1020, True)    # the paper's g = 4/1024
    assert units.g_to_dce_tcp_g(0.01) == (1014, False)
    # rpg_min_dec_fac 50 (%): a cut keeps >= 50 % of the rate -> max_decrease 0.5
    assert units.min_dec_fac_to_max_decrease(50) == 0.5
    assert units.max_decrease_to_min_dec_fac(1.0) == (0, True)
    assert units.max_decrease_to_min_dec_fac(0.75) == (25, True)
