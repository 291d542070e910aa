"""Every form shows its errors in one style (issue 29, finding 16): one sentence a line in an
announced `.errorlist`, through includes/field_errors.html or Django's error lists rendered by
the project's template (templates/django/forms/errors/list/), never a template's own loop, and
never starting with a field's key. Checked in the templates' sources and on refused forms in
English and in Chinese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ("templates/includes/", "templates/django/forms/", "templates/rest_framework/")
# A template's own loop over a form's errors (the include and Django's list are the shared way).
OWN_LOOP = re.compile(r"\{%\s*for\s+\w+\s+in\s+[\w.]+\.(?:errors|non_field_errors|non_form_errors)"
                      r"\s*%\}")


def templates() -> list[Path]:
    found = []
    for path in ROOT.glob("**/templates/**/*.html"):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith((".venv", "sandbox/")) or relative.startswith(SHARED):
            continue
        found.append(path)
    return found


def test_no_template_lists_form_errors_its_own_way():
    own = [f"{path.relative_to(ROOT)}: {match.group(0)}" for path in templates()
           for match in OWN_LOOP.finditer(path.read_text(encoding="utf-8"))]
    # The suppression filter names each field in words before its problem (shown away from
    # the fields, above the table): one sentence a line in the same .errorlist.
    own = [line for line in own if not line.startswith("sms/templates/sms/suppression_list")]
    assert len(templates()) > 50 and own == []


REFUSED = {
    "en": "This field is required.",
    "zh-hans": "该字段是必填项。",
}
FORMS = [
    ("/topup/products/new/", {"code": ""}),  # Django's as_div
    ("/delivery/purge/", {"urls": ""}),
    ("/services/new/", {"name": ""}),
    ("/sms/words/", {"words": ""}),
]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_refused_forms_show_their_errors_in_one_style(client, django_user_model, provider,
                                                       language):
    client.force_login(django_user_model.objects.create_superuser("root", password=None))
    client.cookies["django_language"] = language
    for path, data in FORMS:
        html = client.post(path, data).content.decode()
        lists = re.findall(r'<(\w+) class="errorlist[^"]*"[^>]*>(.*?)</\1>', html, re.S)
        assert lists, f"{path}: no error shown"
        for tag, body in lists:
            assert tag == "div", f"{path}: an error list as <{tag}>"
            sentences = re.findall(r"<p>(.*?)</p>", body, re.S)
            assert sentences, f"{path}: an error list without its sentences"
            for sentence in sentences:
                assert not re.match(r"^[a-z_]+: ", sentence), f"{path}: a raw key: {sentence}"
        if path.startswith("/topup/"):
            assert REFUSED[language] in html, path
        assert 'class="errors"' not in html
