"""Write the OpenAPI document to docs/openapi.json (the frontend generates its client from it)."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from app.main import app  # noqa: E402


def main() -> None:
    """Export with sorted keys so diffs stay readable (to the path given, else docs/openapi.json)."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "openapi.json"
    target.write_text(json.dumps(app.openapi(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
