"""In a real browser, in English and in Chinese: the HTTPS page uploads a pasted certificate
chain and key and shows its subject, issuer, names, fingerprint and expiry; a key of another
certificate is refused at its field and nothing is stored; forced HTTPS without HTTPS access is
refused at its field."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from console.models import Domain
from delivery.models import Certificate
from tests.certificates import TestCA
from tests.delivery.conftest import Edge

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAME = "shop.sandbox.localhost"
TEXTS = {
    "en": {"mismatch": "The private key does not match the first certificate of the chain.",
           "left": "59 days left", "heading": "Certificates",
           "force": "Forced HTTPS needs HTTPS access on: visitors sent to https:// would be "
                    "refused."},
    "zh-hans": {"mismatch": "私钥与证书链中的第一个证书不匹配。", "left": "剩余 59 天",
                "heading": "证书",
                "force": "强制 HTTPS 需要开启 HTTPS 访问：否则被转到 https:// 的访问者会被拒绝。"},
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_uploaded_certificate_is_shown_with_its_details(
        page: Any, live_server: Any, staff_login: Any, edge: Edge, domain: Domain,
        language: str) -> None:
    ca = TestCA()
    leaf = ca.leaf(NAME, f"*.{NAME}", days=60)
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    texts = TEXTS[language]
    page.goto(f"{live_server.url}/delivery/https/")
    assert page.locator('[data-nav="https"]').get_attribute("aria-current") == "page"
    page.fill('#dl-upload-form textarea[name="certificate"]', leaf.chain)
    page.fill('#dl-upload-form textarea[name="private_key"]', ca.other_key())
    page.click("#dl-upload-form button[type=submit]")
    field = '#dl-upload-form [data-field="private_key"]'
    assert page.inner_text(f"{field} .errorlist") == texts["mismatch"]
    assert not Certificate.objects.exists()
    page.fill('#dl-upload-form textarea[name="certificate"]', leaf.chain)
    page.fill('#dl-upload-form textarea[name="private_key"]', leaf.key)
    page.click("#dl-upload-form button[type=submit]")
    page.wait_for_selector("#dl-certificates tbody tr")
    stored = Certificate.objects.get()
    row = page.locator(f'#dl-certificates tr[data-certificate="{stored.certificate_id}"]')
    assert page.inner_text("#dl-certificates h2") == texts["heading"]
    assert row.locator('[data-col="subject"]').inner_text() == f"CN={NAME},O=Test CA Ltd"
    assert row.locator('[data-col="issuer"]').inner_text() == \
        "CN=Test Intermediate CA,O=Test CA Ltd"
    assert row.locator('[data-col="names"]').inner_text() == f"{NAME}, *.{NAME}"
    assert row.locator('[data-col="fingerprint"]').inner_text() == stored.fingerprint
    expiry = row.locator('[data-col="expiry"]').inner_text()
    assert timezone.localtime(stored.not_after).strftime("%Y-%m-%d %H:%M") in expiry
    assert texts["left"] in expiry


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_forced_https_without_access_is_refused_at_its_field(
        page: Any, live_server: Any, staff_login: Any, edge: Edge, domain: Domain,
        language: str) -> None:
    from delivery.models import DeliverySettings

    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/delivery/https/")
    page.check('#dl-https-form input[name="force_https"]')
    page.click("#dl-https-form button[type=submit]")
    field = '#dl-https-form [data-field="force_https"]'
    assert page.inner_text(f"{field} .errorlist") == TEXTS[language]["force"]
    assert DeliverySettings.for_domain(domain).force_https is False
