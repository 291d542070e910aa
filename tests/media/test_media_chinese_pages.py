"""The media pages in Simplified Chinese: the catalogue is complete and the pages use it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

CATALOGUE = Path(__file__).resolve().parents[2] / "media/locale/zh_Hans/LC_MESSAGES/django.po"


def test_every_message_has_a_chinese_translation():
    entries = CATALOGUE.read_text(encoding="utf-8").split("\n\n")[1:]
    assert entries
    for entry in entries:
        assert "#, fuzzy" not in entry, entry
        body = entry[entry.index("msgstr"):]
        assert body.strip() not in ('msgstr ""', 'msgstr[0] ""'), entry


@pytest.mark.django_db
def test_the_tool_pages_speak_chinese(operator_client):
    operator_client.cookies["django_language"] = "zh-hans"
    html = operator_client.post(reverse("media:snapshot"), {
        "source": "videos/a.mp4", "point": "9", "save_as": "/a.gif"}).content.decode()
    assert "截图" in html
    assert "存储路径须以 / 开头" in html
    assert "请按 HH:MM:SS 输入时间" in html
    assert "请让文件名以 .jpg、.png 或 .webp 结尾" in html
