"""Switch and NIC settings in and out: SONiC config_db.json, NVIDIA NVUE, ConnectX sysfs."""
