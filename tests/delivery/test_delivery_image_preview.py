"""The image URL builder page and its preview view, which fetches the processed image from
the real sandbox edge (signing it when token protection is on)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.urls import reverse
from PIL import Image

from tests.delivery.conftest import Edge, png_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def photo(edge: Edge, publish: Any) -> Edge:
    edge.upload("/photos/sea.png", png_bytes(400, 300))
    publish(versions={"thumb": "/fw/200"})
    return edge


def test_the_preview_is_the_processed_image_from_the_edge(photo: Edge,
                                                          manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/sea.png", "mode": "params", "key_fw": "100", "key_format": "webp"})
    assert response.status_code == 200
    image = Image.open(io.BytesIO(response.content))
    assert (image.format, image.size) == ("WEBP", (100, 75))
    assert response["X-Edge-URL"] == f"{photo.base_url}/photos/sea.png!/fw/100/format/webp"


def test_the_preview_signs_when_token_protection_is_on(photo: Edge, publish: Any,
                                                       auditor_client: Any) -> None:
    publish(token_protection=True)
    response = auditor_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/sea.png", "mode": "version", "version": "thumb"})
    assert response.status_code == 200
    assert Image.open(io.BytesIO(response.content)).size == (200, 150)
    assert "_upt" not in response["X-Edge-URL"]


def test_bad_values_come_back_as_messages(photo: Edge, manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/sea.png", "mode": "params", "key_scale": "1001"})
    assert response.status_code == 400
    # beside its field only; the preview itself says where to look
    assert response.json()["fields"] == {
        "key_scale": ["Must be a whole number from 1 to 1000, not “1001”."]}
    assert response.json()["errors"] == ["Correct the marked fields to see the image."]


def test_an_error_of_no_field_stays_in_the_preview(photo: Edge, manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/sea.png", "mode": "params"})
    assert response.status_code == 400
    assert response.json() == {"errors": ["Choose at least one processing operation."],
                               "fields": {}}


def test_the_builder_labels_keys_readably_with_the_api_word_beside(
        photo: Edge, manager_client: Any) -> None:
    html = manager_client.get(reverse("delivery:images")).content.decode()
    assert 'Fixed width <small class="api-word"><code>fw</code></small>' in html
    assert 'Gaussian blur <small class="api-word"><code>gaussblur</code></small>' in html


def test_an_edge_refusal_is_reported(photo: Edge, manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/missing.png", "mode": "params", "key_fw": "10"})
    assert response.status_code == 502
    assert response.json()["edge_status"] == 404


def test_the_builder_page_shows_the_url(photo: Edge, manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:images"), {
        "path": "/photos/sea.png", "mode": "params", "key_crop": "100x50a10a20",
        "key_border": "2x2", "key_brdcolor": "ff0000ff"})
    assert response.context["url"] == (
        f"{photo.base_url}/photos/sea.png!/crop/100x50a10a20/border/2x2/brdcolor/FF0000FF")


def test_the_builder_offers_the_pages_other_keys_through_the_edge(photo: Edge,
                                                                  manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/sea.png", "mode": "params", "key_fxfn2": "100x100",
        "key_clip": "50x50a0a0", "key_gravity": "southeast", "key_flip": "left,right",
        "key_format": "png", "key_strip": "true"})
    assert response.status_code == 200, response.content
    assert response["X-Edge-URL"] == (
        f"{photo.base_url}/photos/sea.png!/fxfn2/100x100/clip/50x50a0a0/gravity/southeast"
        "/flip/left,right/format/png/strip/true")
    assert Image.open(io.BytesIO(response.content)).size == (50, 50)


def test_the_builder_refuses_a_gravity_without_a_crop_on_its_field(photo: Edge,
                                                                   manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:images"), {
        "path": "/photos/sea.png", "mode": "params", "key_gravity": "north"})
    errors = response.context["form"].errors
    assert errors["key_gravity"] == ["Only after crop or clip: it says where their box starts."]
