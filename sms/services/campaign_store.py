"""Writing campaigns: an import file or a list of recipients becomes Campaign, Chunk and
Message rows, in batches, inside one transaction (a file that cannot be read stores nothing).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.core.files import File
from django.core.files.uploadedfile import UploadedFile
from django.db import connection, transaction

from backoffice.annotations import StaffUser
from sms.client import MAX_NUMBERS_PER_SEND
from sms.models import (
    Campaign,
    CampaignSource,
    CampaignState,
    Chunk,
    ImportProblem,
    MessageStatus,
    Template,
)
from sms.services import importing, suppression
from sms.services.bulk import MessageRow, MessageSink
from sms.services.words import listed_words

CHUNK_SIZE = MAX_NUMBERS_PER_SEND  # one chunk is at most what one send call may carry
BATCH_SIZE = 2000  # rows per INSERT
CHUNKS_AHEAD = 32  # chunk rows created at a time


@dataclass
class _Totals:
    numbers: int = 0
    units: int = 0
    bad_lines: int = 0


class _Writer:
    """Collects rows of one campaign and writes them in batches, opening chunks as it goes.

    Messages go through a MessageSink, whose COPY stays open while lines are judged; any other
    write (chunk rows, problems) closes it first. Chunk rows are created CHUNKS_AHEAD at a
    time, full-sized, so that a COPY is interrupted once per 32,000 numbers rather than once
    per chunk; `finish` trims the last one and removes those left unused.
    """

    def __init__(self, campaign: Campaign, sink: MessageSink) -> None:
        self.campaign = campaign
        self.campaign_id: int = campaign.pk
        self.sink = sink
        self.totals = _Totals()
        self.messages: list[MessageRow] = []
        self.problems: list[ImportProblem] = []
        self.chunk_ids: list[int] = []  # created ahead, in number order, not yet used
        self.chunk_id = 0
        self.chunk_count = 0
        self.chunk_size = 0

    def good(self, line: importing.GoodLine) -> None:
        if self.chunk_count == 0 or self.chunk_size == CHUNK_SIZE:
            self._next_chunk()
        self.chunk_size += 1
        self.totals.numbers += 1
        self.totals.units += line.units
        self.messages.append(
            MessageRow(
                self.campaign_id,
                self.chunk_id,
                line.line_number,
                line.mobile,
                "|".join(line.variables),
                line.text,
                line.units,
                line.carrier,
                MessageStatus.QUEUED,
                self.campaign.created_at,
            )
        )
        if len(self.messages) >= BATCH_SIZE:
            self._flush_messages()

    def bad(self, line: importing.BadLine) -> None:
        self.totals.bad_lines += 1
        for problem in line.problems:
            self.problems.append(
                ImportProblem(
                    campaign_id=self.campaign_id,
                    line_number=line.line_number,
                    mobile=line.mobile,
                    code=problem.code,
                    params=dict(problem.params),
                )
            )
        if len(self.problems) >= BATCH_SIZE:
            self._flush_problems()

    def finish(self) -> _Totals:
        self._flush_messages()
        self.sink.close()
        self._flush_problems()
        if self.chunk_ids:
            # Straight SQL: Django's delete would first look for messages of these (empty)
            # chunks, and sms_message has no index on chunk_id.
            with connection.cursor() as cursor:
                cursor.execute(
                    f"DELETE FROM {Chunk._meta.db_table} WHERE id IN "
                    f"({', '.join(['%s'] * len(self.chunk_ids))})",
                    self.chunk_ids,
                )
        if self.chunk_count and self.chunk_size != CHUNK_SIZE:
            Chunk.objects.filter(pk=self.chunk_id).update(size=self.chunk_size)
        return self.totals

    def _next_chunk(self) -> None:
        if not self.chunk_ids:
            self._flush_messages()
            self.sink.close()
            created = Chunk.objects.bulk_create(
                Chunk(campaign_id=self.campaign_id, number=number, size=CHUNK_SIZE)
                for number in range(self.chunk_count + 1, self.chunk_count + CHUNKS_AHEAD + 1)
            )
            self.chunk_ids = [chunk.pk for chunk in created]
        self.chunk_id = self.chunk_ids.pop(0)
        self.chunk_count += 1
        self.chunk_size = 0

    def _flush_messages(self) -> None:
        if self.messages:
            self.sink.write(self.messages)
            self.messages = []

    def _flush_problems(self) -> None:
        if self.problems:
            self.sink.close()
            ImportProblem.objects.bulk_create(self.problems, batch_size=BATCH_SIZE)
            self.problems = []


def _judge_for(template: Template) -> importing.LineJudge:
    return importing.LineJudge(template.content, template.temp_sign, template.sign_location,
                               blocked_words=listed_words())


def _save_totals(campaign: Campaign, totals: _Totals, **extra: object) -> None:
    campaign.total_numbers = totals.numbers
    campaign.total_units = totals.units
    campaign.bad_lines = totals.bad_lines
    for name, value in extra.items():
        setattr(campaign, name, value)
    campaign.save()


def store_import(
    template: Template, path: Path, name: str, user: StaffUser | None = None
) -> Campaign:
    """Validate the file at `path` and store it as a draft campaign with its bad lines.

    Raises importing.ImportFileError (nothing stored) when the file as a whole is unreadable.
    """
    importing.check_name(name)
    encoding = importing.detect_encoding(path)
    judge = _judge_for(template)
    stats = importing.ReadStats()
    kept_file: str | None = None
    try:
        with transaction.atomic():
            campaign = Campaign.objects.create(
                template=template,
                source=CampaignSource.IMPORT,
                source_name=name[:255],
                encoding=encoding,
                created_by=user,
                state=CampaignState.DRAFT,
            )
            with MessageSink() as sink:
                writer = _Writer(campaign, sink)
                for line in importing.read_lines(path, encoding, judge, stats):
                    if isinstance(line, importing.GoodLine):
                        writer.good(line)
                    else:
                        writer.bad(line)
                totals = writer.finish()
            # After the COPY: one semi-join with the suppression list, not a lookup per line.
            aside = suppression.set_aside_stored(campaign)
            totals.numbers -= aside.lines
            totals.units -= aside.units
            with path.open("rb") as stream:
                campaign.source_file.save(Path(name).name, File(stream), save=False)
            kept_file = campaign.source_file.name
            _save_totals(
                campaign,
                totals,
                lines_read=stats.lines_read,
                skipped_header=stats.header_skipped,
                suppressed_lines=aside.lines,
            )
    except BaseException:
        # The rows are rolled back; the file storage is not transactional, so its copy goes
        # by hand (nothing else would ever point at it).
        if kept_file:
            campaign.source_file.storage.delete(kept_file)
        raise
    return campaign


def store_upload(
    template: Template, upload: UploadedFile, user: StaffUser | None = None
) -> Campaign:
    """Store an uploaded file as a draft campaign (see `store_import`)."""
    name = upload.name or "import.csv"
    importing.check_name(name)
    if upload.size is not None:
        importing.check_size(upload.size)
    temporary_path = getattr(upload, "temporary_file_path", None)
    if temporary_path is not None:
        return store_import(template, Path(temporary_path()), name, user)
    # Small uploads are held in memory by Django; give the reader a real file to stream.
    handle, raw_path = tempfile.mkstemp(suffix=Path(name).suffix)
    try:
        with os.fdopen(handle, "wb") as target:
            for block in upload.chunks():
                target.write(block)
        return store_import(template, Path(raw_path), name, user)
    finally:
        os.unlink(raw_path)


def store_recipients(
    template: Template,
    lines: Iterable[importing.GoodLine],
    source: str = CampaignSource.FORM,
    user: StaffUser | None = None,
) -> Campaign:
    """Store already judged recipients (send page, command line) as a draft campaign."""
    with transaction.atomic():
        campaign = Campaign.objects.create(
            template=template, source=source, created_by=user, state=CampaignState.DRAFT
        )
        with MessageSink() as sink:
            writer = _Writer(campaign, sink)
            for line in lines:
                writer.good(line)
            totals = writer.finish()
        _save_totals(campaign, totals)
    return campaign
