"""Imports of other simulators' input files as scenario documents."""
