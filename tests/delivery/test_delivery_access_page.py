"""The Access page: region restriction, origin authentication and the external-links switch
saved on their own; bad values refused at their field (and line), with nothing stored; the
switch off confirmed naming the domain; "try it" showing what the auth URL answered; Auditors
read only."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from console.services import default_domain
from delivery.models import DeliverySettings
from tests.auth_server import UNREACHABLE_URL, AuthServer

pytestmark = pytest.mark.django_db
URL = "/delivery/access/"


def auth_data(**fields: Any) -> dict[str, Any]:
    values = {"panel": "origin_auth", "action": "save",
              "origin_auth_url": "https://shop.example.com/cdn-auth", "origin_auth_timeout": "3",
              "origin_auth_timeout_refuses": "on", "try_uri": "/a.jpg?x=1",
              "try_client_ip": "203.0.113.7"}
    values.update(fields)
    return {key: value for key, value in values.items() if value is not None}


def row() -> DeliverySettings:
    return DeliverySettings.for_domain(default_domain())


def test_the_page_is_in_the_delivery_navigation(manager_client: Any) -> None:
    assert reverse("delivery:access") == URL
    html = manager_client.get(URL).content.decode()
    assert 'data-nav="access" class="active"' in html
    assert "dl-region-form" in html and "dl-auth-form" in html and "dl-links-form" in html


def test_a_region_list_is_saved_normalised_with_the_chosen_codes(manager_client: Any,
                                                                 manager: Any) -> None:
    response = manager_client.post(URL, {"panel": "region", "region_mode": "block",
                                         "regions": "cn\n\nus, jp\nCN",
                                         "add_regions": ["DE", "US"]})
    assert response.status_code == 302
    saved = row()
    assert (saved.region_mode, saved.regions, saved.updated_by) == (
        "block", "CN\nUS\nJP\nDE", manager)
    # Saved, not published: the panel says so; the others, at their defaults, need nothing.
    assert manager_client.get(URL).context["published"] == {
        "region": False, "origin_auth": True, "external_links": True}


@pytest.mark.parametrize(("fields", "fragment"), [
    ({"regions": "CN\nUS\nXX"}, "Line 3: “XX”"),
    ({"regions": "CN\nchina"}, "Line 2: “china”"),
    ({"region_mode": "allow", "regions": ""}, "at least one"),
])
def test_bad_region_lists_are_refused_at_the_field_with_nothing_stored(
        manager_client: Any, fields: dict[str, str], fragment: str) -> None:
    DeliverySettings.objects.create(domain=default_domain(), region_mode="allow", regions="JP")
    response = manager_client.post(URL, {"panel": "region", "region_mode": "block", **fields})
    assert response.status_code == 200
    assert fragment in " ".join(response.context["region_form"].errors["regions"])
    assert (row().region_mode, row().regions) == ("allow", "JP")


def test_origin_authentication_is_saved(manager_client: Any) -> None:
    response = manager_client.post(URL, auth_data(origin_auth_timeout="10",
                                                  origin_auth_timeout_refuses=None))
    assert response.status_code == 302
    saved = row()
    assert (saved.origin_auth_url, saved.origin_auth_timeout,
            saved.origin_auth_timeout_refuses) == ("https://shop.example.com/cdn-auth", 10, False)


@pytest.mark.parametrize(("fields", "field", "fragment"), [
    ({"origin_auth_url": "ftp://shop.example.com/auth"}, "origin_auth_url", "http://"),
    ({"origin_auth_url": "shop.example.com/auth"}, "origin_auth_url", "http://"),
    ({"origin_auth_url": "http:///auth"}, "origin_auth_url", "host"),
    ({"origin_auth_timeout": "0"}, "origin_auth_timeout", "1 and 10"),
    ({"origin_auth_timeout": "11"}, "origin_auth_timeout", "1 and 10"),
])
def test_bad_origin_authentication_is_refused_at_the_field_with_nothing_stored(
        manager_client: Any, fields: dict[str, str], field: str, fragment: str) -> None:
    DeliverySettings.objects.create(domain=default_domain(), origin_auth_url="http://keep.example/",
                                    origin_auth_timeout=4)
    response = manager_client.post(URL, auth_data(**fields))
    assert response.status_code == 200
    assert fragment in " ".join(response.context["auth_form"].errors[field])
    assert (row().origin_auth_url, row().origin_auth_timeout) == ("http://keep.example/", 4)


def test_switching_external_links_off_is_confirmed_naming_the_domain(
        manager_client: Any) -> None:
    name = default_domain().name
    response = manager_client.post(URL, {"panel": "external_links"})
    assert response.status_code == 200
    html = response.content.decode()
    assert f"Switch external links off for {name}?" in html
    assert row().external_links is True  # nothing saved before the confirmation
    response = manager_client.post(URL, {"panel": "external_links", "confirmed": "1"})
    assert response.status_code == 302
    assert row().external_links is False
    # Switching on again needs no confirmation.
    assert manager_client.post(URL, {"panel": "external_links",
                                     "external_links": "on"}).status_code == 302
    assert row().external_links is True


def test_try_it_shows_the_answer_and_saves_nothing(manager_client: Any) -> None:
    with AuthServer.running(status=403) as auth:
        auth.body = b"no entry for you " * 300
        response = manager_client.post(URL, auth_data(action="try_auth",
                                                      origin_auth_url=auth.url))
        asked = auth.received[-1]
    tried = response.context["tried"]
    assert (tried.outcome, tried.status, tried.allowed) == ("answered", 403, False)
    assert tried.body.startswith("no entry for you") and len(tried.body) == 2000
    assert asked["x-svc-uri"] == "/a.jpg?x=1"
    assert asked["x-svc-client-ip"] == "203.0.113.7"
    assert asked["x-svc-host"] == default_domain().name
    assert asked["x-svc-method"] == "GET"
    html = response.content.decode()
    assert "Answered 403" in html and "would refuse" in html
    assert row().origin_auth_url == ""


def test_try_it_says_when_the_url_is_unreachable_or_slow(manager_client: Any) -> None:
    response = manager_client.post(URL, auth_data(action="try_auth",
                                                  origin_auth_url=UNREACHABLE_URL))
    assert response.context["tried"].outcome == "unreachable"
    assert "could not be reached" in response.content.decode()
    with AuthServer.running(status=200) as auth:
        auth.delay = 2
        response = manager_client.post(URL, auth_data(action="try_auth", origin_auth_url=auth.url,
                                                      origin_auth_timeout="1"))
    assert response.context["tried"].outcome == "timeout"
    assert "No answer within the timeout" in response.content.decode()


@pytest.mark.parametrize("url", ["http://169.254.169.254/latest/meta-data/",
                                 "http://[fe80::1]/auth", "http://0.0.0.0:8000/auth"])
def test_try_it_never_calls_a_link_local_or_unspecified_address(manager_client: Any,
                                                                url: str) -> None:
    response = manager_client.post(URL, auth_data(action="try_auth", origin_auth_url=url))
    tried = response.context["tried"]
    assert (tried.outcome, tried.status) == ("forbidden", None)
    assert "Not sent:" in response.content.decode()


def test_try_it_refuses_a_bad_sample_at_its_field(manager_client: Any) -> None:
    response = manager_client.post(URL, auth_data(action="try_auth", try_client_ip="nope",
                                                  try_uri="a.jpg"))
    assert response.context["tried"] is None
    errors = response.context["try_form"].errors
    assert "not an IP address" in " ".join(errors["try_client_ip"])
    assert "starting with /" in " ".join(errors["try_uri"])


def test_an_auditor_reads_the_page_and_changes_nothing(auditor_client: Any) -> None:
    html = auditor_client.get(URL).content.decode()
    assert "dl-read-only" in html and "dl-try-auth" not in html
    assert auditor_client.post(URL, {"panel": "external_links"}).status_code == 403
    assert auditor_client.post(URL, auth_data(action="try_auth")).status_code == 403
    assert row().external_links is True
