"""In a real browser: a content manager opens a video in the storage file browser, follows
its Snapshot link, takes the frame at 00:00:04 and sees the image, the frame of that moment."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from tests.media_fixtures import MediaLab, colour_at

TOLERANCE = 40


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_snapshot_taken_from_the_file_browser_is_shown(lab, page, live_server, staff_login):
    staff_login("content-manager", groups=("Content managers",))
    page.goto(f"{live_server.url}/storage/?path=/videos")
    row = page.locator('tr[data-name="pattern.mp4"]')
    row.locator("details.row-menu summary").click()  # the row's other actions, folded
    row.get_by_role("link", name="Snapshot", exact=True).click()
    page.wait_for_url(re.compile(r"/media/snapshot/\?service=[a-z-]+&path="))
    assert page.input_value("#id_source") == MediaLab.VIDEO
    assert page.input_value("#id_save_as") == "/videos/pattern_00-00-00.jpg"
    page.fill("#id_point", "00:00:04")
    page.select_option("#id_image_format", "png")
    # the suggested name follows the time point and the format
    assert page.input_value("#id_save_as") == "/videos/pattern_00-00-04.png"
    page.click("#run")
    page.wait_for_url(re.compile(r"/media/jobs/\d+/$"))

    image = page.locator("#snapshot-image")
    page.wait_for_function(
        "() => { const i = document.querySelector('#snapshot-image');"
        " return i && i.complete && i.naturalWidth > 0; }")
    size = image.evaluate("i => [i.naturalWidth, i.naturalHeight]")
    assert size == [lab.media.spec.width, lab.media.spec.height]
    assert page.locator(".media-state").first.get_attribute("data-state") == "succeeded"

    shot = Image.open(io.BytesIO(image.screenshot())).convert("RGB")
    centre = shot.getpixel((shot.width // 2, shot.height // 2))
    assert isinstance(centre, tuple)
    expected = colour_at(4)
    assert all(abs(got - want) <= TOLERANCE for got, want in zip(centre, expected, strict=True))
