"""Write the scenario JSON Schema (from the Pydantic models) to docs/scenario.schema.json."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from app.scenarios.document import Scenario  # noqa: E402


def schema() -> dict:
    """The JSON Schema of scenario format v1."""
    document = Scenario.model_json_schema()
    document["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    document["$id"] = "https://fabrictwin.example/scenario.schema.json"
    document["title"] = "FabricTwin scenario v1"
    return document


def main() -> None:
    """Export with sorted keys."""
    target = ROOT / "docs" / "scenario.schema.json"
    target.write_text(json.dumps(schema(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
