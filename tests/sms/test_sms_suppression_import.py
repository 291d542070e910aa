"""Importing a suppression file: the encodings of a campaign import, every bad line shown by
its number, nothing added before the confirmation, then only the good numbers, once."""

from __future__ import annotations

import codecs

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from backoffice.models import AuditEntry
from sms.models import SuppressedNumber, SuppressionImport

pytestmark = pytest.mark.django_db

FILE = (
    "手机号,备注\r\n"
    "13800138000,回复TD\r\n"
    "+86 139 0013 9000\r\n"
    "12345,短号\r\n"
    "13800138000,again\r\n"
    "15000000000,a,b\r\n"
    "\r\n"
    "15100000000\r\n"
)


def check(client, content: bytes, name: str = "numbers.csv", **fields: str):
    return client.post(
        reverse("sms:suppression_import"),
        {"file": SimpleUploadedFile(name, content), "reason": "unsubscribed", **fields},
        follow=True,
    )


@pytest.fixture(autouse=True)
def one_number_known(db):
    SuppressedNumber.objects.create(mobile="15100000000", reason="complaint")


@pytest.mark.parametrize(
    ("encoded", "encoding"),
    [
        (FILE.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + FILE.encode("utf-8"), "utf-8-sig"),
        (FILE.encode("gbk"), "gb18030"),
    ],
)
def test_the_check_lists_bad_lines_by_number_and_adds_nothing_yet(
    operator_client, encoded, encoding
):
    response = check(operator_client, encoded)

    pending = SuppressionImport.objects.get()
    page = response.content.decode()
    assert pending.encoding == encoding and pending.skipped_header
    assert (pending.new_numbers, pending.known_numbers, pending.bad_lines) == (2, 1, 3)
    reasons = {row["line"]: row["reason"] for row in response.context["problems"]}
    assert reasons == {
        4: "“12345” is not a mainland China mobile number: it does not have 11 digits.",
        5: "Duplicate number: 13800138000 is already on line 2.",
        6: "The line has 3 columns; a suppression file has at most 2 (the mobile and a note).",
    }
    assert 'data-line="4"' in page and "Add 2 numbers to the list" in page
    assert list(SuppressedNumber.objects.values_list("mobile", flat=True)) == ["15100000000"]


def test_confirming_adds_only_the_good_new_numbers_once(operator_client, operator):
    check(operator_client, FILE.encode("gbk"), note="2026年11月退订")
    pending = SuppressionImport.objects.get()
    confirm = reverse("sms:suppression_import_confirm", args=[pending.pk])

    operator_client.post(confirm)
    again = operator_client.post(confirm, follow=True)

    entries = {
        entry.mobile: (entry.reason, entry.note, entry.created_by)
        for entry in SuppressedNumber.objects.all()
    }
    assert entries == {
        "13800138000": ("unsubscribed", "回复TD", operator),  # the line's own note wins
        "13900139000": ("unsubscribed", "2026年11月退订", operator),
        "15100000000": ("complaint", "", None),  # already there: left as it was
    }
    assert "already added; nothing was added twice" in again.content.decode()
    pending.refresh_from_db()
    assert pending.added == 2 and pending.confirmed_at is not None
    assert not pending.source_file.storage.exists(pending.source_file.name)
    assert AuditEntry.objects.filter(action="suppression.import", outcome="ok").count() == 1


def test_discarding_a_checked_file_adds_nothing_and_drops_its_copy(operator_client):
    check(operator_client, FILE.encode())
    pending = SuppressionImport.objects.get()
    stored = pending.source_file.name
    assert pending.source_file.storage.exists(stored)

    url = reverse("sms:suppression_import_discard", args=[pending.pk])
    question = operator_client.post(url).content.decode()
    assert 'id="confirmation"' in question and "Discard the checked file" in question
    assert "Its 2 new numbers are not added to the suppression list." in question
    assert SuppressionImport.objects.exists()

    operator_client.post(url, {"confirmed": "1"})

    assert not SuppressionImport.objects.exists()
    assert not pending.source_file.storage.exists(stored)
    assert SuppressedNumber.objects.count() == 1


@pytest.mark.parametrize(
    ("content", "name", "words"),
    [
        (b"PK\x03\x04rest", "numbers.csv", "Excel workbook"),
        (b"13800138000\n", "numbers.xlsx", "Only .csv and .txt files"),
        (b"", "numbers.txt", "empty"),
        (codecs.BOM_UTF16_LE + "13800138000".encode("utf-16-le"), "numbers.txt", "UTF-16"),
    ],
)
def test_an_unreadable_file_is_refused_on_the_file_field(operator_client, content, name, words):
    response = check(operator_client, content, name)

    assert words in " ".join(response.context["form"].errors["file"])
    assert not SuppressionImport.objects.exists()


def test_a_note_longer_than_kept_is_a_bad_line_naming_its_length(operator_client):
    response = check(operator_client, ("13800138000," + "x" * 201 + "\n13900139000\n").encode())

    assert [row["reason"] for row in response.context["problems"]] == [
        "The note has 201 characters; at most 200 are kept."
    ]
    assert SuppressionImport.objects.get().new_numbers == 1


def test_a_file_without_a_good_line_offers_no_confirmation(operator_client):
    response = check(operator_client, b"123\n456\n")

    page = response.content.decode()
    assert 'id="confirm-import"' not in page
    assert "No line of the file adds a number to the list." in page


def test_a_checked_file_waits_on_the_import_page_until_confirmed(operator_client):
    check(operator_client, FILE.encode(), name="waiting.csv")
    pending = SuppressionImport.objects.get()
    link = reverse("sms:suppression_import_check", args=[pending.pk])

    before = operator_client.get(reverse("sms:suppression_import")).content.decode()
    operator_client.post(reverse("sms:suppression_import_confirm", args=[pending.pk]))
    after = operator_client.get(reverse("sms:suppression_import")).content.decode()

    assert link in before and "waiting.csv" in before
    assert link not in after


def test_an_added_file_is_not_offered_for_discarding(operator_client):
    check(operator_client, FILE.encode())
    pending = SuppressionImport.objects.get()
    operator_client.post(reverse("sms:suppression_import_confirm", args=[pending.pk]))

    answer = operator_client.post(reverse("sms:suppression_import_discard", args=[pending.pk]),
                                  {"confirmed": "1"}, follow=True)

    page = answer.content.decode()
    assert 'id="confirmation"' not in page
    assert "This file was already added; it can no longer be discarded." in page
    assert SuppressionImport.objects.filter(pk=pending.pk).exists()
