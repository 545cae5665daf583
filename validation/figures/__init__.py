"""Stated figures tied to the simulator (validation/figures/core.py)."""
