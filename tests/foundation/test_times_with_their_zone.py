"""Times with their zone: a time read by someone elsewhere (a lockout's end, a provider's last
answer) is not taken for their own clock's. Each page ends naming the zone of its times, and
`zoned` writes a time with its zone's offset at that moment."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.template.loader import render_to_string
from django.utils import timezone, translation

from backoffice.ui import times


def test_a_time_is_written_with_the_offset_of_its_zone():
    moment = datetime(2026, 11, 25, 7, 12, 23, tzinfo=UTC)
    assert times.zoned(moment, "Y-m-d H:i:s") == "2026-11-25 15:12:23 UTC+08:00"
    assert times.zoned(moment, "H:i") == "15:12 UTC+08:00"


def test_a_zone_with_summer_time_gives_the_offset_of_the_moment():
    with timezone.override("Europe/Berlin"):
        assert times.zoned(datetime(2026, 1, 5, 12, 0, tzinfo=UTC), "H:i") == "13:00 UTC+01:00"
        assert times.zoned(datetime(2026, 7, 5, 12, 0, tzinfo=UTC), "H:i") == "14:00 UTC+02:00"
    with timezone.override("America/St_Johns"):
        assert times.utc_offset(datetime(2026, 1, 5, 12, 0, tzinfo=UTC)) == "UTC-03:30"


@pytest.mark.django_db
def test_every_page_names_the_zone_of_its_times(client, make_user):
    assert "Times are in Asia/Shanghai (UTC+08:00)." in client.get(
        "/accounts/login/").content.decode()
    client.force_login(make_user("ann", "SMS operators"))
    assert "Times are in Asia/Shanghai (UTC+08:00)." in client.get("/").content.decode()


def test_the_lockout_page_names_the_zone_of_its_retry_time(rf):
    request = rf.get("/accounts/login/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    page = render_to_string("registration/locked_out.html",
                            {"message": "Try again after 15:12.", "login_url": "/"}, request)
    assert "Times are in Asia/Shanghai (UTC+08:00)." in page


def test_the_note_is_translated():
    with translation.override("zh-hans"):
        from backoffice.templatetags.times import time_zone_note

        assert time_zone_note() == "时间均为 Asia/Shanghai（UTC+08:00）。"


@pytest.mark.django_db
def test_a_providers_last_answer_is_shown_with_its_zone():
    from backoffice.models import ProviderContact

    contact = ProviderContact(service="sms", ok=True,
                              at=datetime(2026, 11, 25, 7, 12, 23, tzinfo=UTC))
    html = render_to_string("backoffice/contact.html", {"contact": contact})
    assert "Provider answered at 2026-11-25 15:12:23 UTC+08:00" in html
