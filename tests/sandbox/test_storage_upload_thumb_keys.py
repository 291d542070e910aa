"""`x-gmkerl-thumb` at a REST upload takes every key of cloud/image.md: the stored image is the
processed one (opened with Pillow), and each bad string of the shared table of the page's
examples is refused with 40011035 invalid param in thumb, nothing stored."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.image_processing_examples import REFUSED
from tests.sandbox.test_delivery_image_keys_of_the_page import png_header
from tests.sandbox.test_storage_client import StorageClient
from tests.sandbox.test_storage_upload_processing import picture, refusal, stored


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


@pytest.mark.parametrize(("thumb", "size", "fmt"), [
    ("/fxfn2/100x100/flip/left,right/format/webp", (200, 100), "WEBP"),
    ("/wscale/50/rotate/90/format/jpg", (200, 200), "JPEG"),
    ("/fw/200/clip/50x50a0a0/gravity/southeast/roundrect/10", (50, 50), "PNG"),
    ("/canvas/600x400/cvscolor/FFFFFF00/strip/true/format/png", (600, 400), "PNG"),
    ("/both/100x100/force/true/format/webp/lossless/true", (100, 100), "WEBP"),
])
def test_the_pages_keys_process_the_uploaded_image(storage, thumb: str,
                                                   size: tuple[int, int], fmt: str) -> None:
    response = storage.put("/t/k.png", picture(), headers={"x-gmkerl-thumb": thumb})
    assert response.status_code == 200, response.text
    assert (response.headers["x-svc-width"], response.headers["x-svc-height"]) == \
        tuple(str(side) for side in size)
    image = stored(storage, "/t/k.png")
    assert (image.size, image.format) == (size, fmt)


def test_flip_at_upload_mirrors_the_stored_image(storage) -> None:
    storage.put("/t/f.png", picture(), headers={"x-gmkerl-thumb": "/flip/left,right"})
    image = stored(storage, "/t/f.png").convert("RGB")
    original = Image.open(io.BytesIO(picture())).convert("RGB")
    assert image.getpixel((395, 5)) == original.getpixel((4, 5))


@pytest.mark.parametrize(("thumb", "key"), REFUSED)
def test_each_bad_string_of_the_table_is_refused_at_upload(storage, thumb: str,
                                                            key: str) -> None:
    body = refusal(storage.put("/t/bad.png", picture(), headers={"x-gmkerl-thumb": thumb}),
                   40011035, "invalid param in thumb")
    assert f"{key}: " in body["detail"], body
    assert storage.head("/t/bad.png").status_code == 404


def test_an_image_beyond_the_pages_limits_is_refused_at_upload(storage) -> None:
    body = refusal(storage.put("/t/huge.png", png_header(14_200, 14_200),
                               headers={"x-gmkerl-thumb": "/fw/100"}),
                   40300021, "image limit exceeded")
    assert "Limit Exceeded" in body["detail"]
    assert storage.head("/t/huge.png").status_code == 404


def test_the_pages_watermark_example_marks_the_upload_with_a_file_of_the_bucket(storage):
    logo = io.BytesIO()
    Image.new("RGB", (30, 20), (0, 255, 0)).save(logo, format="PNG")
    storage.put("/docs/cloud/upyun-logo.png", logo.getvalue())
    thumb = ("/watermark/text/5L2g5aW977yB/font/simhei/watermark/url/"
             "L2RvY3MvY2xvdWQvdXB5dW4tbG9nby5wbmc=/align/southeast")
    response = storage.put("/t/marked.png", picture(), headers={"x-gmkerl-thumb": thumb})
    assert response.status_code == 200, response.text
    image = stored(storage, "/t/marked.png").convert("RGB")
    assert image.getpixel((400 - 20 - 15, 200 - 20 - 10)) == (0, 255, 0)  # margin 20x20


def test_a_watermark_image_missing_from_the_bucket_is_refused_at_upload(storage):
    body = refusal(storage.put("/t/nomark.png", picture(), headers={
        "x-gmkerl-thumb": "/watermark/url/L25vLnBuZw=="}), 40011035, "invalid param in thumb")
    assert "/no.png" in body["detail"]
    assert storage.head("/t/nomark.png").status_code == 404


def test_ignore_error_stores_the_upload_as_it_came_instead_of_refusing(storage):
    response = storage.put("/t/plain.txt", b"not an image",
                           headers={"x-gmkerl-thumb": "/fw/10/ignore-error/true"})
    assert response.status_code == 200, response.text
    assert storage.get("/t/plain.txt").content == b"not an image"
    refusal(storage.put("/t/plain2.txt", b"not an image", headers={"x-gmkerl-thumb": "/fw/10"}),
            40300018, "not an image")
