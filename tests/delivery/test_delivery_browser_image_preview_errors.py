"""In a real browser: an image builder value the rules refuse is shown once, beside its field,
and the live preview points to the marked fields instead of repeating the message."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCALE_ERROR = "Must be a whole number from 1 to 1000, not “1500”."


def test_a_field_error_is_shown_beside_its_field_and_not_again_in_the_preview(
        page: Any, live_server: Any, staff_login: Any, domain: Any) -> None:
    staff_login("manager", groups=("Content managers",))
    page.goto(f"{live_server.url}/delivery/images/?path=/a.png&mode=params&key_scale=1500")
    note = page.locator("#dl-preview-errors li")
    note.wait_for()
    assert note.all_inner_texts() == ["Correct the marked fields to see the image."]
    beside = page.locator('.dl-field[data-field="key_scale"] .errorlist p')
    assert beside.all_inner_texts() == [SCALE_ERROR]
    assert page.content().count(SCALE_ERROR) == 1

    # Typing a good value clears the mark; a new bad one is marked at its own field.
    page.fill("#id_key_scale", "")
    page.fill("#id_key_quality", "0")
    page.locator('.dl-field[data-field="key_quality"] .errorlist p').wait_for()
    assert page.locator('.dl-field[data-field="key_scale"] .errorlist').count() == 0
    assert "quality:" not in page.locator("#dl-preview-errors").inner_text()
