"""Wait until DATABASE_URL accepts connections (up to WAIT_FOR_DB_S seconds, default 60)."""

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from sqlalchemy import text  # noqa: E402

from app.core.db import get_engine  # noqa: E402


def main() -> None:
    """Retry `SELECT 1` once a second."""
    deadline = time.monotonic() + float(os.environ.get("WAIT_FOR_DB_S", "60"))
    while True:
        try:
            with get_engine().connect() as connection:
                connection.execute(text("SELECT 1"))
            return
        except Exception as exc:  # noqa: BLE001 - any failure means "not yet"
            if time.monotonic() > deadline:
                sys.exit(f"database not reachable: {exc}")
            time.sleep(1)


if __name__ == "__main__":
    main()
