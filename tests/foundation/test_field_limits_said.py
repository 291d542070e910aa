"""Every input with a `maxlength` says its limit (issue 29, finding 12), whatever form it is
in: Django's widgets through the project's widget templates, hand-written inputs through the
same note. Every page without arguments is read, in English and in Chinese, and each input
with a `maxlength` must be described by a note saying that very limit."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db

NOTES = {"en": "At most {n} characters.", "zh-hans": "最多 {n} 个字符。"}
# Not staff pages: the admin, the API's answers, probes, and actions that sign out.
SKIPPED = ("admin/", "api/", "metrics", "health", "ready", "accounts/logout",
           "i18n/", "static/", "__")


def page_paths() -> list[str]:
    paths: list[str] = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            route = str(pattern.pattern)
            if "<" in route or "(?P" in route or "^" in route.lstrip("^") and "$" not in route:
                continue
            route = route.lstrip("^").rstrip("$")
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + route)
            elif isinstance(pattern, URLPattern):
                paths.append("/" + prefix + route)

    walk(get_resolver().url_patterns, "")
    return sorted(path for path in set(paths)
                  if not any(path[1:].startswith(skip) for skip in SKIPPED))


class Inputs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.limited: list[dict[str, str]] = []
        self.notes: dict[str, str] = {}
        self._note: str | None = None

    def handle_starttag(self, tag, attrs) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag in ("input", "textarea") and found.get("maxlength") and found.get(
                "type") != "hidden":
            self.limited.append(found)
        if "field-limit" in found.get("class", "").split() and found.get("id"):
            self._note = found["id"]
            self.notes[self._note] = ""

    def handle_data(self, data) -> None:
        if self._note is not None:
            self.notes[self._note] += data

    def handle_endtag(self, tag) -> None:
        if tag == "span":
            self._note = None


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_input_with_a_maxlength_says_its_limit(client, django_user_model, provider,
                                                      language):
    root = django_user_model.objects.create_superuser("root", password=None)
    client.force_login(root)
    client.cookies["django_language"] = language
    problems, inputs_seen = [], 0
    for path in page_paths():
        response = client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = Inputs()
        parser.feed(response.content.decode())
        for found in parser.limited:
            inputs_seen += 1
            name = found.get("name") or found.get("id")
            said = NOTES[language].format(n=found["maxlength"])
            notes = [parser.notes.get(ref, "") for ref in found.get(
                "aria-describedby", "").split()]
            if not any(note.strip() == said for note in notes):
                problems.append(f"{path} {name}: no “{said}” note describes it")
    assert inputs_seen >= 5, "the pages read hold almost no limited input: the crawl broke"
    assert problems == []
