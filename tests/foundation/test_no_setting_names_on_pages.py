"""Staff pages speak in words, not in the names of the server's settings (issue 29,
walk-through): no environment variable the back-office reads (DELIVERY_TOKEN_SECRET,
STORAGE_OPERATOR, ...) appears in the text of any page, in English or in Chinese; those are
operators' business (README, the readiness page). A media job that failed without a recorded
reason still says what to do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.foundation.test_field_limits_said import page_paths

pytestmark = pytest.mark.django_db

SETTINGS = Path(__file__).resolve().parents[2] / "backoffice" / "settings.py"
NAMES = set(re.findall(r'env\.\w+\(\s*"([A-Z][A-Z0-9_]+)"', SETTINGS.read_text()))


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_no_page_names_a_setting(client, django_user_model, provider, language):
    assert "DELIVERY_TOKEN_SECRET" in NAMES and len(NAMES) > 30
    client.force_login(django_user_model.objects.create_superuser("root", password=None))
    client.cookies["django_language"] = language
    found = []
    for path in [*page_paths(), "/delivery/settings/"]:
        response = client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        text = visible_text(response.content.decode())
        words = set(re.findall(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", text))
        found += [f"{path}: {name}" for name in sorted(words & NAMES)]
    assert found == []


FAILED = {"en": "No reason was recorded. Check the output in the file browser",
          "zh-hans": "未记录失败原因。请先在文件浏览器中检查输出文件"}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_job_failed_without_a_reason_says_what_to_do(client, django_user_model, language):
    from media.models import JobKind, JobState, ProcessingJob
    from tests.services_support import some_service

    job = ProcessingJob.objects.create(service=some_service(), kind=JobKind.MEDIA_INFO,
                                       state=JobState.FAILED, sources=["/a.mp4"])
    client.force_login(django_user_model.objects.create_superuser("root", password=None))
    client.cookies["django_language"] = language
    html = client.get(f"/media/jobs/{job.pk}/").content.decode()
    assert FAILED[language] in html
