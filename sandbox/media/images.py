"""Snapshot images: the `size` and `format` fields, and writing a frame in that form (Pillow)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from sandbox.core.json_types import JSONObject
from sandbox.media.errors import bad

MAX_SIDE = 4096
_SIZE = re.compile(r"(\d{1,5})x(\d{1,5})")


@dataclass(frozen=True)
class ImageFormat:
    name: str  # as the API spells it
    pillow: str
    content_type: str
    options: JSONObject


FORMATS = {
    "jpg": ImageFormat("jpg", "JPEG", "image/jpeg", {"quality": 90}),
    "png": ImageFormat("png", "PNG", "image/png", {}),
    "webp": ImageFormat("webp", "WEBP", "image/webp", {"quality": 90}),
}
SUFFIXES = {".jpg": "jpg", ".jpeg": "jpg", ".png": "png", ".webp": "webp"}


def parse_size(value: Any) -> tuple[int, int] | None:
    """`<width>x<height>` in pixels, each side 1 to 4096; None when not given."""
    if value is None:
        return None
    if not isinstance(value, str) or not _SIZE.fullmatch(value.strip()):
        raise bad("size", f"must be <width>x<height> in pixels, such as 320x240, got "
                          f"{value!r}")
    match = _SIZE.fullmatch(value.strip())
    assert match is not None
    width, height = int(match.group(1)), int(match.group(2))
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise bad("size", f"each side must be 1 to {MAX_SIDE} pixels, got {width}x{height}")
    return width, height


def pick_format(value: Any, save_as: str) -> ImageFormat:
    """The `format` field, or by default the format the `save_as` suffix names."""
    if value is not None:
        if not isinstance(value, str) or value.lower() not in FORMATS:
            raise bad("format", f"must be one of {', '.join(FORMATS)}, got {value!r}")
        return FORMATS[value.lower()]
    suffix = posixpath.splitext(save_as)[1].lower()
    if suffix not in SUFFIXES:
        raise bad("format", f"is not given and the save_as suffix {suffix or '(none)'!r} names "
                            f"no image format; give format ({', '.join(FORMATS)}) or end "
                            f"save_as with .jpg, .png or .webp")
    return FORMATS[SUFFIXES[suffix]]


def write(image: Image.Image, size: tuple[int, int] | None, image_format: ImageFormat,
          target: Path) -> None:
    """Save `image` at exactly `size` (stretched if the proportions differ) to `target`."""
    if size is not None and size != image.size:
        image = image.resize(size, Image.Resampling.LANCZOS)
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    image.save(target, format=image_format.pillow, **image_format.options)
