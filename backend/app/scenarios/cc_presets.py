"""The DCQCN parameter sets `nic.cc.preset` names, by `nic.cc` field: what an unset field of
`nic.cc` is (docs/scenario-format.md, "nic.cc"), and the NIC's notification-point spacing and
mode when `nic.cnp_interval_us` and `nic.cnp_mode` are unset.

The simulator applies the same sets (simcore/scenario/device-config.cc, DcqcnPreset); the
settings export needs them to write a NIC's effective values. backend/tests/fabricsettings/
test_cc_presets_simulator.py runs each preset against the same scenario with every field written
out from this table and requires byte-identical results, so the two cannot drift apart.
"""

from typing import Any

CC_PRESETS: dict[str, dict[str, Any]] = {
    # DCQCN paper (Zhu et al., SIGCOMM 2015)
    "dcqcn-paper": {
        "g": 1 / 256, "alpha_update_us": 55.0, "rate_decrease_interval_us": 50.0,
        "rate_increase_timer_us": 55.0, "byte_counter_bytes": 10_000_000,
        "fast_recovery_steps": 5, "rai_mbps": 40.0, "rhai_mbps": 200.0, "min_rate_mbps": 100.0,
        "clamp_target_rate": True, "clamp_target_after_timer_increase": False,
        "max_decrease": 1.0, "alpha_timer": "restart_on_cnp",
    },
    # ConnectX defaults (NVIDIA's DCQCN parameter names in device-config.cc's comments)
    "nvidia-default": {
        "g": 5 / 1024, "alpha_update_us": 1.0, "rate_decrease_interval_us": 4.0,
        "rate_increase_timer_us": 300.0, "byte_counter_bytes": 32767, "fast_recovery_steps": 1,
        "rai_mbps": 5.0, "rhai_mbps": 50.0, "min_rate_mbps": 1.0, "clamp_target_rate": False,
        "clamp_target_after_timer_increase": True, "max_decrease": 0.5,
        "alpha_timer": "periodic",
    },
    # The HPCC simulator's DCQCN benchmark (config-dcqcn.txt)
    "hpcc-dcqcn": {
        "g": 1 / 256, "alpha_update_us": 1.0, "rate_decrease_interval_us": 4.0,
        "rate_increase_timer_us": 300.0, "byte_counter_bytes": 0, "fast_recovery_steps": 1,
        "rai_mbps": 20.0, "rhai_mbps": 200.0, "min_rate_mbps": 1000.0,
        "clamp_target_rate": False, "clamp_target_after_timer_increase": True,
        "max_decrease": 1.0, "alpha_timer": "restart_on_cnp",
    },
}

# The notification point each preset stands for (nic.cnp_interval_us, nic.cnp_mode when unset).
# NVIDIA's min_time_between_cnps is 4 us; the paper's and the HPCC benchmark's 50 us.
CNP_PRESETS: dict[str, dict[str, Any]] = {
    "dcqcn-paper": {"cnp_interval_us": 50.0, "cnp_mode": "holdoff"},
    "nvidia-default": {"cnp_interval_us": 4.0, "cnp_mode": "holdoff"},
    "hpcc-dcqcn": {"cnp_interval_us": 50.0, "cnp_mode": "holdoff"},
}
