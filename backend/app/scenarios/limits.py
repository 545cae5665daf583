"""Numeric limits of scenario format v1 (docs/scenario-format.md): the one place they are written.

`python -m app.contracts.generate` copies every UPPER_CASE constant here into
simcore/scenario/scenario-contract.h (as kCamelCase) and frontend/src/lib/scenario/contract.gen.ts
(LIMITS), so the API, the simulator and the editor read the same numbers.
"""

KIB = 1024
MIB = 1024 * 1024
GIB = 1024 * 1024 * 1024
# Byte sizes of switch settings are decimal (docs/scenario-format.md, conventions).
MB = 1000 * 1000
GB = 1000 * 1000 * 1000

# Names (a scenario's, a traffic generator's, a fault's): what a list, a tab and a comparison show.
MAX_NAME_CHARS = 200
MAX_DESCRIPTION_CHARS = 5000  # a scenario's description
# Nodes and links after expansion: room for a 100,000-GPU fabric (the flow engine's scale,
# docs/model.md "Flow-level engine"; 65,536 GPUs in 32 rail-optimized units of 256 servers with
# 256 spines is 66,048 nodes and 131,072 links). The packet engine's run limits (--max-memory-mb,
# --max-wall-s) bound what a run of such a fabric may cost.
MAX_NODES = 150_000
MAX_LINKS = 300_000
# What the packet engine runs (fabricsim run --engine packet refuses more, naming the limit):
# its event keys hold node ids below 2^15 (simcore/model/fast-heap-scheduler.h), and these were
# the scenario format's limits before the flow engine.
PACKET_MAX_NODES = 20_000
PACKET_MAX_LINKS = 100_000
# POST /estimate (the flow engine's synchronous answer while editing): fabrics of at most this
# many hosts (issue 36: "within one second of each change for fabrics up to 8,192 hosts").
ESTIMATE_MAX_HOSTS = 8192
MAX_FLOWS = 2_000_000  # flows (QPs) after every generator is expanded
# Collectives' transfers (messages on their persistent connections, docs/model.md
# "Collectives"), all jobs together: about 100 bytes each in the packet engine, so the limit
# holds them in some 3 GB (a 1,024-GPU ring all-reduce has 2.1 million per channel).
MAX_TRANSFERS = 30_000_000
# Slowest link: 10 Mbit/s, the slowest Ethernet (10BASE-T). Below it a 1 kB frame takes longer
# than a millisecond and every rate-derived quantity (headroom, ECN) loses meaning.
MIN_RATE_GBPS = 0.01
MAX_RATE_GBPS = 1600.0
# DCQCN rate parameters (rai, rhai, minimum rate) are whole Mbit/s on NICs (NVIDIA's
# rpg_ai_rate, rpg_hai_rate, rpg_min_rate): 1 Mbit/s is the smallest a NIC takes.
MIN_CC_RATE_MBPS = 1.0
# DCQCN timers (alpha update, rate increase): NICs count them in whole microseconds; a shorter
# timer would fire more often than any NIC does (and 0 would never advance time).
MIN_CC_TIMER_US = 1.0
# PFC pause quanta (512 bit times each) in quanta mode. The switch refreshes a pause at half its
# time; 512 quanta make that half (131,072 bit times) longer than a jumbo frame (9,000 B payload,
# about 73,000 bits) plus the 672-bit pause frame, so a refresh arrives before the pause it renews
# expires even behind a full frame. Fewer quanta flood the reverse link with pause frames.
MIN_PAUSE_QUANTA = 512
# Pingmesh probe interval: one probe per host per microsecond at most.
MIN_PROBE_INTERVAL_US = 1.0
# Dynamic-threshold alpha: 1/128 is the smallest switch ASICs offer (Broadcom's 2^-7); a smaller
# one makes the threshold a few bytes and pauses on every frame. Static and `set` faults alike.
MIN_PFC_ALPHA = 1 / 128
MAX_PFC_ALPHA = 64
MAX_DELAY_US = 100_000.0
FIBRE_US_PER_KM = 5.0
# Simulated time of a run: 10 s, so that a training iteration at its real size fits (a 70B-class
# model's on 1,024 GPUs lasts seconds: bench/llama3-70b-1024.json).
MAX_DURATION_US = 10_000_000.0
MAX_SEED = 2**31 - 1
# 802.1p priorities of data (a generator's, a listed flow's, a PFC storm's, switch.data_priority):
# 0..6; priority 7 is the control priority (CNPs, and ACKs with nic.ack_priority "control").
MAX_DATA_PRIORITY = 6
MAX_PRIORITY = 7  # the highest 802.1p priority (keys of switch.ecn_by_priority)
# Queue pairs one generator spreads each flow over (`qps`).
MAX_QPS = 1024
MAX_GENERATORS = 64
MAX_SAMPLES = 100_000
MAX_ALL_TO_ALL_HOSTS = 256
MAX_FLOW_LIST = 200_000  # flows one `flows` generator may list
MAX_FAULTS = 256
MAX_SET_NODES = 4096  # ids a `set` fault may list
MAX_CDF_POINTS = 1000  # points of a workload's custom CDF
# Largest flow size: 2^53, the largest integer a double (a JSON number) holds exactly.
MAX_SIZE_BYTES = 2**53
MAX_TIMER_US = 1_000_000.0
MAX_FAULT_TIMER_US = MAX_DURATION_US
MAX_RATE_MBPS = MAX_RATE_GBPS * 1000
MAX_BYTE_COUNTER = 2**40
MAX_MONITOR_ENTRIES = 4096
MAX_FLOW_ID = 2**32 - 1  # flow ids are 32-bit (monitor.flows lists them)
MAX_NODE_ID_CHARS = 64
NODE_ID_PATTERN = rf"^[A-Za-z0-9_.:-]{{1,{MAX_NODE_ID_CHARS}}}$"
# rail_optimized (docs/scenario-format.md): a scalable unit of servers, each with one NIC per
# rail. 16 NICs per server covers every published GPU server (DGX H100: 8); 256 servers per unit
# is 8 x a DGX SuperPOD scalable unit (32); the node limit bounds the product anyway.
RAIL_MAX_UNITS = 64
RAIL_MAX_SERVERS_PER_UNIT = 256
RAIL_MAX_NICS_PER_SERVER = 16
RAIL_MAX_SPINES = 256  # as leaf_spine: the glossary shows one range for `spines`
# NVLink per GPU and direction, Gbit/s: NVIDIA's 900 GB/s for H100 counts both directions, so
# 3,600 Gbit/s each way; the limit leaves room for 4x that.
RAIL_NVLINK_GBPS = 3600.0
# multi_plane: ports (planes) per NIC. 8 is the largest published split (an 800G NIC as 8 x 100G).
MAX_PLANES = 8
MAX_NVLINK_GBPS = 14_400.0
# The collective generator (docs/scenario-format.md, "collective").
MAX_COLLECTIVE_RANKS = 131_072  # 2^17: a ring over every GPU of a 100,000-GPU fabric
MAX_COLLECTIVE_CHANNELS = 64
MAX_COLLECTIVE_ITERATIONS = 1000
MAX_JOB_NAME = 64
MAX_TRAINING_ITERATIONS = 100
MAX_TRAINING_PARALLEL = 131_072  # tp, pp, dp, ep each: at most the ranks of a collective
# A listed flow's `after`: how many flows it may wait for.
MAX_FLOW_AFTER = 1024
