"""The storage pages ship in English and Simplified Chinese: every message of the app's own
catalogue is translated, keeps its placeholders, and is what the pages show."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

CATALOGUE = Path(__file__).resolve().parents[2] / "storage/locale/zh_Hans/LC_MESSAGES/django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)s|%s")


def entries() -> list[tuple[str, str, str]]:
    """(flags, msgid, msgstr) of every entry but the header."""
    found = []
    for block in CATALOGUE.read_text(encoding="utf-8").split("\n\n")[1:]:
        flags = " ".join(line for line in block.splitlines() if line.startswith("#,"))
        msgid = "".join(re.findall(r'^(?:msgid|")\s*"?(.*?)"$', block.split("msgid_plural")[0]
                                   .split("msgstr")[0], re.M))
        msgstr = "".join(re.findall(r'"(.*)"', block.split("msgstr", 1)[1]))
        found.append((flags, msgid, msgstr))
    return found


def test_every_message_is_translated_and_none_is_fuzzy():
    untranslated = [msgid for flags, msgid, msgstr in entries() if not msgstr]
    fuzzy = [msgid for flags, msgid, _ in entries() if "fuzzy" in flags]
    assert untranslated == [] and fuzzy == []
    assert len(entries()) > 200


def test_translations_keep_every_placeholder():
    broken = [
        msgid for _flags, msgid, msgstr in entries()
        if sorted(PLACEHOLDER.findall(msgid)) != sorted(PLACEHOLDER.findall(msgstr))
    ]
    assert broken == []


@pytest.mark.django_db
def test_the_file_browser_speaks_simplified_chinese(manager_client, provider):
    html = manager_client.get(reverse("storage:index"), HTTP_ACCEPT_LANGUAGE="zh-hans"
                              ).content.decode()
    assert "将文件拖放到此处" in html and "在此目录中搜索" in html and "创建目录" in html
    config = html.split('id="storage-config"')[1]
    assert "\\u7ee7\\u7eed\\u4e0a\\u4f20" in config  # "继续上传" for the script, JSON-escaped
