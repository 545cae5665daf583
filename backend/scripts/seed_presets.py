"""Seed presets (app/presets/data/*.json) into the scenarios table; safe to run repeatedly."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from app.core.db import get_sessionmaker  # noqa: E402
from app.presets.service import seed_presets  # noqa: E402


def main() -> None:
    """Print which presets were (re)created."""
    with get_sessionmaker()() as session:
        changed = seed_presets(session)
    print(f"presets seeded: {', '.join(changed) if changed else 'all up to date'}")


if __name__ == "__main__":
    main()
