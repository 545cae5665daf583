"""Measurements of a real fabric (NCCL-tests, perftest) beside the simulation."""
