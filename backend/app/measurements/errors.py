"""Limits of a measurement file (the error itself is app/core/textfile.py's TextFileError)."""

from app.core.textfile import TextFileError, lines_of, number

MeasurementFileError = TextFileError


class ToolError(TextFileError):
    """The tool asked for does not match the file, or the file does not say which it is."""
MAX_ROWS = 2_000  # rows of one table; NCCL-tests over 8 B .. 16 GiB by x2 has 32

__all__ = ["MAX_ROWS", "MeasurementFileError", "TextFileError", "ToolError", "lines_of", "number"]
