"""Theme-colour extraction at upload (`x-gmkerl-extract-color-count`, `x-gmkerl-extract-format`;
cloud/image.md "主题色提取", the same as the URL keys `/excolor/<n>` and `/exformat/<f>`).

The page: 1 to 4096 colours; the format `hex` gives `0xRRGGBB` (a string), `dec` the number
RRGGBB as a decimal integer, `dec` being the default. The result is a JSON list of colours,
most frequent first: `[{"color": "0xff00aa", "count": 1234}, ...]`, `count` being how many
pixels of the (reduced) image are nearest that colour.

How (the page does not say): the image is reduced to at most 256x256, then median-cut
quantised to the number of colours asked for (Pillow's quantiser stops at 256; above that the
reduced image's exact colours are counted). The reduction picks pixels (nearest neighbour), so
it invents no blended colours; transparent pixels are left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from PIL import Image

from sandbox.storage import form_errors
from sandbox.storage.errors import StorageError

FORMATS = ("dec", "hex")
DEFAULT_FORMAT = "dec"
MAX_COLOURS = 4096
DEFAULT_COLOURS = 256
SAMPLE_SIDE = 256
QUANTISER_MAX = 256

Colour = dict[str, int | str]


def extract(path: Path | IO[bytes], count: int, colour_format: str) -> list[Colour]:
    try:
        with Image.open(path) as image:
            sample = image.convert("RGBA")
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise StorageError(form_errors.NOT_AN_IMAGE, "theme-colour extraction needs an image; the "
                                                "file is not one") from None
    sample.thumbnail((SAMPLE_SIDE, SAMPLE_SIDE), Image.Resampling.NEAREST)  # no blended colours
    opaque = [(red, green, blue) for red, green, blue, alpha in rgba_pixels(sample)
              if alpha >= 128]
    if not opaque:
        return []
    flat = Image.new("RGB", (len(opaque), 1))
    flat.putdata(opaque)
    counted = counts(flat, count)
    counted.sort(key=lambda item: (-item[0], item[1]))
    return [{"color": written(rgb, colour_format), "count": number}
            for number, rgb in counted[:count]]


def rgba_pixels(image: Image.Image) -> list[tuple[int, int, int, int]]:
    raw = image.tobytes()  # RGBA, four bytes a pixel
    return [(raw[i], raw[i + 1], raw[i + 2], raw[i + 3]) for i in range(0, len(raw), 4)]


def counts(flat: Image.Image, count: int) -> list[tuple[int, tuple[int, int, int]]]:
    if count <= QUANTISER_MAX:
        reduced = flat.quantize(colors=count, method=Image.Quantize.MEDIANCUT)
        palette = reduced.getpalette() or []
        found: list[tuple[int, Any]] = list(reduced.getcolors(QUANTISER_MAX) or [])
        return [(number, (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2]))
                for number, index in found]
    exact: list[tuple[int, Any]] = list(flat.getcolors(flat.width) or [])
    return [(number, (rgb[0], rgb[1], rgb[2])) for number, rgb in exact]


def written(rgb: tuple[int, int, int], colour_format: str) -> int | str:
    value = (rgb[0] << 16) | (rgb[1] << 8) | rgb[2]
    return f"0x{value:06x}" if colour_format == "hex" else value
