"""Text files people paste or upload (benchmark outputs, device dumps): one error shape that
names the 1-based line and what was expected there, and bounded reading."""

MAX_TEXT_CHARS = 1_000_000
MAX_LINES = 20_000


class TextFileError(ValueError):
    """A file that cannot be read: `line` (1-based; 0 for the file as a whole) and a message
    saying what was expected there."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


def lines_of(text: str, max_chars: int = MAX_TEXT_CHARS, max_lines: int = MAX_LINES) -> list[str]:
    """The file's lines (any newline convention), bounded in size and count."""
    if len(text) > max_chars:
        raise TextFileError(0, f"the file has {len(text):,} characters (at most {max_chars:,})")
    lines = text.splitlines()
    if len(lines) > max_lines:
        raise TextFileError(0, f"the file has {len(lines):,} lines (at most {max_lines:,})")
    if not any(line.strip() for line in lines):
        raise TextFileError(0, "the file is empty")
    return lines


def number(token: str, line: int, what: str, integer: bool = False) -> float | int:
    """`token` as an int or a finite float, else an error naming the column."""
    try:
        value = int(token) if integer else float(token)
    except ValueError:
        kind = "an integer" if integer else "a number"
        raise TextFileError(line, f"{what} must be {kind}, got '{token}'") from None
    if not integer and (value != value or value in (float("inf"), float("-inf"))):
        raise TextFileError(line, f"{what} must be a finite number, got '{token}'")
    return value
