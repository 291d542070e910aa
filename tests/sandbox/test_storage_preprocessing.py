"""Legacy image preprocessing (`x-gmkerl-*`) on upload, checked by opening the result."""

from __future__ import annotations

import io
from urllib.parse import quote

import pytest
from PIL import Image, ImageDraw

from sandbox.storage.errno import MESSAGES as ERRNO_MESSAGES
from tests.sandbox.test_storage_client import StorageClient, assert_error

WHITE = (255, 255, 255)
RED = (255, 0, 0)
BLUE = (0, 0, 255)


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def encode(image: Image.Image, image_format: str = "PNG", **params) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=image_format, **params)
    return buffer.getvalue()


def halves(width: int = 400, height: int = 200) -> Image.Image:
    """Red left half, blue right half: shows where a rotation or crop took the pixels."""
    image = Image.new("RGB", (width, height), BLUE)
    ImageDraw.Draw(image).rectangle((0, 0, width // 2 - 1, height - 1), fill=RED)
    return image


def upload(storage, path: str, data: bytes, **gmkerl: str):
    headers = {f"x-gmkerl-{name.replace('_', '-')}": value for name, value in gmkerl.items()}
    response = storage.put(path, data, headers=headers)
    assert response.status_code == 200, response.text
    return response, Image.open(io.BytesIO(storage.get(path).content))


def close_to(pixel, colour, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


@pytest.mark.parametrize("kind, value, size", [
    ("fix_width", "100", (100, 50)),
    ("fix_height", "50", (100, 50)),
    ("fix_width_or_height", "100x100", (100, 50)),
    ("fix_width_or_height", "1000x1000", (400, 200)),  # too small: not scaled
    ("fix_both", "70x90", (70, 90)),
    ("fix_max", "100", (100, 50)),
    ("fix_min", "100", (200, 100)),
    ("fix_scale", "50", (200, 100)),
    ("fix_scale", "150", (600, 300)),
])
def test_every_thumbnail_type_gives_its_size(storage, kind, value, size):
    response, image = upload(storage, f"/thumb/{kind}.png", encode(halves()), type=kind,
                             value=value)
    assert image.size == size
    assert (response.headers["x-svc-width"], response.headers["x-svc-height"]) == \
        (str(size[0]), str(size[1]))
    assert response.headers["x-svc-file-type"] == "PNG"
    assert response.headers["x-svc-frames"] == "1"


def test_the_format_is_kept_and_reported(storage):
    response, image = upload(storage, "/thumb/photo.jpg", encode(halves(), "JPEG"),
                             type="fix_width", value="40")
    assert image.format == "JPEG"
    assert response.headers["x-svc-file-type"] == "JPEG"
    assert storage.head("/thumb/photo.jpg").headers["Content-Type"] == "image/jpeg"


def test_a_lower_quality_gives_a_smaller_jpeg(storage):
    noisy = Image.effect_noise((300, 300), 80).convert("RGB")
    data = encode(noisy, "JPEG", quality=100)
    upload(storage, "/q/low.jpg", data, quality="20")
    upload(storage, "/q/high.jpg", data, quality="95")
    low = int(storage.head("/q/low.jpg").headers["x-svc-file-size"])
    high = int(storage.head("/q/high.jpg").headers["x-svc-file-size"])
    assert low < high / 2


def test_rotate_turns_clockwise(storage):
    _, image = upload(storage, "/rot/90.png", encode(halves()), rotate="90")
    assert image.size == (200, 400)
    assert close_to(image.getpixel((100, 50)), RED)  # the left half is now on top
    assert close_to(image.getpixel((100, 350)), BLUE)


def test_rotate_by_an_odd_angle_grows_the_canvas(storage):
    _, image = upload(storage, "/rot/45.png", encode(halves()), rotate="45")
    assert image.width > 400 and image.height > 200


def test_rotate_auto_follows_the_exif_orientation(storage):
    exif = Image.Exif()
    exif[0x0112] = 6  # the camera was turned: view rotated 90 degrees clockwise
    _, image = upload(storage, "/rot/auto.jpg", encode(halves(), "JPEG", exif=exif),
                      rotate="auto")
    assert image.size == (200, 400)
    assert close_to(image.getpixel((100, 50)), RED)


def test_crop_takes_the_given_box(storage):
    _, image = upload(storage, "/crop/box.png", encode(halves()), crop="100x50a150a20")
    assert image.size == (100, 50)
    assert close_to(image.getpixel((10, 10)), RED)  # x 160: still the red half
    assert close_to(image.getpixel((90, 10)), BLUE)  # x 240: the blue half


def test_a_crop_past_the_edge_is_cut_to_the_image(storage):
    _, image = upload(storage, "/crop/edge.png", encode(halves()), crop="500x500a300a100")
    assert image.size == (100, 100)


def test_crop_then_thumbnail(storage):
    _, image = upload(storage, "/crop/thumb.png", encode(halves()), crop="200x200a0a0",
                      type="fix_width", value="50")
    assert image.size == (50, 50)
    assert close_to(image.getpixel((25, 25)), RED)


def exif_with_make() -> Image.Exif:
    exif = Image.Exif()
    exif[0x010F] = "SandboxCam"  # Make
    return exif


def test_exif_is_dropped_by_default(storage):
    _, image = upload(storage, "/exif/dropped.jpg",
                      encode(halves(), "JPEG", exif=exif_with_make()), type="fix_width",
                      value="100")
    assert 0x010F not in image.getexif()


def test_the_exif_switch_keeps_exif_with_a_thumbnail(storage):
    _, image = upload(storage, "/exif/kept.jpg", encode(halves(), "JPEG", exif=exif_with_make()),
                      type="fix_width", value="100", exif_switch="true")
    assert image.getexif()[0x010F] == "SandboxCam"


def test_the_exif_switch_needs_crop_or_a_thumbnail(storage):
    _, image = upload(storage, "/exif/rotate-only.jpg",
                      encode(halves(), "JPEG", exif=exif_with_make()), rotate="180",
                      exif_switch="true")
    assert 0x010F not in image.getexif()


def red_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    data = image.convert("RGB").crop(box).tobytes()
    return sum(1 for i in range(0, len(data), 3) if data[i] > 150 and data[i + 1] < 100)


def test_a_text_watermark_is_drawn_where_aligned(storage):
    blank = encode(Image.new("RGB", (400, 200), WHITE))
    _, top_left = upload(storage, "/wm/tl.png", blank, watermark_text="SANDBOX",
                         watermark_color="#ff0000", watermark_size="40")
    assert red_pixels(top_left, (0, 0, 200, 100)) > 100
    assert red_pixels(top_left, (200, 100, 400, 200)) == 0

    _, bottom_right = upload(storage, "/wm/br.png", blank, watermark_text="SANDBOX",
                             watermark_color="ff0000", watermark_size="40",
                             watermark_align="bottom,right", watermark_margin="5,5")
    assert red_pixels(bottom_right, (200, 100, 400, 200)) > 100
    assert red_pixels(bottom_right, (0, 0, 200, 100)) == 0


def test_a_fully_transparent_watermark_leaves_the_image_alone(storage):
    _, image = upload(storage, "/wm/clear.png", encode(Image.new("RGB", (200, 100), WHITE)),
                      watermark_text="HIDDEN", watermark_color="#ff0000",
                      watermark_opacity="100")
    assert red_pixels(image, (0, 0, 200, 100)) == 0


def test_a_cjk_watermark_is_drawn_in_each_named_font(storage):
    blank = encode(Image.new("RGB", (300, 120), WHITE))
    for font in ("simsun", "simhei", "simkai", "simli", "simyou", "simfang"):
        _, image = upload(storage, f"/wm/{font}.png", blank,
                          watermark_text=quote("沙盒水印"), watermark_font=font,
                          watermark_color="#ff0000")
        assert red_pixels(image, (0, 0, 300, 120)) > 50, font


def test_a_watermark_border_is_drawn_in_its_colour(storage):
    blank = encode(Image.new("RGB", (300, 120), WHITE))
    _, image = upload(storage, "/wm/border.png", blank, watermark_text="EDGE",
                      watermark_color="#ffffff", watermark_border="#ff0000ff",
                      watermark_size="60")
    assert red_pixels(image, (0, 0, 300, 120)) > 50


def test_an_animated_gif_keeps_its_frames(storage):
    frames = [Image.new("RGB", (120, 60), colour) for colour in (RED, BLUE, WHITE)]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:],
                   duration=100, loop=0)
    response, image = upload(storage, "/anim/a.gif", buffer.getvalue(), type="fix_width",
                             value="60")
    assert response.headers["x-svc-frames"] == "3"
    assert response.headers["x-svc-file-type"] == "GIF"
    assert image.n_frames == 3 and image.size == (60, 30)


def test_an_image_without_preprocessing_is_stored_as_sent(storage):
    data = encode(halves())
    response = storage.put("/plain/as-is.png", data)
    assert "x-svc-width" not in response.headers
    assert storage.get("/plain/as-is.png").content == data


def test_preprocessing_a_file_that_is_not_an_image_is_refused(storage):
    response = storage.put("/bad/text.png", b"plain text",
                           headers={"x-gmkerl-type": "fix_width", "x-gmkerl-value": "10"})
    assert_error(response, 40300018)
    assert storage.head("/bad/text.png").status_code == 404


@pytest.mark.parametrize("headers, named", [
    ({"x-gmkerl-type": "fix_everything", "x-gmkerl-value": "10"}, "x-gmkerl-type"),
    ({"x-gmkerl-type": "fix_width"}, "x-gmkerl-value"),
    ({"x-gmkerl-value": "10"}, "x-gmkerl-value"),
    ({"x-gmkerl-type": "fix_width", "x-gmkerl-value": "0"}, "x-gmkerl-value"),
    ({"x-gmkerl-type": "fix_both", "x-gmkerl-value": "100"}, "x-gmkerl-value"),
    ({"x-gmkerl-type": "fix_scale", "x-gmkerl-value": "1001"}, "x-gmkerl-value"),
    ({"x-gmkerl-type": "fix_height", "x-gmkerl-value": "10000"}, "x-gmkerl-value"),
    ({"x-gmkerl-quality": "0"}, "x-gmkerl-quality"),
    ({"x-gmkerl-quality": "101"}, "x-gmkerl-quality"),
    ({"x-gmkerl-unsharp": "maybe"}, "x-gmkerl-unsharp"),
    ({"x-gmkerl-rotate": "0"}, "x-gmkerl-rotate"),
    ({"x-gmkerl-rotate": "361"}, "x-gmkerl-rotate"),
    ({"x-gmkerl-rotate": "left"}, "x-gmkerl-rotate"),
    ({"x-gmkerl-crop": "100x100"}, "x-gmkerl-crop"),
    ({"x-gmkerl-crop": "0x10a0a0"}, "x-gmkerl-crop"),
    ({"x-gmkerl-crop": "10x10a999a0"}, "x-gmkerl-crop"),
    ({"x-gmkerl-exif-switch": "on"}, "x-gmkerl-exif-switch"),
    ({"x-gmkerl-watermark-text": "a", "x-gmkerl-watermark-font": "arial"},
     "x-gmkerl-watermark-font"),
    ({"x-gmkerl-watermark-text": "a", "x-gmkerl-watermark-size": "0"},
     "x-gmkerl-watermark-size"),
    ({"x-gmkerl-watermark-text": "a", "x-gmkerl-watermark-align": "center"},
     "x-gmkerl-watermark-align"),
    ({"x-gmkerl-watermark-text": "a", "x-gmkerl-watermark-align": "left,top"},
     "x-gmkerl-watermark-align"),
    ({"x-gmkerl-watermark-text": "a", "x-gmkerl-watermark-margin": "20"},
     "x-gmkerl-watermark-margin"),
    ({"x-gmkerl-watermark-text": "a", "x-gmkerl-watermark-opacity": "101"},
     "x-gmkerl-watermark-opacity"),
    ({"x-gmkerl-watermark-text": "a", "x-gmkerl-watermark-color": "red"},
     "x-gmkerl-watermark-color"),
    ({"x-gmkerl-watermark-text": "a", "x-gmkerl-watermark-border": "#ff0000"},
     "x-gmkerl-watermark-border"),
    ({"x-gmkerl-watermark-text": "%E4%B8"}, "x-gmkerl-watermark-text"),
    ({"x-gmkerl-watermark-text": "%20"}, "x-gmkerl-watermark-text"),
    ({"x-gmkerl-extract-color-count": "0"}, "x-gmkerl-extract-color-count"),
    ({"x-gmkerl-extract-format": "cmyk"}, "x-gmkerl-extract-format"),
    ({"x-gmkerl-sparkle": "yes"}, "x-gmkerl-sparkle"),
])
def test_a_bad_preprocessing_value_is_refused_naming_the_header(storage, headers, named):
    """With the error table's code for the header (`invalid x-gmkerl-type`, ...), else
    40011035 invalid param in thumb."""
    codes = [code for code, text in ERRNO_MESSAGES.items() if text == f"invalid {named}"]
    response = storage.put("/bad/pic.png", encode(halves(100, 50)), headers=headers)
    assert named in assert_error(response, codes[0] if codes else 40011035)["detail"]
    assert storage.head("/bad/pic.png").status_code == 404
