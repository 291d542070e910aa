"""A large import is written through one COPY held open while lines are judged, with chunk
rows made ahead in blocks: the stored campaign is the same as ever (every number in a chunk of
at most 1000, numbered in order, no chunk left over; every bad line listed with its number),
and a failure part-way stores nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db.models import Count

from sms.models import Campaign, Chunk, ImportProblem, Message
from sms.services import campaign_store, store_import
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db

GOOD = 2 * campaign_store.CHUNKS_AHEAD * campaign_store.CHUNK_SIZE + 500  # past two blocks
BAD_EVERY = 997


def write_file(path: Path) -> list[int]:
    bad_lines = []
    with path.open("w", encoding="utf-8") as target:
        target.write("mobile\n")
        line = 1
        for n in range(GOOD):
            line += 1
            if n % BAD_EVERY == 0:
                target.write("12345,1\n")
                bad_lines.append(line)
                line += 1
            target.write(f"139{n:08d},{n % 1000}\n")
    return bad_lines


def test_a_large_import_is_stored_whole_in_ordered_chunks(tmp_path: Path):
    path = tmp_path / "big.csv"
    bad_lines = write_file(path)

    campaign = store_import(local_template(), path, "big.csv")

    chunks = list(Chunk.objects.filter(campaign=campaign).order_by("number"))
    assert [chunk.number for chunk in chunks] == list(range(1, len(chunks) + 1))
    assert [chunk.size for chunk in chunks[:-1]] == [1000] * (len(chunks) - 1)
    assert chunks[-1].size == 500
    counted = dict(
        Message.objects.filter(campaign=campaign).values_list("chunk").annotate(n=Count("id"))
    )
    assert counted == {chunk.pk: chunk.size for chunk in chunks}
    assert campaign.total_numbers == GOOD == sum(counted.values())
    problems = ImportProblem.objects.filter(campaign=campaign).order_by("line_number")
    assert list(problems.values_list("line_number", flat=True)) == bad_lines
    assert campaign.bad_lines == len(bad_lines)


def test_a_failure_while_the_copy_is_open_stores_nothing(tmp_path: Path, monkeypatch):
    path = tmp_path / "big.csv"
    write_file(path)
    judged = 0
    original = campaign_store._Writer.good

    def failing_good(self, line):
        nonlocal judged
        judged += 1
        if judged == 5_000:  # batches already sent through the open COPY
            raise RuntimeError("disk full")
        original(self, line)

    monkeypatch.setattr(campaign_store._Writer, "good", failing_good)

    with pytest.raises(RuntimeError):
        store_import(local_template(), path, "big.csv")

    assert not Campaign.objects.exists()
    assert not Message.objects.exists() and not Chunk.objects.exists()
