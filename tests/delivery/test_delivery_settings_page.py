"""The settings page: every setting and the image versions saved together; bad values
refused naming the field and line, with nothing already stored lost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from django.urls import reverse

from console.services import default_domain
from delivery.models import DeliverySettings, ImageVersion

pytestmark = pytest.mark.django_db


def data(versions: Sequence[tuple[str, str]] = (), initial: int = 0,
         **fields: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "separator": "!", "referer_mode": "off", "referer_allow_empty": "on",
        "versions-TOTAL_FORMS": str(len(versions)), "versions-INITIAL_FORMS": str(initial),
        "versions-MIN_NUM_FORMS": "0", "versions-MAX_NUM_FORMS": "1000",
    }
    for index, (name, params) in enumerate(versions):
        values[f"versions-{index}-name"] = name
        values[f"versions-{index}-params"] = params
    values.update(fields)
    return {key: value for key, value in values.items() if value is not None}


def test_settings_and_versions_are_saved(manager_client: Any, manager: Any) -> None:
    response = manager_client.post(reverse("delivery:settings"), data(
        versions=[("thumb", "fw/200"), ("webp", "/fw/600/format/webp")],
        token_protection="on", separator="-", referer_mode="deny",
        referer_domains="*.evil.example.net\nbad.example.org", referer_allow_empty=None,
        ip_blacklist="10.0.0.0/8\n192.168.1.7\n2001:db8::/32\n10.11.12.*",
        ua_whitelist="ShopApp",
        cors_allow_origin="*", cors_max_age="600", force_https="on"))
    assert response.status_code == 302
    row = DeliverySettings.for_domain(default_domain())
    # Forced HTTPS is the HTTPS page's now (it needs HTTPS access): this form ignores it.
    assert (row.token_protection, row.separator, row.referer_mode, row.referer_allow_empty,
            row.force_https, row.updated_by) == (True, "-", "deny", False, False, manager)
    assert dict(ImageVersion.objects.values_list("name", "params")) == {
        "thumb": "/fw/200", "webp": "/fw/600/format/webp"}


@pytest.mark.parametrize(("fields", "field", "fragment"), [
    ({"ip_blacklist": "10.0.0.0/8\n300.1.1.1"}, "ip_blacklist", "line 2"),
    ({"referer_mode": "allow", "referer_domains": ""}, "referer_domains", "at least one"),
    ({"referer_mode": "allow", "referer_domains": "ok.example.com\nnot a domain"},
     "referer_domains", "line 2"),
    ({"ip_blacklist": "10.11.12.*\n10.*.12.1"}, "ip_blacklist", "line 2: “10.*.12.1”"),
    ({"ip_blacklist": "\n".join(f"10.0.0.{n}" for n in range(101))}, "ip_blacklist",
     "line 101: “10.0.0.100”: at most 100 entries"),
    ({"ua_whitelist": "\n".join(f"App{n}" for n in range(51))}, "ua_whitelist",
     "line 51: “App50”: at most 50 entries"),
    ({"ua_whitelist": "ok\nnaïve"}, "ua_whitelist", "line 2"),
    ({"referer_mode": "allow", "referer_domains": "*.shop.com\n**.shop.com"},
     "referer_domains", "line 2"),
    ({"cors_max_age": "ten"}, "cors_max_age", "seconds"),
    ({"cors_allow_origin": "https://例子.com"}, "cors_allow_origin", "ASCII"),
    ({"separator": "#"}, "separator", ""),
])
def test_bad_settings_are_refused_naming_the_field(manager_client: Any, fields: dict,
                                                    field: str, fragment: str) -> None:
    DeliverySettings.objects.create(domain=default_domain(), separator="_", ua_whitelist="Keep")
    response = manager_client.post(reverse("delivery:settings"), data(**fields))
    assert response.status_code == 200
    errors = response.context["form"].errors[field]
    assert fragment in " ".join(errors)
    row = DeliverySettings.for_domain(default_domain())
    assert (row.separator, row.ua_whitelist) == ("_", "Keep")


@pytest.mark.parametrize(("name", "params", "field", "fragment"), [
    ("thumb", "/fw/abc", "params", "fw"),
    ("thumb", "/fw/100/fh/100", "params", "Only one size"),
    ("my-thumb", "/fw/100", "name", "letters or digits"),
    ("thumb", "/zoom/2", "params", "zoom"),
])
def test_bad_versions_are_refused_and_existing_ones_kept(
        manager_client: Any, name: str, params: str, field: str, fragment: str) -> None:
    kept = ImageVersion.objects.create(domain=default_domain(), name="small", params="/fw/100")
    response = manager_client.post(reverse("delivery:settings"), data(
        versions=[("small", "/fw/100"), (name, params)], initial=1,
        **{"versions-0-id": str(kept.pk)}))
    assert response.status_code == 200
    errors = response.context["versions"].forms[1].errors[field]
    assert fragment in " ".join(errors)
    assert list(ImageVersion.objects.values_list("name", flat=True)) == ["small"]


def test_the_secret_is_never_on_the_page(manager_client: Any, settings: Any) -> None:
    settings.PROVIDER["delivery"]["token_secret"] = "TopSecretValue42"
    settings.PROVIDER["delivery"]["delivery_url"] = "http://cdn.example.com"
    html = manager_client.get(reverse("delivery:settings")).content.decode()
    assert "TopSecretValue42" not in html
    assert "fingerprint" in html
