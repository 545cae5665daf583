"""Importers: other simulators' input files -> scenario documents (docs/scenario-format.md)."""
