"""The upload page checks its thumbnail processing string (`x-gmkerl-thumb`) with the rule of the
image builder and the versions editor (`delivery.image_rules`): it accepts and refuses the
strings of the shared table of cloud/image.md's examples as the sandbox does, each refusal a
sentence naming the key, in the person's language, and nothing is queued."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from storage.models import UploadTask
from tests.image_processing_examples import ACCEPTED, REFUSED

pytestmark = pytest.mark.django_db

CREATE = reverse("storage:upload_create")


def post(client, thumb: str):
    return client.post(CREATE, {"folder": "/img", "name": "a.png", "size": "16", "thumb": thumb})


@pytest.mark.parametrize("thumb", [text for text in ACCEPTED if text.startswith("/")]
                         + ["small", "small/fw/500", "upyun520/fw/500/format/webp"])
def test_the_pages_strings_and_versions_are_accepted(manager_client, provider, media_root,
                                                     thumb: str) -> None:
    response = post(manager_client, thumb)
    assert response.status_code == 201, response.content
    assert UploadTask.objects.get().options["gmkerl"]["x-gmkerl-thumb"] == thumb


@pytest.mark.parametrize(("thumb", "key"), REFUSED)
def test_bad_strings_are_refused_naming_the_key(manager_client, provider, media_root,
                                                thumb: str, key: str) -> None:
    response = post(manager_client, thumb)
    assert response.status_code == 400
    errors = response.json()["errors"]["thumb"]
    # Each sentence leads with its key; an unknown key is named inside quotes.
    assert any(text.startswith(f"{key}: ") or f"“{key}”" in text for text in errors), errors
    assert not UploadTask.objects.exists()


def test_a_bad_version_name_is_refused(manager_client, provider, media_root) -> None:
    response = post(manager_client, "my-thumb/fw/100")
    assert response.status_code == 400
    assert response.json()["errors"]["thumb"] == ["A version name is 1 to 32 letters or digits."]


def test_the_refusal_is_in_chinese_for_a_chinese_reader(manager_client, provider,
                                                         media_root) -> None:
    with translation.override("zh-hans"):
        response = manager_client.post(CREATE, {"folder": "/img", "name": "a.png", "size": "16",
                                                "thumb": "/rotate/0"},
                                       HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    assert response.json()["errors"]["thumb"] == [
        "rotate：必须为 auto 或 1 到 360 的整数度数，而不是“0”。"]
