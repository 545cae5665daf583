"""Numeric limits of scenario format v1 (docs/scenario-format.md), shared by the models."""

KIB = 1024
MIB = 1024 * 1024
GIB = 1024 * 1024 * 1024

MAX_NODES = 20_000
MAX_LINKS = 100_000
MIN_RATE_GBPS = 0.01  # 10 Mbit/s, the slowest Ethernet (simcore/scenario/scenario-limits.h)
MAX_RATE_GBPS = 1600.0
MIN_CC_RATE_MBPS = 1.0  # DCQCN rates are whole Mbit/s on NICs (rpg_ai_rate, rpg_min_rate)
MIN_CC_TIMER_US = 1.0  # DCQCN timers are whole microseconds on NICs
MIN_PAUSE_QUANTA = 512  # refresh at half the pause time outlasts a jumbo frame (docs)
MIN_PROBE_INTERVAL_US = 1.0
MIN_PFC_ALPHA = 1 / 128  # smallest dynamic-threshold alpha of switch ASICs (Broadcom 2^-7)
MAX_DELAY_US = 100_000.0
FIBRE_US_PER_KM = 5.0
MAX_DURATION_US = 1_000_000.0
MAX_SEED = 2**31 - 1
MAX_GENERATORS = 64
MAX_SAMPLES = 100_000
MAX_ALL_TO_ALL_HOSTS = 256
MAX_FLOW_LIST = 200_000  # flows one `flows` generator may list (simcore kMaxFlowListItems)
MAX_SIZE_BYTES = 10**15
MAX_TIMER_US = 1_000_000.0
MAX_RATE_MBPS = MAX_RATE_GBPS * 1000
MAX_BYTE_COUNTER = 2**40
MAX_MONITOR_ENTRIES = 4096
NODE_ID_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"
