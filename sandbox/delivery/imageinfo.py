"""The image-information answers of the edge (cloud/image.md, "属性获取").

`/info` is the basic information: `{"width", "height", "type", "frames"}`, the keys of the
page's upload callback (`imginfo`), `type` being the format as the upload answer's
`x-svc-file-type` gives it (`JPEG`, `PNG`, `GIF`, `WEBP`, ...). `/meta` adds `EXIF` (tag name
to value), `/meta/iptc` adds `IPTC` (`record:dataset` to value), `/meta/all` both; an image
without such data gets an empty object. Values are text: numbers and ratios as written by
Pillow, bytes decoded as UTF-8 where they can be, else as hexadecimal.
"""

from __future__ import annotations

from PIL import ExifTags, Image, ImageFile, IptcImagePlugin

from sandbox.core.json_types import JSONObject, JSONValue


def describe(image: Image.Image, kind: str) -> JSONObject:
    found: JSONObject = {
        "width": image.width,
        "height": image.height,
        "type": "JPEG" if image.format == "MPO" else (image.format or "PNG"),
        "frames": getattr(image, "n_frames", 1),
    }
    if kind in ("meta", "meta/all"):
        found["EXIF"] = exif(image)
    if kind in ("meta/iptc", "meta/all"):
        found["IPTC"] = iptc(image)
    return found


def exif(image: Image.Image) -> JSONObject:
    tags = image.getexif()
    found: JSONObject = {}
    for tag, value in tags.items():
        found[ExifTags.TAGS.get(tag, str(tag))] = _text(value)
    return found


def iptc(image: Image.Image) -> JSONObject:
    if not isinstance(image, ImageFile.ImageFile):
        return {}
    records = IptcImagePlugin.getiptcinfo(image) or {}
    found: JSONObject = {}
    for (record, dataset), value in records.items():
        values = value if isinstance(value, list) else [value]
        texts = [_text(item) for item in values]
        found[f"{record}:{dataset}"] = texts[0] if len(texts) == 1 else texts
    return found


def _text(value: object) -> JSONValue:
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8").rstrip("\x00")
        except UnicodeDecodeError:
            return value.hex()
    return str(value)
