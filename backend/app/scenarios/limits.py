"""Numeric limits of scenario format v1 (docs/scenario-format.md), shared by the models."""

KB = 1000
MB = 1000 * 1000
GB = 1000 * 1000 * 1000

MAX_NODES = 20_000
MAX_LINKS = 100_000
MAX_RATE_GBPS = 1600.0
MAX_DELAY_US = 100_000.0
FIBRE_US_PER_KM = 5.0
MAX_DURATION_US = 1_000_000.0
MAX_SEED = 2**31 - 1
MAX_GENERATORS = 64
MAX_SAMPLES = 100_000
MAX_ALL_TO_ALL_HOSTS = 256
NODE_ID_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"
