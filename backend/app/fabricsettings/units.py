"""Unit conversions between the switches' and NICs' configuration and the scenario, each written
once (docs/real-fabric.md cites the source of each; backend/tests/fabricsettings/test_units.py
checks them against conversions worked by hand).

Each `to_*` of a value the device stores in coarser units returns (value, exact): exact is False
when the scenario's value had to be rounded to the nearest one the device can hold.
"""

import math

from app.scenarios import limits

DCQCN_FIXED_POINT = 1024  # dce_tcp_g: "fixed point with 10 bits in the fraction part"
PERCENT = 100
US_PER_MS = 1000
MBIT_PER_GBIT = 1000
METRES_PER_KM = 1000


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


# SONiC BUFFER_PROFILE.dynamic_th (SAI_BUFFER_PROFILE_ATTR_SHARED_DYNAMIC_TH: "the threshold is
# set to the 2^n of available buffer of the pool") <-> switch.pfc.alpha
def dynamic_th_to_alpha(dynamic_th: int) -> float:
    return 2.0 ** dynamic_th


def alpha_to_dynamic_th(alpha: float) -> tuple[int, bool]:
    exponent = round(math.log2(alpha))
    return exponent, _close(2.0 ** exponent, alpha)


# WRED_PROFILE green_drop_probability (percent, 0..100) <-> switch.ecn.pmax (0..1); NVUE's
# congestion-control probability is the same percentage.
def percent_to_fraction(percent: float) -> float:
    return percent / PERCENT


def fraction_to_percent(fraction: float) -> tuple[int, bool]:
    percent = round(fraction * PERCENT)
    return percent, _close(percent / PERCENT, fraction)


# SONiC PORT.speed (Mbit/s) <-> a link's rate_gbps
def mbps_to_gbps(mbps: float) -> float:
    return mbps / MBIT_PER_GBIT


def gbps_to_mbps(gbps: float) -> tuple[int, bool]:
    mbps = round(gbps * MBIT_PER_GBIT)
    return mbps, _close(mbps / MBIT_PER_GBIT, gbps)


# SONiC PFC_WD detection_time / restoration_time (ms) <-> watchdogs.switch.*_us
def ms_to_us(ms: float) -> float:
    return ms * US_PER_MS


def us_to_ms(us: float) -> float:
    return us / US_PER_MS


# SONiC CABLE_LENGTH ("5m") <-> a link's delay: fibre at limits.FIBRE_US_PER_KM
def cable_metres_to_km(metres: float) -> float:
    return metres / METRES_PER_KM


def delay_us_to_cable_metres(delay_us: float) -> float:
    return delay_us / limits.FIBRE_US_PER_KM * METRES_PER_KM


# ConnectX dce_tcp_g: alpha <- (dce_tcp_g/1024) alpha + (1024 - dce_tcp_g)/1024 on a CNP, so the
# paper's gain g (alpha <- (1 - g) alpha + g) is (1024 - dce_tcp_g) / 1024.
def dce_tcp_g_to_g(dce_tcp_g: int) -> float:
    return (DCQCN_FIXED_POINT - dce_tcp_g) / DCQCN_FIXED_POINT


def g_to_dce_tcp_g(g: float) -> tuple[int, bool]:
    value = round(DCQCN_FIXED_POINT * (1 - g))
    return value, _close(dce_tcp_g_to_g(value), g)


# ConnectX rpg_min_dec_fac (%): a cut leaves at least this share of the rate, so the largest
# fraction one cut takes off (nic.cc.max_decrease) is 1 - rpg_min_dec_fac / 100.
def min_dec_fac_to_max_decrease(percent: float) -> float:
    return 1 - percent / PERCENT


def max_decrease_to_min_dec_fac(max_decrease: float) -> tuple[int, bool]:
    percent = round((1 - max_decrease) * PERCENT)
    return percent, _close(min_dec_fac_to_max_decrease(percent), max_decrease)


def whole(value: float) -> tuple[int, bool]:
    """A value a device keeps as a whole number (us, Mbit/s, bytes)."""
    rounded = round(value)
    return rounded, _close(rounded, value)
