"""In a real browser: import a suppression file, read its bad lines, confirm, find a number
and remove it after the confirmation page."""

from __future__ import annotations

from pathlib import Path

import pytest

from sms.models import SuppressedNumber


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_suppression_file_is_checked_confirmed_and_a_number_removed_in_the_browser(
    page, live_server, staff_login, tmp_path: Path
):
    path = tmp_path / "退订名单.csv"
    path.write_bytes("手机号,备注\r\n13800138000,回复TD\r\n12345\r\n13900139000\r\n".encode("gbk"))
    staff_login("operator", groups=("SMS operators",))

    page.goto(f"{live_server.url}/sms/")
    page.click('a[data-page="suppression"]')
    page.click("#import-suppression")
    page.set_input_files("#id_file", str(path))
    page.select_option("#id_reason", "unsubscribed")
    page.click("#check-file")

    page.wait_for_selector("#suppression-import-report")
    assert page.inner_text('[data-total="new"]') == "2"
    assert page.inner_text('[data-total="bad"]') == "1"
    assert page.locator("#bad-lines tbody tr").nth(0).get_attribute("data-line") == "3"
    assert not SuppressedNumber.objects.exists()

    page.click("#confirm-import")
    page.wait_for_selector("#suppressed-numbers")
    assert set(SuppressedNumber.objects.values_list("mobile", flat=True)) == {
        "13800138000", "13900139000"
    }

    page.fill("#id_number", "1380")
    page.click("#suppression-filters button[type=submit]")
    rows = page.locator("#suppressed-numbers tbody tr")
    assert rows.count() == 1 and "回复TD" in rows.nth(0).inner_text()
    rows.nth(0).locator("text=Remove").click()
    page.click("#confirm-action")

    page.wait_for_selector("#suppressed-numbers")
    assert list(SuppressedNumber.objects.values_list("mobile", flat=True)) == ["13900139000"]
