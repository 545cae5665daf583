"""The DCQCN parameter sets `nic.cc.preset` names, by `nic.cc` field: what an unset field of
`nic.cc` is (docs/scenario-format.md, "nic.cc"), and the NIC's notification-point spacing and
mode when `nic.cnp_interval_us` and `nic.cnp_mode` are unset.

This is the one declaration: scripts/gen-contracts.sh writes it into the simulator's
simcore/scenario/scenario-contract.h (kCcPresets), from which DcqcnPreset fills a CcConfig; the
settings export reads it to write a NIC's effective values. backend/tests/fabricsettings/
test_cc_presets_simulator.py still runs each preset with every field written out from this table
against the preset named, and requires byte-identical results.

Sources (docs/presets.md, "Congestion-control presets", tabulates them):
- nvidia-default: ConnectX-4-and-later firmware defaults as NVIDIA documents them, "DCQCN CC
  Parameters" (DOCA SDK documentation, networking-docs.nvidia.com/doca/archive/3-4-0/
  dcqcn-cc-parameters): dce_tcp_g 1019 (alpha = (1019/1024) alpha + g: g = 5/1024), dce_tcp_rtt
  1 us, rate_reduce_monitor_period 4 us, rpg_min_dec_fac 50 %, rpg_min_rate 1 Mbit/s,
  rpg_time_reset 300 us, rpg_byte_reset 32767, rpg_threshold 1, rpg_ai_rate 5 Mbit/s,
  rpg_hai_rate 50 Mbit/s, clamp_tgt_rate 0, clamp_tgt_rate_after_time_inc 1; the notification
  point's min_time_between_cnps 4 us (docs/model.md lists what was verified how).
- dcqcn-paper: Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015.
- hpcc-dcqcn: the HPCC simulator's DCQCN benchmark (config-dcqcn.txt; its rdma-hw.cc "Mellanox
  version"): timers, no byte counter, F 1, Rai 20 / Rhai 200 Mbit/s, min 1 Gbit/s, the target
  following the rate only after a timer increase.
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
    # ConnectX firmware defaults (each value's MLNX_OFED name in the module docstring)
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
