"""URL-parameter image processing carried out for real with Pillow.

Order of operations, whatever the order of the keys in the URL (the spec leaves it open):
EXIF orientation (`rotate/auto`), crop (on the image as stored, before any scaling), scaling,
rotation by 90/180/270 degrees clockwise, Gaussian blur, sharpening, canvas, border, the
watermarks in the order given (watermarks.py), then the output encoding (format, quality,
progressive, compress). fw, fh, fwfh, max and min never enlarge without `force/true`
(cloud/image.md); sq, both and scale (1-1000) always give the size they name. With `/info` or
`/meta` the answer is the result's information as JSON (imageinfo.py) instead of the image.
A multi-frame GIF that stays a GIF has every frame processed unless `gifto/true` asks for the
first frame only (watermarks only with their `animate/true`); other multi-frame images keep
their first frame. Saving as JPEG puts transparent pixels on white.
Defaults: canvas and border colour opaque white; the output keeps the source's format.
"""

from __future__ import annotations

import dataclasses
import io
import json
from dataclasses import dataclass
from typing import BinaryIO

from PIL import Image, ImageFilter, ImageOps, ImageSequence, UnidentifiedImageError

from sandbox.delivery import imageinfo, watermarks
from sandbox.delivery.imageparams import (
    FORCED_KEYS,
    MAX_SIDE,
    Box,
    ImageParamError,
    Recipe,
    Rgba,
    Scaling,
)
from sandbox.delivery.watermarks import MarkLoader

MAX_PIXELS = 40_000_000  # a result larger than this is refused: memory, not the spec
WHITE: Rgba = (255, 255, 255, 255)
OUTPUT_FORMATS = {"jpg": "JPEG", "png": "PNG", "webp": "WEBP"}
EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif"}
CLOCKWISE = {"90": Image.Transpose.ROTATE_270, "180": Image.Transpose.ROTATE_180,
             "270": Image.Transpose.ROTATE_90}
SHARPEN = ImageFilter.UnsharpMask(radius=2, percent=150, threshold=3)


class NotAnImage(ValueError):
    """The stored file is not an image Pillow can read; `info` when image information was
    asked (cloud/image.md answers that case 406 rather than 405)."""

    def __init__(self, message: str, *, info: bool = False) -> None:
        super().__init__(message)
        self.info = info


@dataclass(frozen=True)
class Rendered:
    body: bytes
    content_type: str
    extension: str


def render(source: BinaryIO, recipe: Recipe, *, load: MarkLoader | None = None) -> Rendered:
    """Apply `recipe` to the image read from the open file `source`. Raises NotAnImage, or
    ImageParamError when the values do not fit this image (a crop outside it, a result too
    large). `load` opens the images of `/watermark/url/` marks."""
    if recipe.info is not None:
        return _information(source, recipe, load)
    return _image(source, recipe, load)


def _information(source: BinaryIO, recipe: Recipe, load: MarkLoader | None) -> Rendered:
    """The information of the result: of the stored image itself when nothing else is asked
    (EXIF and IPTC included), else of the processed image."""
    processing = dataclasses.replace(recipe, info=None)
    try:
        if processing != Recipe():
            described = io.BytesIO(_image(source, processing, load).body)
        else:
            described = source  # type: ignore[assignment]
        with Image.open(described) as image:
            found = imageinfo.describe(image, recipe.info or "info")
    except NotAnImage as error:
        raise NotAnImage(str(error), info=True) from None
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError) as error:
        raise NotAnImage(f"the file is not an image the edge can describe ({error})",
                         info=True) from None
    body = json.dumps(found, ensure_ascii=False).encode()
    return Rendered(body, "application/json", "json")


def _image(source: BinaryIO, recipe: Recipe, load: MarkLoader | None) -> Rendered:
    try:
        with Image.open(source) as image:
            source_format = "JPEG" if image.format == "MPO" else (image.format or "PNG")
            target = output_format(source_format, recipe)
            frames = getattr(image, "n_frames", 1)
            if frames > 1 and target == "GIF" and not recipe.gifto:
                if frames * image.width * image.height > MAX_PIXELS:  # every frame is decoded
                    raise NotAnImage(f"the animation has {frames} frames of {image.width}x"
                                     f"{image.height}, more than the edge processes")
                return _render_animation(image, recipe, load)
            frame = transform(image.copy(), recipe, load=load)
            return _encode(frame, target, recipe)
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError) as error:
        raise NotAnImage(f"the file is not an image the edge can process ({error})") from None


def output_format(source_format: str, recipe: Recipe) -> str:
    if recipe.format is not None:
        return OUTPUT_FORMATS[recipe.format]
    return source_format if source_format in Image.SAVE else "PNG"


def transform(image: Image.Image, recipe: Recipe, *, load: MarkLoader | None = None,
              animated: bool = False) -> Image.Image:
    if recipe.rotate == "auto":
        image = ImageOps.exif_transpose(image)
    if image.mode in ("1", "P"):  # palette images would be scaled by nearest neighbour
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
    if recipe.crop is not None:
        image = _crop(image, recipe.crop)
    if recipe.scaling is not None:
        image = _scale(image, recipe.scaling, force=recipe.force)
    if recipe.rotate in CLOCKWISE:
        image = image.transpose(CLOCKWISE[recipe.rotate])
    if recipe.gaussblur is not None or recipe.unsharp:
        image = _filtered(image, recipe)
    if recipe.canvas is not None:
        image = _on_canvas(image, recipe.canvas, recipe.cvscolor or WHITE)
    if recipe.border is not None:
        image = _bordered(image, recipe.border, recipe.brdcolor or WHITE)
    if recipe.watermarks:
        image = watermarks.apply(image, recipe.watermarks, load, animated=animated)
    return image


def _checked(key: str, width: int, height: int) -> tuple[int, int]:
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise ImageParamError(key, f"the result would be {width}x{height}, larger than the edge "
                                   f"makes (at most {MAX_SIDE} a side, {MAX_PIXELS} pixels)")
    return max(1, width), max(1, height)


def _crop(image: Image.Image, box: Box) -> Image.Image:
    if box.x >= image.width or box.y >= image.height:
        raise ImageParamError("crop", f"the point {box.x},{box.y} is outside the "
                                      f"{image.width}x{image.height} image")
    right = min(image.width, box.x + box.width)
    bottom = min(image.height, box.y + box.height)
    return image.crop((box.x, box.y, right, bottom))


def scaled_size(width: int, height: int, scaling: Scaling, *,
                force: bool = False) -> tuple[int, int]:
    """The size a scaling key gives an image of width x height (before the square crop of sq).
    fw, fh, fwfh, max and min keep the image's size rather than enlarge it, unless `force`."""
    wanted = _wanted_size(width, height, scaling)
    if scaling.key in FORCED_KEYS and not force and wanted[0] > width:
        return width, height
    return wanted


def _wanted_size(width: int, height: int, scaling: Scaling) -> tuple[int, int]:
    key = scaling.key
    if key == "fw":
        return scaling.width, round(height * scaling.width / width)
    if key == "fh":
        return round(width * scaling.width / height), scaling.width
    if key == "fwfh":
        factor = min(scaling.width / width, scaling.height / height)
        return round(width * factor), round(height * factor)
    if key == "both":
        return scaling.width, scaling.height
    if key == "scale":
        return round(width * scaling.width / 100), round(height * scaling.width / 100)
    longest, shortest = max(width, height), min(width, height)
    if key == "max":
        factor = scaling.width / longest
    elif key == "min":
        factor = scaling.width / shortest
    else:  # sq: cover the square, then crop its centre
        factor = scaling.width / shortest
    return round(width * factor), round(height * factor)


def _scale(image: Image.Image, scaling: Scaling, *, force: bool = False) -> Image.Image:
    width, height = _checked(scaling.key, *scaled_size(image.width, image.height, scaling,
                                                       force=force))
    if (width, height) != image.size:
        image = image.resize((width, height), Image.Resampling.LANCZOS)
    if scaling.key == "sq":
        side = scaling.width
        left, top = (image.width - side) // 2, (image.height - side) // 2
        image = image.crop((left, top, left + side, top + side))
    return image


def _filtered(image: Image.Image, recipe: Recipe) -> Image.Image:
    # Filters need a mode without a palette; P images come back as RGBA to keep transparency.
    if image.mode not in ("RGB", "RGBA", "L", "LA"):
        image = image.convert("RGBA")
    if recipe.gaussblur is not None:
        # Pillow's blur is defined by sigma alone; the radius was checked but has no knob here.
        image = image.filter(ImageFilter.GaussianBlur(recipe.gaussblur[1]))
    if recipe.unsharp:
        image = image.filter(SHARPEN)
    return image


def _on_canvas(image: Image.Image, box: Box, colour: Rgba) -> Image.Image:
    _checked("canvas", box.width, box.height)
    canvas = Image.new("RGBA", (box.width, box.height), colour)
    return _composited(canvas, image, (box.x, box.y))


def _composited(background: Image.Image, image: Image.Image,
                where: tuple[int, int]) -> Image.Image:
    """`image` laid over `background` at `where`; what falls outside is cut off."""
    layer = Image.new("RGBA", background.size, (0, 0, 0, 0))
    layer.paste(image.convert("RGBA"), where)
    background.alpha_composite(layer)
    return background


def _bordered(image: Image.Image, border: tuple[int, int], colour: Rgba) -> Image.Image:
    across, down = border
    size = _checked("border", image.width + 2 * across, image.height + 2 * down)
    return _composited(Image.new("RGBA", size, colour), image, (across, down))


def _for_format(image: Image.Image, target: str) -> Image.Image:
    if target == "JPEG":
        if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
            flat = Image.new("RGBA", image.size, WHITE)
            flat.alpha_composite(image.convert("RGBA"))
            return flat.convert("RGB")
        return image if image.mode in ("RGB", "L", "CMYK") else image.convert("RGB")
    if target == "WEBP" and image.mode not in ("RGB", "RGBA"):
        return image.convert("RGBA" if "A" in image.mode or "transparency" in image.info
                             else "RGB")
    return image


def _save_options(target: str, recipe: Recipe) -> dict[str, object]:
    options: dict[str, object] = {}
    if target in ("JPEG", "WEBP") and recipe.quality is not None:
        options["quality"] = recipe.quality
    if target == "JPEG" and recipe.progressive:
        options["progressive"] = True
    if recipe.compress:
        if target == "WEBP":
            options["method"] = 6
        else:
            options["optimize"] = True
    return options


def _encode(image: Image.Image, target: str, recipe: Recipe) -> Rendered:
    buffer = io.BytesIO()
    _for_format(image, target).save(buffer, format=target, **_save_options(target, recipe))
    return Rendered(buffer.getvalue(), Image.MIME.get(target, "application/octet-stream"),
                    EXTENSIONS.get(target, target.lower()))


def _render_animation(image: Image.Image, recipe: Recipe,
                      load: MarkLoader | None) -> Rendered:
    frames: list[Image.Image] = []
    durations: list[int] = []
    for frame in ImageSequence.Iterator(image):
        frames.append(transform(frame.convert("RGBA"), recipe, load=load, animated=True))
        durations.append(int(frame.info.get("duration", 100)))
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:],
                   duration=durations, loop=image.info.get("loop", 0), disposal=2,
                   **_save_options("GIF", recipe))
    return Rendered(buffer.getvalue(), "image/gif", "gif")
