"""The back-office's image processing strings follow cloud/image.md (DECISIONS.md): `/scale`
1-1000, `/force/true`, watermarks (`/watermark/text/<Base64>`, `/watermark/url/<Base64 path>`
and their keys), `/info` and `/meta`, and a version followed by parameters; bad values are
refused naming their key, in the person's language. The builder's results go through the real
sandbox edge and are opened with Pillow."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation
from PIL import Image, ImageChops

from console.services import default_domain
from delivery import rules, services
from delivery.models import ImageVersion
from delivery.rules import LinkError
from delivery.texts import problem_text
from tests.delivery.conftest import Edge, png_bytes

WHITE = (255, 255, 255)
DOCS_EXAMPLE = ("/watermark/text/5L2g5aW977yB/font/simhei/watermark/url/"
                "L2RvY3MvY2xvdWQvdXB5dW4tbG9nby5wbmc=/align/southeast")


def problems(text: str) -> list[tuple[str, str]]:
    try:
        rules.parse_image_params(text)
    except LinkError as error:
        return [(problem.field, problem.code) for problem in error.problems]
    return []


@pytest.mark.parametrize("text", [
    "/scale/1000", "/scale/1", "/fw/800/force/true", "/force/true/max/900",
    DOCS_EXAMPLE, "/info", "/meta", "/meta/iptc", "/meta/all", "/fw/100/format/webp/info",
    "/watermark/text/5L2g/size/16/color/FF0000/border/FF000000/align/north/margin/15x10"
    "/opacity/90/animate/true",
    "/watermark/url/L2EucG5n/percent/50/repeat/true/opacity/0",
    "/watermark/text/5L2g/border/3x2",  # the image's border after a text watermark
    "/watermark/text/5L2g/align/east/watermark/text/5L2g/align/west",
])
def test_the_pages_keys_are_accepted(text: str) -> None:
    assert problems(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("/scale/0", [("scale", "image_number")]),
    ("/scale/1001", [("scale", "image_number")]),
    ("/force/true", [("force", "image_needs")]),
    ("/fw/100/force/yes", [("force", "image_bool")]),
    ("/watermark/text/@@@", [("watermark/text", "image_base64")]),
    ("/watermark/text/||4=", [("watermark/text", "image_base64")]),
    ("/watermark/url/YWJj", [("watermark/url", "image_mark_path")]),
    ("/watermark/image/YWJj", [("watermark", "image_watermark")]),
    ("/watermark/text", [("watermark", "image_watermark")]),
    ("/watermark/text/5L2g/fontx/simhei", [("fontx", "image_key")]),
    ("/watermark/text/5L2g/font/comic", [("font", "image_choice")]),
    ("/watermark/text/5L2g/size/0", [("size", "image_number")]),
    ("/watermark/text/5L2g/color/red", [("color", "image_rgb")]),
    ("/watermark/text/5L2g/align/middle", [("align", "image_choice")]),
    ("/watermark/text/5L2g/margin/10", [("margin", "image_size")]),
    ("/watermark/text/5L2g/opacity/101", [("opacity", "image_number")]),
    ("/watermark/text/5L2g/percent/50", [("percent", "image_mark_kind")]),
    ("/watermark/url/L2EucG5n/font/simsun", [("font", "image_mark_kind")]),
    ("/watermark/text/5L2g/size/10/size/20", [("size", "image_twice")]),
    ("/align/north", [("align", "image_watermark_first")]),
    ("/info/meta", [("meta", "image_twice")]),
])
def test_bad_values_are_refused_naming_the_key(text: str,
                                               expected: list[tuple[str, str]]) -> None:
    assert problems(text) == expected


def test_the_texts_round_trip_keys_without_a_value() -> None:
    assert rules.image_params_text(rules.parse_image_params("meta/iptc/fw/10")) == \
        "/meta/iptc/fw/10"
    assert rules.image_params_text(rules.parse_image_params("/fw/10/info/")) == "/fw/10/info"
    assert rules.image_params_text(rules.parse_image_params(DOCS_EXAMPLE)) == DOCS_EXAMPLE


def test_the_watermark_encoding_is_the_pages() -> None:
    assert rules.encode_watermark("你好！") == "5L2g5aW977yB"
    assert rules.encode_watermark("/docs/cloud/upyun-logo.png") == \
        "L2RvY3MvY2xvdWQvdXB5dW4tbG9nby5wbmc="
    assert rules.encode_watermark("??>") == "Pz8+"
    assert rules.encode_watermark("???") == "Pz8|"  # `/` written `|`
    assert rules.decode_watermark("Pz8|") == "???"


def test_a_version_url_may_carry_parameters() -> None:
    url = rules.version_url("http://cdn.example.com/a.jpg", "!", "small", [("fw", "80")])
    assert url == "http://cdn.example.com/a.jpg!small/fw/80"
    with pytest.raises(LinkError):
        rules.version_url("http://cdn.example.com/a.jpg", "!", "small", [("scale", "0")])


def test_the_new_messages_are_translated() -> None:
    [problem] = rules.check_image_params([("watermark", "text/@@@")])
    with translation.override("zh-hans"):
        text = problem_text(problem, named=True)
    assert text.startswith("watermark/text") and "Base64" in text
    assert "must be" not in text.lower()


# --- through the pages and the real edge ----------------------------------------------------


def changed_box(image: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(image.convert("RGB"),
                                 Image.new("RGB", image.size, WHITE)).getbbox()


@pytest.fixture
def photo(edge: Edge, publish: Any) -> Edge:
    edge.upload("/photos/white.png", png_bytes(400, 300, WHITE))
    edge.upload("/marks/logo.png", png_bytes(40, 20, (255, 0, 0)))
    publish(versions={"thumb": "/fw/200", "marked": "/fw/200/watermark/url/"
                      + rules.encode_watermark("/marks/logo.png") + "/margin/0x0"})
    return edge


@pytest.mark.django_db
def test_the_builder_draws_a_text_watermark(photo: Edge, manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/white.png", "mode": "params", "wm_text": "你好", "wm_font": "simhei",
        "wm_size": "40", "wm_color": "ff0000", "wm_align": "southeast"})
    assert response.status_code == 200, response.content[:300]
    box = changed_box(Image.open(io.BytesIO(response.content)))
    assert box is not None and box[0] > 250 and box[1] > 200  # bottom right
    assert response["X-Edge-URL"].endswith(
        "/photos/white.png!/watermark/text/5L2g5aW9/font/simhei/size/40/color/FF0000"
        "/align/southeast")


@pytest.mark.django_db
def test_the_builder_draws_an_image_watermark_and_enlarges_with_force(
        photo: Edge, manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/white.png", "mode": "params", "key_fw": "800", "key_force": "true",
        "wm_image": "/marks/logo.png", "wm_margin": "0x0"})
    assert response.status_code == 200, response.content[:300]
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (800, 600)
    assert changed_box(image) == (0, 0, 40, 20)


@pytest.mark.django_db
def test_the_builder_refuses_bad_watermark_fields_beside_them(
        photo: Edge, manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/white.png", "mode": "params", "wm_text": "hi", "wm_image": "/a.png",
        "wm_color": "red", "wm_opacity": "101"})
    assert response.status_code == 400
    fields = response.json()["fields"]
    assert set(fields) == {"wm_image", "wm_color", "wm_opacity"}
    assert fields["wm_color"] == ["Must be RRGGBB in hexadecimal, e.g. FF0000."]
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/white.png", "mode": "params", "wm_align": "north"})
    assert list(response.json()["fields"]) == ["wm_align"]


@pytest.mark.django_db
def test_the_builder_adds_parameters_after_a_version(photo: Edge, manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/white.png", "mode": "version", "version": "thumb",
        "version_params": "/fw/80"})
    assert response.status_code == 200, response.content[:300]
    assert Image.open(io.BytesIO(response.content)).size == (80, 60)
    assert response["X-Edge-URL"].endswith("/photos/white.png!thumb/fw/80")
    refused = manager_client.get(reverse("delivery:image_preview"), {
        "path": "/photos/white.png", "mode": "version", "version": "thumb",
        "version_params": "/scale/0"})
    assert refused.json()["fields"] == {
        "version_params": ["scale: Must be a whole number from 1 to 1000, not “0”."]}


@pytest.mark.django_db
def test_a_published_version_with_a_watermark_is_drawn_at_the_edge(photo: Edge) -> None:
    link = services.version_link(default_domain(), "/photos/white.png", "marked")
    image = Image.open(io.BytesIO(photo.get(link).content))
    assert image.size == (200, 150)
    assert changed_box(image) == (0, 0, 40, 20)


@pytest.mark.django_db
def test_info_of_a_processed_image_through_a_link(photo: Edge) -> None:
    link = services.processed_link(default_domain(), "/photos/white.png",
                                   [("scale", "200"), ("info", "")])
    assert photo.get(link).json() == {"width": 800, "height": 600, "type": "PNG", "frames": 1}


@pytest.mark.django_db
def test_versions_accept_the_new_keys_and_refuse_bad_ones_by_field(manager_client: Any) -> None:
    base = {"separator": "!", "referer_mode": "off", "referer_allow_empty": "on",
            "versions-TOTAL_FORMS": "1", "versions-INITIAL_FORMS": "0",
            "versions-MIN_NUM_FORMS": "0", "versions-MAX_NUM_FORMS": "1000",
            "versions-0-name": "marked"}
    refused = manager_client.post(reverse("delivery:settings"), {
        **base, "versions-0-params": "/watermark/text/@@@/font/comic"})
    assert refused.status_code == 200
    errors = refused.context["versions"].forms[0].errors["params"]
    assert any(error.startswith("watermark/text: Must be Base64") for error in errors)
    assert any(error.startswith("font: Must be one of") for error in errors)
    saved = manager_client.post(reverse("delivery:settings"), {
        **base, "versions-0-params": DOCS_EXAMPLE + "/scale/500/info"})
    assert saved.status_code == 302
    assert ImageVersion.objects.get(name="marked").params == DOCS_EXAMPLE + "/scale/500/info"
