"""Reading a console-style import file: detect its encoding, stream its lines, judge each one.

The format (spec part A): txt or csv, ASCII commas, column 1 the mobile number, columns 2-5
the variable values (empty when unused). Files saved by Excel must work, so UTF-8 with or
without BOM and GBK (read as GB18030, its superset) are accepted without asking which.

Nothing here touches the database: `rows()` yields judged lines one at a time and the caller
stores them in batches, so a 100,000-line file never becomes 100,000 Python objects at once.
"""

from __future__ import annotations

import codecs
import csv
import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol, TypeVar

from django.utils.translation import gettext as _

from sms import mobiles, rules, texts

MAX_COLUMNS = 5  # the mobile and four variables
MAX_VARIABLES = MAX_COLUMNS - 1
MAX_FILE_BYTES = 20 * 1024 * 1024
ALLOWED_SUFFIXES = (".csv", ".txt")
_SAMPLE_BYTES = 1024 * 1024
_UTF8_BOM = codecs.BOM_UTF8
# Signatures of files that are not text, for a message that says what to do instead.
_WORKBOOK_MAGIC = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


class ImportFileError(ValueError):
    """The file as a whole cannot be read; the message says why, for the person uploading."""


def check_name(name: str) -> None:
    if not name.lower().endswith(ALLOWED_SUFFIXES):
        raise ImportFileError(
            _("Only .csv and .txt files can be imported (got “%(name)s”).") % {"name": name}
        )


def check_size(size: int) -> None:
    if size == 0:
        raise ImportFileError(_("The file is empty."))
    if size > MAX_FILE_BYTES:
        raise ImportFileError(
            _("The file has %(size)s bytes; at most %(limit)s can be imported at once.")
            % {"size": size, "limit": MAX_FILE_BYTES}
        )


def detect_encoding(path: Path) -> str:
    """`utf-8-sig`, `utf-8` or `gb18030`, decided by reading the whole file once.

    The BOM decides when there is one. Otherwise the file is UTF-8 only if every byte of it
    decodes as UTF-8 (a GBK file almost never does past its first Chinese character), else
    GB18030, which reads every GBK file. The read is incremental, in 1 MiB blocks.
    """
    check_size(path.stat().st_size)
    with path.open("rb") as stream:
        head = stream.read(4)
        _refuse_binary(head)
        if head.startswith(_UTF8_BOM):
            encoding = "utf-8-sig"
            if _decodes(stream, "utf-8", start=head[len(_UTF8_BOM) :]):
                return encoding
            raise ImportFileError(
                _("The file starts like UTF-8 but contains bytes that are not UTF-8.")
            )
        stream.seek(0)
        if _decodes(stream, "utf-8"):
            return "utf-8"
        stream.seek(0)
        if _decodes(stream, "gb18030"):
            return "gb18030"
    raise ImportFileError(_("The file is neither UTF-8 nor GBK text; save it as CSV again."))


def _refuse_binary(head: bytes) -> None:
    if head.startswith(_WORKBOOK_MAGIC):
        raise ImportFileError(
            _("This is an Excel workbook, not a text file: save it as “CSV (comma delimited)”.")
        )
    if head.startswith(_UTF16_BOMS):
        raise ImportFileError(
            _("The file is saved as UTF-16 (“Unicode text”): save it as CSV in UTF-8 instead.")
        )


def _decodes(stream: BinaryIO, encoding: str, start: bytes = b"") -> bool:
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    try:
        decoder.decode(start)
        while block := stream.read(_SAMPLE_BYTES):
            if b"\x00" in block:
                raise ImportFileError(_("The file contains NUL bytes: it is not a text file."))
            decoder.decode(block)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class GoodLine:
    """A line that will be sent: the normalised number, its values and what it costs."""

    line_number: int
    mobile: str
    variables: list[str]
    text: str
    units: int
    carrier: str


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line that will not be sent, with every reason found."""

    line_number: int
    mobile: str
    problems: tuple[rules.Problem, ...]


@functools.lru_cache(maxsize=65536)
def _carrier_code(prefix: str) -> str:
    # The carrier follows from the first seven digits (the number block allocated to a
    # carrier), so caching by them avoids the slow phonenumbers lookup on every line.
    return mobiles.carrier_of(prefix + "0000").code or ""


def carrier_code(mobile: str) -> str:
    """CMCC, CUCC, CTCC or "" for a normalised 11-digit number."""
    return _carrier_code(mobile[:7])


_PLAIN_MOBILE = re.compile(r"1[3-9][0-9]{9}")
_MARKER = re.compile(r"\x00([0-9]+)\x00")


class CompiledTemplate:
    """A template split once into fixed text and variable slots, to render lines fast.

    Only the common case is handled here: every used variable has a value without "|" and the
    message is within the length limit. Anything else returns None, and the line is judged by
    `rules.preview_message`, which names the problems; tests check both agree on good lines.
    """

    def __init__(self, content: str, temp_sign: str, sign_location: str) -> None:
        # Render once with markers as values, so that `rules` alone decides what a variable
        # is; the markers then cut the text into fixed parts and slots.
        count = rules.variable_count(content)
        markers = [f"\x00{index}\x00" for index in range(count)]
        self.usable = "\x00" not in content
        marked = rules.render_content(content, markers).text
        self.parts: list[str | int] = [
            int(piece) if position % 2 else piece
            for position, piece in enumerate(_MARKER.split(marked))
            if piece or position % 2
        ]
        self.used = sorted({part for part in self.parts if isinstance(part, int)})
        # The same cut as a format string: str.format fills it in C, once per line.
        self.format = "".join(
            part.replace("{", "{{").replace("}", "}}") if isinstance(part, str) else f"{{{part}}}"
            for part in self.parts
        )
        self.temp_sign = temp_sign
        self.sign_location = sign_location
        self.signature = f"{rules.SIGN_BRACKETS[0]}{temp_sign}{rules.SIGN_BRACKETS[1]}"

    def render(self, values: Sequence[str]) -> tuple[str, int] | None:
        """(delivered text, units), or None when `rules.preview_message` must judge."""
        if not self.usable:
            return None
        for index in self.used:
            if index >= len(values) or not values[index]:
                return None
        # Every value travels in the call's `vars`, used by the template or not.
        if rules.VARS_SEPARATOR in "".join(values):
            return None
        content = self.format.format(*values)
        length = rules.billed_length(content, self.temp_sign)
        if length > rules.MAX_BILLED_LENGTH:
            return None
        if self.sign_location == "top":
            text = self.signature + content
        elif self.sign_location == "bottom":
            text = content + self.signature
        else:
            return None
        return text, rules.billing_units(length)


class LineJudge:
    """Judges the lines of one file against one template, remembering numbers already taken.

    A number counts as taken only by a line that will be sent, so when the first line with a
    number is bad for another reason, a later good line with that number still goes out.
    """

    def __init__(self, content: str, temp_sign: str, sign_location: str,
                 blocked_words: Sequence[str] = ()) -> None:
        self.content = content
        self.temp_sign = temp_sign
        self.sign_location = sign_location
        self.variable_count = rules.variable_count(content)
        # The merchant's word list, folded once: a value holding one is a bad line, named.
        self.blocked = tuple(dict.fromkeys(word.casefold() for word in blocked_words if word))
        self._words_of: dict[str, str | None] = {}
        self.taken: dict[str, int] = {}
        self.compiled = CompiledTemplate(content, temp_sign, sign_location)
        # Without variables every line renders to the same text: judge it once.
        self._fixed = (
            rules.preview_message(content, temp_sign, sign_location)
            if self.variable_count == 0
            else None
        )

    def judge(self, line_number: int, fields: Sequence[str]) -> GoodLine | BadLine:
        raw_mobile = fields[0].strip() if fields else ""
        problems: list[rules.Problem] = []
        if len(fields) > MAX_COLUMNS and any(value.strip() for value in fields[MAX_COLUMNS:]):
            problems.append(_too_many_columns(len(fields)))
        mobile = ""
        if _PLAIN_MOBILE.fullmatch(raw_mobile):
            mobile = raw_mobile  # the usual case, already in normal form
        else:
            try:
                mobile = mobiles.normalize_mobile(raw_mobile)
            except mobiles.InvalidMobileError as error:
                problems.append(error.problem)
        if mobile and mobile in self.taken:
            problems.append(_duplicate(raw_mobile, self.taken[mobile]))
        values = [value.strip() for value in fields[1 : self.variable_count + 1]]
        problems.extend(self._blocked_values(values))
        rendered = self.compiled.render(values) if self._fixed is None else None
        if rendered is None:
            preview = self._fixed or rules.preview_message(
                self.content, self.temp_sign, self.sign_location, values
            )
            problems.extend(preview.problems)
            if problems or preview.units is None or preview.text is None:
                return BadLine(line_number, raw_mobile[:64], tuple(problems))
            rendered = (preview.text, preview.units)
        if problems:
            return BadLine(line_number, raw_mobile[:64], tuple(problems))
        self.taken[mobile] = line_number
        return GoodLine(
            line_number=line_number,
            mobile=mobile,
            variables=values,
            text=rendered[0],
            units=rendered[1],
            carrier=carrier_code(mobile),
        )


    def _blocked_values(self, values: Sequence[str]) -> list[rules.Problem]:
        if not self.blocked:
            return []
        found: list[rules.Problem] = []
        for number, value in enumerate(values, start=1):
            word = self._blocked_word(value)
            if word is not None:
                found.append(_blocked(number, word))
        return found

    def _blocked_word(self, value: str) -> str | None:
        # Files repeat their values (a product, a shop): each distinct value is searched once.
        if value not in self._words_of:
            folded = value.casefold()
            self._words_of[value] = next((w for w in self.blocked if w in folded), None)
            if len(self._words_of) > 100_000:
                self._words_of.clear()
        return self._words_of[value]


def _blocked(number: int, word: str) -> rules.Problem:
    return rules.Problem(
        field="vars",
        code=texts.BLOCKED_VALUE,
        message=f"{{$var{number}}} contains {word!r}, which is on the merchant's word list.",
        params={"variable": f"{{$var{number}}}", "word": word},
    )


def _too_many_columns(count: int) -> rules.Problem:
    return rules.Problem(
        field="line",
        code=texts.TOO_MANY_COLUMNS,
        message=f"The line has {count} columns; at most {MAX_COLUMNS} are read.",
        params={"count": count},
    )


def _duplicate(raw_mobile: str, first_line: int) -> rules.Problem:
    return rules.Problem(
        field="mobile",
        code=texts.DUPLICATE_MOBILE,
        message=f"Duplicate number: {raw_mobile} is already on line {first_line}.",
        params={"value": raw_mobile, "first_line": first_line},
    )


def _broken(detail: str) -> rules.Problem:
    return rules.Problem(
        field="line", code=texts.BROKEN_LINE, message=detail, params={"detail": detail}
    )


@dataclass
class ReadStats:
    """What reading the file found besides the judged lines."""

    lines_read: int = 0
    header_skipped: bool = False


_Judged = TypeVar("_Judged", covariant=True)


class Judge(Protocol[_Judged]):
    """Judges one record of a file: a campaign's LineJudge, or the suppression import's."""

    def judge(self, line_number: int, fields: Sequence[str]) -> _Judged | BadLine: ...


_Line = TypeVar("_Line")


def read_lines(
    path: Path, encoding: str, judge: Judge[_Line], stats: ReadStats
) -> Iterator[_Line | BadLine]:
    """Judge every record of the file in order; blank lines are skipped silently.

    The first record is taken for a header (and skipped) when its first column holds no digit
    at all, as in "mobile,name" or "手机号,姓名". Line numbers are those an editor shows.
    """
    with path.open(encoding=encoding, newline="") as text:
        reader = csv.reader(text)
        first_record = True
        next_line = 1
        while True:
            line_number = next_line
            try:
                fields = next(reader)
            except StopIteration:
                break
            except csv.Error as error:
                next_line = reader.line_num + 1
                stats.lines_read = reader.line_num
                yield BadLine(line_number, "", (_broken(str(error)),))
                continue
            next_line = reader.line_num + 1
            stats.lines_read = reader.line_num
            if not any(value.strip() for value in fields):
                continue
            if first_record:
                first_record = False
                if not any(ch.isdigit() for ch in fields[0]):
                    stats.header_skipped = True
                    continue
            yield judge.judge(line_number, fields)
