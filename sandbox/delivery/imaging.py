"""URL-parameter image processing carried out for real with Pillow.

Order of operations, whatever the order of the keys in the URL (the spec leaves it open):
EXIF orientation (`rotate/auto`), crop (on the image as stored, before any scaling), scaling,
clip (after scaling), rounded corners, rotation (clockwise), flip, Gaussian blur, sharpening,
canvas, border, gradient, the watermarks in the order given (watermarks.py), then the output
encoding (format, quality, lossless, progressive, compress; ICC profile and EXIF kept or
dropped). The geometry is imageshapes.py's. With `/info` or `/meta` the answer is the result's
information as JSON (imageinfo.py), with `/excolor` its theme colours, instead of the image.
A multi-frame GIF that stays a GIF has every frame processed unless `gifto/true` asks for the
first frame only (watermarks only with their `animate/true`); other multi-frame images keep
their first frame. Pillow always reads a GIF's frames whole, so `coalesce/false` changes
nothing. Saving as JPEG puts transparent pixels on white.
Defaults: canvas and border colour opaque white (the page's FFFFFF00); the output keeps the
source's format and ICC profile and drops its EXIF (the page: "默认会删除 EXIF 信息";
`exifswitch/true` keeps it, `noicc/true` drops the profile, `strip/true` drops both).
"""

from __future__ import annotations

import dataclasses
import io
import json
from dataclasses import dataclass
from typing import BinaryIO

from PIL import Image, ImageFilter, ImageOps, ImageSequence, UnidentifiedImageError

from sandbox.delivery import imageinfo, imageshapes, watermarks
from sandbox.delivery.imageparams import MAX_SIDE, Box, ImageParamError, Recipe, Rgba, Scaling
from sandbox.delivery.imagevalues import opaque
from sandbox.delivery.watermarks import MarkLoader
from sandbox.storage import theme_colour

MAX_PIXELS = 40_000_000  # a result larger than this is refused: memory, not the spec
PAGE_MAX_SIDE = 20_000  # cloud/image.md: the largest width or height it processes
PAGE_MAX_PIXELS = 200_000_000  # and width x height x frames
WHITE: Rgba = (255, 255, 255, 255)
OUTPUT_FORMATS = {"jpg": "JPEG", "png": "PNG", "webp": "WEBP"}
EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif"}
SHARPEN = ImageFilter.UnsharpMask(radius=2, percent=150, threshold=3)


class NotAnImage(ValueError):
    """The stored file is not an image Pillow can read; `info` when image information was
    asked (cloud/image.md answers that case 406 rather than 405)."""

    def __init__(self, message: str, *, info: bool = False) -> None:
        super().__init__(message)
        self.info = info


class LimitExceeded(ValueError):
    """An image beyond cloud/image.md's limits ("其他约束"): a side above 20,000 pixels is 405
    "Image Width/Height Limit Error", width x height x frames above 200 million 409 "Limit
    Exceeded" (the status table's)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


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
    if recipe.excolor is not None:
        return _theme_colours(source, recipe, load)
    return _image(source, recipe, load)


def _theme_colours(source: BinaryIO, recipe: Recipe, load: MarkLoader | None) -> Rendered:
    """`/excolor/<n>`: the result's theme colours, as upload extraction gives them
    (sandbox/storage/theme_colour.py), `{"colors": [{"color", "count"}, ...]}`."""
    processing = dataclasses.replace(recipe, excolor=None, exformat="dec")
    described = io.BytesIO(_image(source, processing, load).body)
    colours = theme_colour.extract(described, recipe.excolor or 1, recipe.exformat)
    body = json.dumps({"colors": colours}).encode()
    return Rendered(body, "application/json", "json")


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
            within_limits(image.width, image.height, frames)
            if frames > 1 and target == "GIF" and not recipe.gifto:
                if frames * image.width * image.height > MAX_PIXELS:  # every frame is decoded
                    raise NotAnImage(f"the animation has {frames} frames of {image.width}x"
                                     f"{image.height}, more than the edge processes")
                return _render_animation(image, recipe, load)
            kept = {name: image.info[name] for name in ("icc_profile", "exif")
                    if image.info.get(name)}
            frame = transform(image.copy(), recipe, load=load)
            return _encode(frame, target, recipe, kept)
    except Image.DecompressionBombError as error:  # Pillow's own limit, below the page's
        raise LimitExceeded(409, f"Limit Exceeded: {error}") from None
    except (UnidentifiedImageError, OSError, SyntaxError) as error:
        raise NotAnImage(f"the file is not an image the edge can process ({error})") from None


def within_limits(width: int, height: int, frames: int) -> None:
    if width > PAGE_MAX_SIDE or height > PAGE_MAX_SIDE:
        raise LimitExceeded(405, f"Image Width/Height Limit Error: the image is {width}x{height}, "
                                 f"at most {PAGE_MAX_SIDE} a side")
    if width * height * frames > PAGE_MAX_PIXELS:
        raise LimitExceeded(409, f"Limit Exceeded: {width}x{height}x{frames} frames is more than "
                                 f"{PAGE_MAX_PIXELS} pixels")


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
        image = imageshapes.cut(image, "crop", recipe.crop, recipe.crop_gravity)
    if recipe.scaling is not None:
        image = _scale(image, recipe.scaling, force=recipe.force)
    if recipe.clip is not None:
        image = imageshapes.cut(image, "clip", recipe.clip, recipe.clip_gravity)
    if recipe.roundrect is not None:
        image = imageshapes.rounded(image, recipe.roundrect)
    if recipe.rotate is not None and recipe.rotate != "auto":
        image = imageshapes.rotated(image, recipe.rotate)
        _checked("rotate", image.width, image.height)
    if recipe.flip is not None:
        image = imageshapes.flipped(image, recipe.flip)
    if recipe.gaussblur is not None or recipe.unsharp:
        image = _filtered(image, recipe)
    if recipe.canvas is not None:
        image = _on_canvas(image, recipe.canvas, opaque(recipe.cvscolor or (255, 255, 255, 0)))
    if recipe.border is not None:
        image = _bordered(image, recipe.border, opaque(recipe.brdcolor or (255, 255, 255, 0)))
    if recipe.gradient is not None:
        image = imageshapes.with_gradient(image, recipe.gradient)
    if recipe.watermarks:
        image = watermarks.apply(image, recipe.watermarks, load, animated=animated)
    return image


def _checked(key: str, width: int, height: int) -> tuple[int, int]:
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise ImageParamError(key, f"the result would be {width}x{height}, larger than the edge "
                                   f"makes (at most {MAX_SIDE} a side, {MAX_PIXELS} pixels)")
    return max(1, width), max(1, height)


def _scale(image: Image.Image, scaling: Scaling, *, force: bool = False) -> Image.Image:
    width, height = _checked(scaling.key, *imageshapes.scaled_size(
        image.width, image.height, scaling, force=force))
    if (width, height) != image.size:
        image = image.resize((width, height), Image.Resampling.LANCZOS)
    if scaling.key == "sq":
        image = imageshapes.middle_crop(image, scaling.width, scaling.width)
    elif scaling.key == "both" and not force:
        image = imageshapes.middle_crop(image, scaling.width, scaling.height)
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
    where = ((box.width - image.width) // 2, (box.height - image.height) // 2) if box.centred \
        else (box.x, box.y)
    return _composited(canvas, image, where)


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


def _save_options(target: str, recipe: Recipe,
                  kept: dict[str, bytes] | None = None) -> dict[str, object]:
    options: dict[str, object] = {}
    kept = kept or {}
    if recipe.noicc or recipe.strip:
        options["icc_profile"] = None  # else Pillow writes the frame's own profile
    elif "icc_profile" in kept:
        options["icc_profile"] = kept["icc_profile"]
    if "exif" in kept and recipe.exifswitch and not recipe.strip and target != "GIF":
        options["exif"] = kept["exif"]
    if target == "WEBP" and recipe.lossless:
        options["lossless"] = True
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


def _encode(image: Image.Image, target: str, recipe: Recipe,
            kept: dict[str, bytes] | None = None) -> Rendered:
    buffer = io.BytesIO()
    _for_format(image, target).save(buffer, format=target,
                                    **_save_options(target, recipe, kept))
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
