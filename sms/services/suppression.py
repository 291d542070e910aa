"""The suppression list: numbers that must not receive marketing messages.

Marketing templates always respect the list; an industry template only when it is marked to
(`Template.respect_suppression`). Suppressed numbers are set aside where recipients enter the
back-office (a file import, the send page, the command line), before anything is stored to be
sent, as lines with the problem `SUPPRESSED`; they never block a send.

Every check against the list is one set-based query (a semi-join in the database, or one
`IN` per batch), never a query per number: an import of 100,000 lines keeps its speed.

Staff add numbers one by one or from a txt/csv file, read like a campaign import (same
encodings, same bad-line report), in two steps: the check stores the file in the default
storage with its figures (`SuppressionImport`), the confirmation reads it again and adds the
good numbers. Removing a number is recorded in the audit log, with what the entry said.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from django.core.files import File
from django.core.files.uploadedfile import UploadedFile
from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.annotations import StaffUser
from backoffice.security.audit import audited
from backoffice.ui import csv_export
from sms import mobiles, rules, texts
from sms.models import (
    Campaign,
    Chunk,
    ImportProblem,
    Message,
    MessageStatus,
    SuppressedNumber,
    SuppressionImport,
    SuppressionReason,
    Template,
)
from sms.services import importing

NOTE_MAX_LENGTH = 200
PROBLEMS_KEPT = 200  # bad lines of a suppression file kept for its check page
_BATCH = 5000  # numbers per IN query or INSERT


class SuppressionError(ValueError):
    """A number cannot be added or removed as asked; the message says why, for staff."""


def normalise(raw: str) -> str:
    """The 11-digit form of a typed number, or SuppressionError naming the mobile."""
    try:
        return mobiles.normalize_mobile(raw.strip())
    except mobiles.InvalidMobileError as error:
        raise SuppressionError(texts.problem_text(error.problem)) from None


def _check_reason_and_note(reason: str, note: str) -> None:
    """SuppressionError unless `reason` is one of the list's and `note` fits its column."""
    if reason not in SuppressionReason.values:
        raise SuppressionError(_("Choose a reason from the list."))
    if len(note) > NOTE_MAX_LENGTH:
        raise SuppressionError(
            _("The note has %(length)s characters; at most %(limit)s are kept.")
            % {"length": len(note), "limit": NOTE_MAX_LENGTH}
        )


# --- reading the list -----------------------------------------------------------------------


def applies_to(template: Template) -> bool:
    """Whether campaigns of `template` skip numbers on the list."""
    return template.respects_suppression


def suppressed_among(mobiles: Collection[str]) -> dict[str, str]:
    """{mobile: reason} of those of `mobiles` (normalised) on the list."""
    found: dict[str, str] = {}
    numbers = list(set(mobiles))
    for start in range(0, len(numbers), _BATCH):
        found.update(
            SuppressedNumber.objects.filter(mobile__in=numbers[start : start + _BATCH])
            .values_list("mobile", "reason")
        )
    return found


def suppressed_total() -> int:
    """How many numbers are on the list (a small table: counted, not cached)."""
    return SuppressedNumber.objects.count()


def search(prefix: str = "", reason: str = "") -> QuerySet[SuppressedNumber]:
    """Entries whose number starts with `prefix` (digits), of one reason or all, newest first."""
    entries = SuppressedNumber.objects.select_related("created_by")
    if prefix:
        # A prefix search uses the unique index on mobile (a btree serves `LIKE 'x%'` with
        # the C collation; otherwise PostgreSQL scans, still fast at this table's size).
        entries = entries.filter(mobile__startswith=prefix)
    if reason:
        entries = entries.filter(reason=reason)
    return entries


def export_lines(entries: QuerySet[SuppressedNumber]) -> Iterator[str]:
    """The entries as CSV lines (BOM first, formula guard on every text cell)."""
    local = timezone.localtime
    rows = (
        [
            mobile,
            texts.suppression_reason_label(reason),
            note,
            local(created_at).strftime("%Y-%m-%d %H:%M:%S"),
            username or "",
        ]
        for mobile, reason, note, created_at, username in entries.values_list(
            "mobile", "reason", "note", "created_at", "created_by__username"
        ).iterator(chunk_size=2000)
    )
    header = [_("Mobile"), _("Reason"), _("Note"), _("Added at"), _("Added by")]
    return csv_export.csv_lines(header, rows)


# --- changing the list ------------------------------------------------------------------------


@audited(
    "sms",
    "suppression.add",
    lambda mobile, reason, note="", user=None: (mobile, f"{mobile}: {reason}"),
)
def add_number(
    mobile: str, reason: str, note: str = "", user: StaffUser | None = None
) -> SuppressedNumber:
    """Put one number on the list; SuppressionError if it is invalid or already there."""
    number = normalise(mobile)
    _check_reason_and_note(reason, note)
    with transaction.atomic():
        entry, created = SuppressedNumber.objects.get_or_create(
            mobile=number, defaults={"reason": reason, "note": note, "created_by": user}
        )
    if not created:
        raise SuppressionError(
            _("%(mobile)s is already on the suppression list (%(reason)s, since %(date)s).")
            % {
                "mobile": number,
                "reason": entry.get_reason_display(),
                "date": timezone.localtime(entry.created_at).strftime("%Y-%m-%d"),
            }
        )
    return entry


def _removal_summary(entry: SuppressedNumber) -> str:
    added_by = entry.created_by.get_username() if entry.created_by else "-"
    return (
        f"{entry.mobile} ({entry.reason}, added {entry.created_at:%Y-%m-%d} by {added_by})"
        f"{': ' + entry.note if entry.note else ''}"
    )


@audited(
    "sms",
    "suppression.remove",
    lambda entry: (entry.mobile, _removal_summary(entry)),
)
def remove_number(entry: SuppressedNumber) -> None:
    """Take a number off the list; SuppressionError if someone removed it already."""
    deleted, _counts = SuppressedNumber.objects.filter(pk=entry.pk).delete()
    if not deleted:
        raise SuppressionError(_("%(mobile)s is no longer on the list.") % {"mobile": entry.mobile})


def _insert_new(mobiles: Sequence[str], reason: str, note: str, user: StaffUser | None) -> int:
    """Add those of `mobiles` not yet on the list; returns how many were added."""
    added = 0
    now = timezone.now()
    for start in range(0, len(mobiles), _BATCH):
        batch = mobiles[start : start + _BATCH]
        known = set(
            SuppressedNumber.objects.filter(mobile__in=batch).values_list("mobile", flat=True)
        )
        fresh = [mobile for mobile in batch if mobile not in known]
        # Conflicts ignored: a number added by someone else meanwhile stays as they added it.
        SuppressedNumber.objects.bulk_create(
            [
                SuppressedNumber(
                    mobile=mobile, reason=reason, note=note, created_at=now, created_by=user
                )
                for mobile in fresh
            ],
            ignore_conflicts=True,
        )
        added += len(fresh)
    return added


# --- invalid numbers of a campaign --------------------------------------------------------------

INVALID_CODE = rules.ILLEGAL_MOBILE


def _invalid_numbers(campaign: Campaign) -> QuerySet[Message]:
    # Read from the partial index sms_message_invalid (only invalid numbers are in it): by the
    # campaign alone PostgreSQL read each of its messages (76 ms for 200,000).
    return (
        Message.objects.filter(
            campaign=campaign,
            status__in=(MessageStatus.REJECTED, MessageStatus.FAILED),
            error_code=INVALID_CODE,
        )
        .exclude(mobile__in=SuppressedNumber.objects.values("mobile"))
        .order_by()
    )


def invalid_numbers_count(campaign: Campaign) -> int:
    """Numbers the provider refused as invalid in this campaign, not yet on the list."""
    return _invalid_numbers(campaign).values("mobile").distinct().count()


@audited(
    "sms",
    "suppression.add_invalid",
    lambda campaign, user=None: (campaign, f"invalid numbers of campaign {campaign.pk}"),
)
def add_invalid_numbers(campaign: Campaign, user: StaffUser | None = None) -> int:
    """Put every number the provider refused as invalid in `campaign` on the list; how many."""
    mobiles = sorted(set(_invalid_numbers(campaign).values_list("mobile", flat=True)))
    note = _("Refused as invalid (%(code)s) in campaign #%(id)s") % {
        "code": INVALID_CODE,
        "id": campaign.pk,
    }
    with transaction.atomic():
        return _insert_new(mobiles, SuppressionReason.INVALID, note[:NOTE_MAX_LENGTH], user)


# --- setting suppressed recipients aside -------------------------------------------------------


def suppressed_line(line_number: int, mobile: str, reason: str) -> importing.BadLine:
    return importing.BadLine(
        line_number,
        mobile,
        (
            rules.Problem(
                field="mobile",
                code=texts.SUPPRESSED,
                message=f"{mobile} is on the suppression list ({reason}).",
                params={"value": mobile, "reason": reason},
            ),
        ),
    )


def split_suppressed(
    template: Template, lines: list[importing.GoodLine]
) -> tuple[list[importing.GoodLine], list[importing.BadLine]]:
    """(lines to send, suppressed lines set aside) for recipients judged good."""
    if not lines or not applies_to(template):
        return lines, []
    found = suppressed_among([line.mobile for line in lines])
    if not found:
        return lines, []
    kept = [line for line in lines if line.mobile not in found]
    aside = [
        suppressed_line(line.line_number, line.mobile, found[line.mobile])
        for line in lines
        if line.mobile in found
    ]
    return kept, aside


@dataclass(frozen=True)
class SetAside:
    lines: int = 0
    units: int = 0


def set_aside_stored(campaign: Campaign) -> SetAside:
    """Turn the stored messages of a draft whose number is suppressed into `SUPPRESSED`
    problems, in the caller's transaction; what was set aside.

    Runs once the import's rows are written (by COPY, which allows no other query while it is
    open), as one semi-join of the campaign's messages with the list; the common case, no
    match, costs that one query. Chunk sizes follow, and a chunk left empty goes.
    """
    if not applies_to(campaign.template):
        return SetAside()
    hits = list(
        Message.objects.filter(
            campaign=campaign,
            status=MessageStatus.QUEUED,
            mobile__in=SuppressedNumber.objects.values("mobile"),
        )
        .order_by()
        .values_list("id", "line_number", "mobile", "chunk_id", "units")
    )
    if not hits:
        return SetAside()
    reasons = suppressed_among([mobile for _id, _line, mobile, _chunk, _units in hits])
    ImportProblem.objects.bulk_create(
        [
            ImportProblem(
                campaign=campaign,
                line_number=line_number or 0,
                mobile=mobile,
                code=texts.SUPPRESSED,
                params={"value": mobile, "reason": reasons.get(mobile, "")},
            )
            for _id, line_number, mobile, _chunk, _units in hits
        ],
        batch_size=2000,
    )
    ids = [message_id for message_id, *_rest in hits]
    with connection.cursor() as cursor:
        # Straight SQL, by primary key: the ORM's delete would look for related rows first.
        table = connection.ops.quote_name(Message._meta.db_table)
        for start in range(0, len(ids), _BATCH):
            batch = ids[start : start + _BATCH]
            cursor.execute(
                f"DELETE FROM {table} WHERE id IN ({', '.join(['%s'] * len(batch))})", batch
            )
    for chunk_id, count in Counter(chunk for *_rest, chunk, _units in hits).items():
        Chunk.objects.filter(pk=chunk_id).update(size=F("size") - count)
    Chunk.objects.filter(campaign=campaign, size=0).delete()
    return SetAside(lines=len(hits), units=sum(units for *_rest, units in hits))


# --- importing a file ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NumberLine:
    """A line of a suppression file that names a number to add."""

    line_number: int
    mobile: str
    note: str


class NumberJudge:
    """Judges the lines of a suppression file: column 1 the mobile, column 2 an optional note.

    As in a campaign import, only a good line reserves its number for the duplicate check.
    """

    def __init__(self) -> None:
        self.taken: dict[str, int] = {}

    def judge(self, line_number: int, fields: Sequence[str]) -> NumberLine | importing.BadLine:
        raw_mobile = fields[0].strip() if fields else ""
        problems: list[rules.Problem] = []
        if len(fields) > 2 and any(value.strip() for value in fields[2:]):
            problems.append(
                rules.Problem(
                    field="line",
                    code=texts.SUPPRESSION_COLUMNS,
                    message=f"The line has {len(fields)} columns; at most 2 are read.",
                    params={"count": len(fields)},
                )
            )
        note = fields[1].strip() if len(fields) > 1 else ""
        if len(note) > NOTE_MAX_LENGTH:
            problems.append(
                rules.Problem(
                    field="note",
                    code=texts.NOTE_TOO_LONG,
                    message=f"The note has {len(note)} characters.",
                    params={"length": len(note), "limit": NOTE_MAX_LENGTH},
                )
            )
        mobile = ""
        try:
            mobile = mobiles.normalize_mobile(raw_mobile)
        except mobiles.InvalidMobileError as error:
            problems.append(error.problem)
        if mobile and mobile in self.taken:
            problems.append(
                rules.Problem(
                    field="mobile",
                    code=texts.DUPLICATE_MOBILE,
                    message=f"Duplicate number: {raw_mobile} is already on line "
                    f"{self.taken[mobile]}.",
                    params={"value": raw_mobile, "first_line": self.taken[mobile]},
                )
            )
        if problems:
            return importing.BadLine(line_number, raw_mobile[:64], tuple(problems))
        self.taken[mobile] = line_number
        return NumberLine(line_number, mobile, note)


@dataclass
class _FileRead:
    encoding: str
    good: list[NumberLine]
    bad_count: int
    problems: list[dict[str, object]]
    stats: importing.ReadStats


def _read_file(path: Path) -> _FileRead:
    encoding = importing.detect_encoding(path)
    stats = importing.ReadStats()
    good: list[NumberLine] = []
    problems: list[dict[str, object]] = []
    bad_count = 0
    for line in importing.read_lines(path, encoding, NumberJudge(), stats):
        if isinstance(line, NumberLine):
            good.append(line)
            continue
        bad_count += 1
        for problem in line.problems:
            if len(problems) < PROBLEMS_KEPT:
                problems.append(
                    {
                        "line": line.line_number,
                        "mobile": line.mobile,
                        "code": problem.code,
                        "params": dict(problem.params),
                    }
                )
    return _FileRead(encoding, good, bad_count, problems, stats)


def _local_copy(upload: UploadedFile | File[bytes], suffix: str) -> Path:
    """A temporary file with the upload's bytes, for the path-based reader (caller deletes)."""
    handle, raw_path = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(handle, "wb") as target:
        for block in upload.chunks():
            target.write(block)
    return Path(raw_path)


def check_import(
    upload: UploadedFile, reason: str, note: str = "", user: StaffUser | None = None
) -> SuppressionImport:
    """Read a suppression file and keep it, unconfirmed, with its figures and bad lines.

    Raises importing.ImportFileError (nothing kept) when the file as a whole is unreadable,
    SuppressionError for a bad reason or note.
    """
    _check_reason_and_note(reason, note)
    name = upload.name or "numbers.csv"
    importing.check_name(name)
    if upload.size is not None:
        importing.check_size(upload.size)
    path = _local_copy(upload, Path(name).suffix)
    try:
        read = _read_file(path)
        numbers = [line.mobile for line in read.good]
        known = len(suppressed_among(numbers))
        pending = SuppressionImport(
            source_name=name[:255],
            encoding=read.encoding,
            reason=reason,
            note=note,
            created_by=user,
            lines_read=read.stats.lines_read,
            skipped_header=read.stats.header_skipped,
            new_numbers=len(numbers) - known,
            known_numbers=known,
            bad_lines=read.bad_count,
            problems=read.problems,
        )
        with path.open("rb") as stream:
            pending.source_file.save(Path(name).name, File(stream), save=False)
        try:
            pending.save()
        except BaseException:
            pending.source_file.storage.delete(pending.source_file.name)
            raise
    finally:
        os.unlink(path)
    return pending


def problem_rows(pending: SuppressionImport) -> list[dict[str, object]]:
    """The kept bad lines of a pending import, worded in the reader's language."""
    return [
        {
            "line": problem["line"],
            "mobile": problem["mobile"],
            "reason": texts.code_text(str(problem["code"]), problem.get("params") or {}),
        }
        for problem in pending.problems
    ]


@audited(
    "sms",
    "suppression.import",
    lambda pending, user=None: (pending, f"file {pending.source_name}"),
)
def confirm_import(pending: SuppressionImport, user: StaffUser | None = None) -> int:
    """Add the good numbers of a checked file to the list (once); how many were new.

    The file is read again from the storage, so any web host can confirm; a number put on the
    list since the check is left as it is. SuppressionError if it was confirmed already.
    """
    claimed = SuppressionImport.objects.filter(pk=pending.pk, confirmed_at__isnull=True).update(
        confirmed_at=timezone.now()
    )
    if not claimed:
        raise SuppressionError(_("This file was already added; nothing was added twice."))
    try:
        with pending.source_file.open("rb") as stored:
            path = _local_copy(stored, Path(pending.source_name).suffix)
        try:
            read = _read_file(path)
        finally:
            os.unlink(path)
        with transaction.atomic():
            added = 0
            # Each line's own note wins over the one given for the whole file.
            by_note: dict[str, list[str]] = {}
            for line in read.good:
                by_note.setdefault(line.note or pending.note, []).append(line.mobile)
            for note, mobiles in by_note.items():
                added += _insert_new(mobiles, pending.reason, note, user)
            SuppressionImport.objects.filter(pk=pending.pk).update(added=added)
    except BaseException:
        # Let staff try again: the claim is released when nothing was added.
        SuppressionImport.objects.filter(pk=pending.pk).update(confirmed_at=None)
        raise
    pending.source_file.storage.delete(pending.source_file.name)
    pending.refresh_from_db()
    return added


def waiting_imports(limit: int = 20) -> QuerySet[SuppressionImport]:
    """Checked files nobody has confirmed or discarded yet, newest first."""
    return SuppressionImport.objects.filter(confirmed_at__isnull=True).select_related(
        "created_by"
    )[:limit]


def discard_import(pending: SuppressionImport) -> None:
    """Drop an unconfirmed file (its row and its stored copy)."""
    deleted, _counts = SuppressionImport.objects.filter(
        pk=pending.pk, confirmed_at__isnull=True
    ).delete()
    if not deleted:
        raise SuppressionError(_("This file was already added; it can no longer be discarded."))
    if pending.source_file:
        pending.source_file.storage.delete(pending.source_file.name)


def cancel_suppressed(campaign_id: int, chunk_id: int) -> int:
    """Cancel the chunk's queued messages whose number is on the list (code `SUPPRESSED`),
    with the campaign's counter, in one update; returns how many (rule 9 of the sending)."""
    with transaction.atomic():
        changed = Message.objects.filter(
            campaign_id=campaign_id,
            chunk_id=chunk_id,
            status=MessageStatus.QUEUED,
            mobile__in=SuppressedNumber.objects.values("mobile"),
        ).update(
            status=MessageStatus.CANCELLED,
            error_code=texts.SUPPRESSED,
            status_changed_at=timezone.now(),
        )
        if changed:
            Campaign.objects.filter(pk=campaign_id).update(
                cancelled_count=F("cancelled_count") + changed
            )
    return changed
