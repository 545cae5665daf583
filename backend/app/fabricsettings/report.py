"""The field-by-field report of an import: every field of the files, and what became of it (mapped
to a scenario parameter with its conversion, or ignored and why), then every parameter the files
could have set but did not (left as the scenario had it)."""

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["read", "mapped", "ignored", "kept"]


@dataclass
class Entry:
    status: Status
    source: str | None        # where in the files: "leaf0: BUFFER_PROFILE|pg_lossless.dynamic_th"
    value: str | None         # as read
    parameter: str | None     # scenario path it set (mapped) or that stayed (kept)
    converted: Any = None     # the value in the scenario's units
    conversion: str | None = None  # "alpha = 2^dynamic_th = 2^-4"
    note: str | None = None   # why ignored, what was approximated


@dataclass
class Report:
    entries: list[Entry] = field(default_factory=list)

    def mapped(self, source: str, value: Any, parameter: str, converted: Any,
               conversion: str | None = None, note: str | None = None) -> None:
        self.entries.append(Entry("mapped", source, _text(value), parameter, converted,
                                  conversion, note))

    def read(self, source: str, value: Any, note: str) -> None:
        """Read and used (to group ports, to draw the topology), not a parameter itself."""
        self.entries.append(Entry("read", source, _text(value), None, note=note))

    def ignored(self, source: str, value: Any, note: str) -> None:
        self.entries.append(Entry("ignored", source, _text(value), None, note=note))

    def kept(self, parameter: str, value: Any, note: str) -> None:
        self.entries.append(Entry("kept", None, None, parameter, value, note=note))

    def parameters(self) -> set[str]:
        return {e.parameter for e in self.entries if e.status == "mapped" and e.parameter}

    def as_json(self) -> list[dict]:
        return [asdict(e) for e in self.entries]

    def counts(self) -> dict[str, int]:
        out = {"read": 0, "mapped": 0, "ignored": 0, "kept": 0}
        for entry in self.entries:
            out[entry.status] += 1
        return out


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)
