"""Read lab files: YAML front matter between '---' lines, markdown body, instructor notes after
the '## Instructor notes' heading."""

import re
from pathlib import Path

import yaml
from pydantic import ValidationError

from app.core.config import REPO_ROOT
from app.labs.schemas import LabMeta, LabPublic

LABS_DIR = REPO_ROOT / "docs" / "labs"
SLUG = re.compile(r"^[a-z0-9-]{1,80}$")
INSTRUCTOR = re.compile(r"^## Instructor notes\s*$", re.MULTILINE)
MAX_LAB_BYTES = 200_000
# A measured figure's tag (validation/figures/core.py): kept in the file, never served.
FIGURE_TAG = re.compile(r"<!--fig [a-z0-9_.\-]+-->")


class LabFormatError(ValueError):
    """A lab file that does not follow the format (names the file and the problem)."""


def parse_lab(slug: str, text: str) -> LabPublic:
    """One lab file -> its public form; LabFormatError when the front matter is wrong."""
    text = FIGURE_TAG.sub("", text)
    if not text.startswith("---\n"):
        raise LabFormatError(f"{slug}: no front matter (the file must start with '---')")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise LabFormatError(f"{slug}: front matter not closed by '---'")
    try:
        meta = LabMeta.model_validate(yaml.safe_load(text[4:end]))
    except (yaml.YAMLError, ValidationError) as exc:
        raise LabFormatError(f"{slug}: {exc}") from exc
    rest = text[end + 5:]
    split = INSTRUCTOR.search(rest)
    body = rest[:split.start()] if split else rest
    instructor = rest[split.end():] if split else ""
    return LabPublic(slug=slug, body=body.strip() + "\n", instructor=instructor.strip(),
                     **meta.model_dump())


def lab_files(directory: Path = LABS_DIR) -> list[Path]:
    """The lab files, in number order (lab1-..., lab2-..., ..., lab10-...), then name."""
    files = (p for p in directory.glob("*.md") if SLUG.match(p.stem) and p.stem != "readme")
    return sorted(files, key=_lab_order)


def _lab_order(path: Path) -> tuple[int, str]:
    number = re.match(r"lab(\d+)", path.stem)
    return (int(number.group(1)) if number else 1 << 30, path.stem)


def load_lab(slug: str, directory: Path = LABS_DIR) -> LabPublic | None:
    """The lab called `slug`, or None."""
    if not SLUG.match(slug):
        return None
    path = directory / f"{slug}.md"
    if not path.is_file() or path.stat().st_size > MAX_LAB_BYTES:
        return None
    return parse_lab(slug, path.read_text(encoding="utf-8"))


def list_labs(directory: Path = LABS_DIR) -> list[LabPublic]:
    """Every lab, parsed."""
    return [parse_lab(p.stem, p.read_text(encoding="utf-8")) for p in lab_files(directory)]
