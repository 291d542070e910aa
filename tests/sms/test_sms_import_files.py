"""File import: encodings Excel writes, every bad line named with its line number, totals,
then confirm or discard. Nothing is sent before staff confirm."""

from __future__ import annotations

import codecs
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sms import rules
from sms.models import Campaign, CampaignState, Chunk, Message
from sms.services import importing
from tests.sms.conftest import provider_report

pytestmark = pytest.mark.django_db

ROWS = "手机号,姓名,订单号\r\n13800138000,张三,SO1\r\n+86 139 0013 9000,李四,SO2\r\n"


def upload(client, template, content: bytes, name: str = "list.csv"):
    return client.post(
        reverse("sms:import"),
        {"template": template.pk, "file": SimpleUploadedFile(name, content)},
        follow=True,
    )


@pytest.fixture
def order_template(sms_template):
    return sms_template("order")


@pytest.mark.parametrize(
    ("encoded", "expected"),
    [
        (ROWS.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + ROWS.encode("utf-8"), "utf-8-sig"),
        (ROWS.encode("gbk"), "gb18030"),
    ],
)
def test_it_reads_utf8_utf8_with_bom_and_gbk_alike(
    operator_client, order_template, provider, encoded, expected
):
    response = upload(operator_client, order_template, encoded)

    campaign = Campaign.objects.get()
    assert response.redirect_chain[-1][0] == reverse("sms:campaign", args=[campaign.pk])
    assert (campaign.encoding, campaign.state) == (expected, CampaignState.DRAFT)
    assert campaign.skipped_header
    texts = list(
        Message.objects.order_by("line_number").values_list("line_number", "mobile", "text")
    )
    assert texts == [
        (2, "13800138000", "【示例商城】张三您好，订单SO1已发货。"),
        (3, "13900139000", "【示例商城】李四您好，订单SO2已发货。"),
    ]
    assert campaign.total_units == 2
    assert provider_report(provider) == []  # nothing sent before confirmation


def test_every_bad_line_is_listed_with_its_number_and_reason(operator_client, order_template):
    lines = [
        "13800138000,张三,SO1",  # 1 good
        "12345,李四,SO2",  # 2 bad number
        "",  # 3 blank: ignored
        "13900139000,王五",  # 4 missing variable
        "13700137000,赵六," + "长" * 340,  # 5 too long
        "+8613800138000,张三,SO5",  # 6 duplicate of line 1
        "13600136000,孙七,SO6,,,extra",  # 7 too many columns
        '13500135000,"周,八",SO7',  # 8 good: a quoted comma
    ]
    response = upload(operator_client, order_template, "\n".join(lines).encode())

    campaign = Campaign.objects.get()
    assert (campaign.total_numbers, campaign.bad_lines, campaign.lines_read) == (2, 5, 8)
    problems = {p.line_number: p.code for p in campaign.problems.all()}
    assert problems == {
        2: "ILLEGAL_MOBILE",
        4: "MISSING_VARIABLE",
        5: "MESSAGE_TOO_LONG",
        6: "DUPLICATE_MOBILE",
        7: "TOO_MANY_COLUMNS",
    }
    page = response.content.decode()
    assert "Duplicate number: +8613800138000 is already on line 1." in page
    assert "No value was given for the variable {$var2}." in page
    assert "bad number: 1" in page
    assert sorted(n or 0 for n in Message.objects.values_list("line_number", flat=True)) == [1, 8]


def test_the_bad_lines_download_lists_every_one(operator_client, order_template):
    upload(operator_client, order_template, b"12345,a,b\n13800138000,a,b\n1,a,b\n")
    campaign = Campaign.objects.get()

    response = operator_client.get(reverse("sms:campaign_problems_csv", args=[campaign.pk]))

    body = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert body[0] == "Line,Mobile as written,Reason"
    assert [line.split(",")[0] for line in body[1:]] == ["1", "3"]


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"", "list.csv", "file is empty"),
        (b"PK\x03\x04rest-of-a-zip", "list.csv", "Excel workbook"),
        (codecs.BOM_UTF16_LE + "13800138000".encode("utf-16-le"), "list.csv", "UTF-16"),
        (b"13800138000,\x00,x", "list.csv", "NUL bytes"),
        (b"13800138000,a,b", "list.xlsx", "Only .csv and .txt files"),
        (b"13800138000,\xff\x80,x", "list.txt", "neither UTF-8 nor GBK"),
    ],
)
def test_an_unreadable_file_is_refused_on_the_form_and_stores_nothing(
    operator_client, order_template, content, name, message
):
    response = upload(operator_client, order_template, content, name)

    page = response.content.decode()
    assert message in page.replace("&#x27;", "'").replace("&quot;", '"')
    assert 'data-field="file"' in page
    assert not Campaign.objects.exists()


def test_numbers_are_grouped_in_chunks_of_at_most_1000(operator_client, sms_template):
    template = sms_template()
    content = "\n".join(f"1380{n:07d},{n}" for n in range(2500)).encode()

    upload(operator_client, template, content, "big.txt")

    campaign = Campaign.objects.get()
    assert list(Chunk.objects.filter(campaign=campaign).values_list("number", "size")) == [
        (1, 1000),
        (2, 1000),
        (3, 500),
    ]
    assert campaign.total_numbers == 2500


def test_confirming_queues_the_campaign_and_discarding_drops_it(
    operator_client, order_template, django_capture_on_commit_callbacks
):
    upload(operator_client, order_template, ROWS.encode())
    campaign = Campaign.objects.get()
    assert campaign.source_file.name.endswith(".csv")

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        operator_client.post(reverse("sms:campaign_confirm", args=[campaign.pk]))
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.QUEUED
    assert len(callbacks) == 1  # the send task, queued once the transaction commits

    upload(operator_client, order_template, ROWS.encode())
    draft = Campaign.objects.get(state=CampaignState.DRAFT)
    operator_client.post(reverse("sms:campaign_discard", args=[draft.pk]), {"confirmed": "1"})
    assert not Campaign.objects.filter(pk=draft.pk).exists()
    assert not Message.objects.filter(campaign_id=draft.pk).exists()


def test_a_campaign_with_only_bad_lines_cannot_be_confirmed(operator_client, order_template):
    upload(operator_client, order_template, b"12345,a,b\n")
    campaign = Campaign.objects.get()

    response = operator_client.post(
        reverse("sms:campaign_confirm", args=[campaign.pk]), follow=True
    )

    campaign.refresh_from_db()
    assert campaign.state == CampaignState.DRAFT
    assert "nothing was done" in response.content.decode()


def test_the_fast_renderer_agrees_with_the_rules():
    generator = random.Random(3)
    alphabet = "ab好【 |{}$" + "字" * 5
    contents = [
        "{$var1}您好{$var2}",
        "码{$var3}尾",
        "{$var2}{$var1}{$var1}",
        "无变量文本",
        "x{$var0}y",
    ]
    for content in contents:
        for location in ("top", "bottom"):
            compiled = importing.CompiledTemplate(content, "示例商城", location)
            for _ in range(300):
                values = [
                    "".join(generator.choices(alphabet, k=generator.randrange(0, 200)))
                    for _ in range(generator.randrange(0, 5))
                ]
                expected = rules.preview_message(content, "示例商城", location, values)
                fast = compiled.render(values)
                if fast is not None:
                    assert expected.ok
                    assert fast == (expected.text, expected.units)
                elif expected.ok and expected.units is not None:
                    pytest.fail(f"fast path refused a good line: {content!r} {values!r}")


def test_values_with_tabs_backslashes_and_newlines_are_stored_verbatim(
    operator_client, order_template
):
    content = '13800138000,"张\t三\\","SO\n1"\n'.encode()

    upload(operator_client, order_template, content)

    message = Message.objects.get()
    assert message.values == ["张\t三\\", "SO\n1"]
    assert message.text == "【示例商城】张\t三\\您好，订单SO\n1已发货。"


def test_an_import_that_fails_while_storing_leaves_no_file_behind(
    order_template, settings, monkeypatch, tmp_path
):
    from sms.services import campaign_store

    source = tmp_path / "list.csv"
    source.write_text(ROWS, encoding="utf-8")

    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(campaign_store, "_save_totals", broken)
    with pytest.raises(RuntimeError):
        campaign_store.store_import(order_template, source, "list.csv")
    assert not Campaign.objects.exists()
    imports = settings.MEDIA_ROOT / "sms" / "imports"
    assert not imports.exists() or list(imports.iterdir()) == []
