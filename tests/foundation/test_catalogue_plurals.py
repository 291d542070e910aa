"""Plurals go through ngettext: no message of any catalogue spells one as "(s)" (a reader of
Chinese, which has no plural ending, would see the stray letters; an English reader a shrug)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(ROOT.glob("*/locale/zh_Hans/LC_MESSAGES/*.po")) + sorted(
    ROOT.glob("locale/zh_Hans/LC_MESSAGES/*.po"))
PLURAL_BY_HAND = re.compile(r"\w\(s\)")


def msgids(path: Path) -> list[str]:
    ids, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(("msgid ", "msgid_plural ")):
            if current is not None:
                ids.append(current)
            current = line.split(" ", 1)[1].strip('"')
        elif line.startswith('"') and current is not None:
            current += line.strip('"')
        elif current is not None:
            ids.append(current)
            current = None
    return ids


def test_the_check_reads_every_catalogue() -> None:
    assert len(CATALOGUES) >= 6
    assert PLURAL_BY_HAND.search("file(s)") and not PLURAL_BY_HAND.search("http://")


def test_no_message_writes_a_plural_as_s_in_brackets() -> None:
    found = [f"{path.relative_to(ROOT)}: {text}" for path in CATALOGUES
             for text in msgids(path) if PLURAL_BY_HAND.search(text)]
    assert found == []
