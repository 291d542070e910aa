"""Reading a bulk top-up CSV: one `mobile,product code` per line, every bad line named.

Only reading and checking happen here; nothing is stored or charged. Files come from
spreadsheets, so a UTF-8 byte-order mark, GB18030 (what Chinese Excel writes), a header line,
blank lines and empty trailing columns are all accepted.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from topup import texts
from topup.models import Product
from topup.services.ordering import OrderInputError, OrderRequest, check_request

HEADER_WORDS = frozenset({"mobile", "phone", "number", "手机", "手机号", "手机号码", "号码"})


@dataclass(frozen=True)
class Problem:
    """A line's problem, kept on the batch as JSON.

    `template` and `params` are the untranslated message and its values, so that the page
    reads in each reader's language (`topup.texts.shown_text`); `message` is the text in the
    uploader's language, kept for batches stored before templates were. `cells` are the line as
    read.
    """

    line: int
    field: str
    message: str
    template: str = ""
    # dataclasses.field by its full name: `field` is a member's name here.
    params: dict[str, str] = dataclasses.field(default_factory=dict)
    cells: tuple[str, ...] = ()

    @classmethod
    def of(cls, at_line: int, field_name: str, template: str, cells: tuple[str, ...] = (),
           /, **params: str) -> Problem:
        """A problem from a message id of `topup.texts` (its values by name)."""
        return cls(at_line, field_name, texts.problem_text(template, params), template, params,
                   cells)

    def as_dict(self) -> dict[str, object]:
        return {"line": self.line, "field": self.field, "message": self.message,
                "template": self.template, "params": self.params, "cells": list(self.cells)}


@dataclass
class BulkCheck:
    rows: list[dict[str, object]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    line_count: int = 0

    @property
    def total_price(self) -> Decimal:
        return sum((Decimal(str(row["price"])) for row in self.rows), Decimal("0"))


class BulkFileError(ValueError):
    """The file as a whole cannot be read (too big, not text, no rows)."""


def decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise BulkFileError(_("The file is neither UTF-8 nor GB18030 text."))


def check_csv(data: bytes, products: dict[str, Product], max_rows: int,
              max_bytes: int) -> BulkCheck:
    """Check every line against the rules and our products; raise BulkFileError for the file."""
    if len(data) > max_bytes:
        raise BulkFileError(_("The file is larger than %(size)d bytes.") % {"size": max_bytes})
    text = decode(data)
    result = BulkCheck()
    seen: dict[tuple[str, str], int] = {}
    rows = csv.reader(io.StringIO(text, newline=""))
    try:
        for line_number, cells in enumerate(rows, start=1):
            result.line_count = line_number
            cells = [cell.strip() for cell in cells]
            while cells and not cells[-1]:
                cells.pop()  # spreadsheets add empty trailing columns
            if not cells:
                continue
            if line_number == 1 and _is_header(cells):
                continue
            if len(result.rows) + len(result.problems) >= max_rows:
                raise BulkFileError(
                    _("The file has more than %(count)d rows; split it.") % {"count": max_rows})
            _check_line(line_number, cells, products, result, seen)
    except csv.Error as error:
        raise BulkFileError(
            _("Line %(line)d cannot be read as CSV: %(error)s")
            % {"line": result.line_count + 1, "error": error}) from None
    if not result.rows and not result.problems:
        raise BulkFileError(_("The file has no rows."))
    return result


def _is_header(cells: list[str]) -> bool:
    return cells[0].lower() in HEADER_WORDS or not any(ch.isdigit() for ch in cells[0])


def _check_line(line: int, cells: list[str], products: dict[str, Product], result: BulkCheck,
                seen: dict[tuple[str, str], int]) -> None:
    if len(cells) < 2:
        result.problems.append(Problem.of(line, "product", texts.TWO_COLUMNS, tuple(cells)))
        return
    if len(cells) > 2:
        result.problems.append(Problem.of(line, "columns", texts.TOO_MANY_COLUMNS,
                                          tuple(cells), count=str(len(cells))))
        return
    try:
        checked = check_request(OrderRequest(mobile=cells[0], product_code=cells[1]), products)
    except OrderInputError as error:
        result.problems.append(Problem(line, error.field, error.message, error.template,
                                       error.params, tuple(cells)))
        return
    key = (checked.mobile, checked.product.code)
    if key in seen:
        result.warnings.append(Problem.of(line, "mobile", texts.SAME_AS_LINE,
                                          tuple(cells), line=str(seen[key])))
    else:
        seen[key] = line
    result.rows.append({
        "line": line, "mobile": checked.mobile, "product": checked.product.code,
        "carrier": checked.carrier, "price": str(checked.product.price),
    })
