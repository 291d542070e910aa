"""Django merges every app's catalogue into one, and the first app (or the root `locale/`)
wins a msgid they share: an English word translated one way in one app and another way in
another is shown in the winner's sense everywhere (issue 29, walk-through: a failed media job
read "发送失败", a top-up provider code column "验证码"). So a shared msgid has one
translation; a word with two senses is given a context in one of its places. The installed
libraries listed before our apps win too (django-celery-beat's "Name" read 任务名, Django
REST framework's "content" 内容主体): our words may not differ from theirs either."""

from __future__ import annotations

import gettext
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_msgid_shared_by_catalogues_has_one_translation():
    senses: dict[str, dict[str, str]] = defaultdict(dict)
    catalogues = [path for path in ROOT.glob("**/locale/zh_Hans/LC_MESSAGES/django.mo")
                  if ".venv" not in path.parts and "sandbox" not in path.parts]
    for path in catalogues:
        with path.open("rb") as stream:
            catalogue = gettext.GNUTranslations(stream)._catalog  # type: ignore[attr-defined]
        for key, text in catalogue.items():
            msgid = key[0] if isinstance(key, tuple) else key
            if msgid and (not isinstance(key, tuple) or key[1] == 0):
                senses[msgid][str(path.relative_to(ROOT).parts[0])] = text
    import django_celery_beat
    import rest_framework

    for library in (django_celery_beat, rest_framework):
        folder = Path(str(library.__file__)).parent
        for path in folder.glob("locale/zh_Hans/LC_MESSAGES/django.mo"):
            with path.open("rb") as stream:
                catalogue = gettext.GNUTranslations(stream)._catalog  # type: ignore[attr-defined]
            for key, text in catalogue.items():
                if isinstance(key, str) and key in senses:
                    senses[key][library.__name__] = text
    clashes = {msgid: found for msgid, found in senses.items() if len(set(found.values())) > 1}
    assert len(catalogues) >= 6 and clashes == {}
