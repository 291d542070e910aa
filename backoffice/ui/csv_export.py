"""Streamed CSV exports that spreadsheets open as plain data.

Excel, LibreOffice and Google Sheets run a cell that starts with = + - @ (and, after a tab or
a carriage return, whatever follows) as a formula. Message texts, statuses and error codes
come from the provider and mobile numbers "as written" from import files, so every text cell
that starts so is written with a leading apostrophe, which spreadsheets show as text (OWASP's
advice for CSV injection). Numbers are written as they are.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"  # first, so that Excel reads the UTF-8 (and the Chinese) correctly


def safe_cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _Echo:
    """A file-like object whose write returns the line, for streaming with csv.writer."""

    def write(self, value: str) -> str:
        return value


def head_lines(header: Sequence[str]) -> Iterator[str]:
    """The BOM and the header line (also written before the rows that PostgreSQL copies out)."""
    yield BOM
    yield csv.writer(_Echo()).writerow([safe_cell(value) for value in header])


def csv_lines(header: Sequence[str], rows: Iterable[Sequence[object]]) -> Iterator[str]:
    """The BOM, the header, then one line per row, every cell made safe."""
    writer = csv.writer(_Echo())
    yield from head_lines(header)
    for row in rows:
        yield writer.writerow([safe_cell(value) for value in row])
