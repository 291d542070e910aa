"""Plurals go through ngettext: no message of any catalogue, in English or in Chinese, spells
one as "(s)" (a reader of Chinese, which has no plural ending, would see the stray letters; an
English reader a shrug), and neither does any text the back-office writes for people to read
(audit summaries, command output)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(ROOT.glob("*/locale/zh_Hans/LC_MESSAGES/*.po")) + sorted(
    ROOT.glob("locale/zh_Hans/LC_MESSAGES/*.po"))
# "http(s)://" is a way of writing two schemes, not a plural.
PLURAL_BY_HAND = re.compile(r"(?<!http)(?<=\w)\(s\)")
SOURCES = ("backoffice", "console", "sms", "topup", "storage", "media", "delivery",
           "providerkit", "templates", "static", "scripts", "bench")


def strings(path: Path) -> list[str]:
    """Every msgid, msgid_plural and msgstr of a catalogue (comments left out)."""
    found, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(("msgid ", "msgid_plural ", "msgstr ", "msgstr[")):
            if current is not None:
                found.append(current)
            current = line.split(" ", 1)[1].strip('"')
        elif line.startswith('"') and current is not None:
            current += line.strip('"')
        elif current is not None:
            found.append(current)
            current = None
    if current is not None:
        found.append(current)
    return found


def test_the_check_reads_every_catalogue() -> None:
    assert len(CATALOGUES) >= 7
    assert PLURAL_BY_HAND.search("file(s)") and PLURAL_BY_HAND.search("文件(s)")
    assert not PLURAL_BY_HAND.search("http(s)://host")


def test_no_catalogue_string_writes_a_plural_as_s_in_brackets() -> None:
    found = [f"{path.relative_to(ROOT)}: {text}" for path in CATALOGUES
             for text in strings(path) if PLURAL_BY_HAND.search(text)]
    assert found == []


def test_no_source_writes_a_plural_as_s_in_brackets() -> None:
    """Migrations are history (never edited), and vendored libraries (static/vendor) are not
    ours to word, so they are left out."""
    found = [f"{path.relative_to(ROOT)}:{number}" for top in SOURCES
             for path in sorted((ROOT / top).rglob("*"))
             if path.suffix in (".py", ".html", ".js", ".txt")
             and not {"migrations", "vendor"} & set(path.parts)
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if PLURAL_BY_HAND.search(line)]
    assert found == []
