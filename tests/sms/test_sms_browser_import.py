"""In a real browser: import a file through the page, read the report, confirm, and watch
the campaign's progress bar reach 100% while a real Celery worker sends it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sms.models import Campaign, CampaignState
from tests.sms.conftest import provider_report, sandbox_settings


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_file_imported_in_the_browser_is_sent_to_the_end(
    page, live_server, staff_login, provider, redis_url, sms_template, tmp_path: Path
):
    from celery.contrib.testing.worker import start_worker

    from backoffice.celery import app

    sandbox_settings(provider, general=100_000)
    template = sms_template("plain")
    good = [f"1370{n:07d}" for n in range(2100)]
    lines = ["手机号", *good[:1000], "12345", *good[1000:], good[5]]
    path = tmp_path / "名单.csv"
    path.write_bytes("\r\n".join(lines).encode("gbk"))
    # Slow the provider down a little, so that the bar is seen moving.
    provider.add_fault(
        service="sms", path="^/api/messages$", method="POST", action="delay", delay_ms=600
    )
    staff_login("operator", groups=("SMS operators",))

    page.goto(f"{live_server.url}/sms/")
    page.click('a[data-page="import"]')
    page.select_option("#id_template", str(template.pk))
    page.set_input_files("#id_file", str(path))
    page.click("#check-file")

    page.wait_for_selector("#import-report")
    assert page.inner_text('[data-total="numbers"]') == "2,100"
    assert page.inner_text('[data-total="bad"]') == "2"
    rows = page.locator("#bad-lines tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).get_attribute("data-line") == "1002"
    assert "Duplicate number" in rows.nth(1).inner_text()
    assert provider_report(provider) == []

    with start_worker(app, perform_ping_check=False, pool="solo"):
        page.click("#confirm-campaign")
        page.wait_for_selector("#campaign-progress-card")
        seen: set[int] = set()
        for _ in range(600):
            value = int(page.get_attribute("#sending-progress", "value") or 0)
            seen.add(value)
            if value == 100:
                break
            page.wait_for_timeout(100)
        page.wait_for_function(
            "() => document.getElementById('campaign-state').textContent.trim() === 'Done'"
        )

    assert 100 in seen
    assert re.search(r"100%", page.inner_text("#sending-percent"))
    campaign = Campaign.objects.get()
    assert campaign.state == CampaignState.DONE and campaign.accepted_count == 2100
    assert len(provider_report(provider)) == 2100
