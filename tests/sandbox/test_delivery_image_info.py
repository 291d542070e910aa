"""cloud/image.md's image-information versions at the edge: `/info` (width, height, type,
frames), `/meta` (with EXIF), `/meta/iptc`, `/meta/all`, alone, after processing, inside a
custom version, and refused for a file that is not an image (406)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.sandbox.test_delivery_support import Edge, Storage, assert_refused, image_bytes


def with_exif() -> bytes:
    image = Image.new("RGB", (60, 40), (10, 20, 30))
    exif = Image.Exif()
    exif[0x010F] = "SandboxCam"  # Make
    exif[0x0112] = 1  # Orientation
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", exif=exif.tobytes())
    return buffer.getvalue()


def animation() -> bytes:
    frames = [Image.new("RGB", (30, 20), colour) for colour in ((255, 0, 0), (0, 255, 0),
                                                                 (0, 0, 255))]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:], duration=50)
    return buffer.getvalue()


@pytest.fixture
def edge(sandbox):
    storage = Storage(sandbox)
    storage.put("/i/photo.png", image_bytes(400, 200))
    storage.put("/i/camera.jpg", with_exif())
    storage.put("/i/moving.gif", animation())
    storage.put("/i/notes.txt", b"not an image")
    edge = Edge(sandbox)
    edge.configure(versions={"facts": "/fw/100/info", "small": "/fw/50"})
    return edge


def test_info_gives_width_height_type_and_frames(edge):
    response = edge.get("/i/photo.png!/info")
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"] == "application/json"
    assert response.json() == {"width": 400, "height": 200, "type": "PNG", "frames": 1}


def test_info_counts_the_frames_of_an_animation(edge):
    assert edge.get("/i/moving.gif!/info").json() == {
        "width": 30, "height": 20, "type": "GIF", "frames": 3}


def test_info_after_processing_describes_the_result(edge):
    assert edge.get("/i/photo.png!/fw/100/format/webp/info").json() == {
        "width": 100, "height": 50, "type": "WEBP", "frames": 1}


def test_info_inside_a_custom_version_and_after_one(edge):
    assert edge.get("/i/photo.png!facts").json()["width"] == 100
    assert edge.get("/i/photo.png!small/info").json()["width"] == 50


def test_meta_adds_the_exif(edge):
    found = edge.get("/i/camera.jpg!/meta").json()
    assert (found["width"], found["height"], found["type"]) == (60, 40, "JPEG")
    assert found["EXIF"]["Make"] == "SandboxCam"
    assert "IPTC" not in found


def test_meta_iptc_and_all(edge):
    iptc = edge.get("/i/camera.jpg!/meta/iptc").json()
    assert iptc["IPTC"] == {} and "EXIF" not in iptc
    everything = edge.get("/i/camera.jpg!/meta/all").json()
    assert everything["EXIF"]["Make"] == "SandboxCam" and everything["IPTC"] == {}


def test_information_of_a_file_that_is_not_an_image_is_406(edge):
    body = assert_refused(edge.get("/i/notes.txt!/info"), 406, "40600011")
    assert "not an image" in body["msg"]


@pytest.mark.parametrize(("params", "message"), [
    ("/info/info", "info: given more than once"),
    ("/info/meta", "info: given more than once"),
    ("/meta/exif", "exif: unknown processing key"),
])
def test_bad_information_keys_are_refused(edge, params, message):
    body = assert_refused(edge.get(f"/i/photo.png!{params}"), 400, "40000010")
    assert body["msg"].startswith(message), body
