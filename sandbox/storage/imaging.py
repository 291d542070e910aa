"""Upload preprocessing carried out for real with Pillow.

Order of operations (the spec leaves it open): EXIF auto-orientation, crop (coordinates on the
image as it is seen), thumbnail scaling (then a mild unsharp mask unless switched off), rotation
by degrees clockwise, text watermark. Every frame of an animated image goes through the same
steps. The result keeps the source's format; quality applies to JPEG and WebP; EXIF is dropped
unless the EXIF switch is effective.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFilter, ImageSequence, UnidentifiedImageError

from sandbox.storage import disk, errors, fonts
from sandbox.storage.errors import StorageError
from sandbox.storage.gmkerl import MAX_SIDE, Crop, Preprocessing, Thumbnail, Watermark

ORIENTATION_TAG = 0x0112
RIGHT_ANGLES = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180,
                270: Image.Transpose.ROTATE_90}
UNSHARP = ImageFilter.UnsharpMask(radius=1, percent=60, threshold=2)
MAX_PIXELS = 100_000_000  # all frames together; keeps one upload from taking gigabytes


@dataclass(frozen=True)
class Processed:
    """The processed image as a temporary file, and what the upload answer reports."""

    received: disk.Received
    width: int
    height: int
    file_type: str
    frames: int

    def headers(self) -> dict[str, str]:
        return {"x-svc-width": str(self.width), "x-svc-height": str(self.height),
                "x-svc-file-type": self.file_type, "x-svc-frames": str(self.frames)}


def process(source: Path, options: Preprocessing) -> Processed:
    """Apply `options` to the image file `source`; 40300018 when it is not an image Pillow can
    read, 40000000 when it is one too large or of a format that cannot be written back, the
    code of the header when the options do not fit the image (e.g. a crop outside it)."""
    try:
        with Image.open(source) as image:
            # An MPO (a camera's stereo JPEG) is kept as its first picture, a plain JPEG.
            image_format = "JPEG" if image.format == "MPO" else image.format or "PNG"
            if image.width * image.height * getattr(image, "n_frames", 1) > MAX_PIXELS:
                raise StorageError(errors.BAD_REQUEST, f"the image is too large to preprocess "
                                                       f"(more than {MAX_PIXELS} pixels)")
            info = dict(image.info)  # before seeking: later frames lose e.g. the GIF loop
            exif = image.getexif()
            orientation = exif.get(ORIENTATION_TAG, 1) if options.rotate == "auto" else 1
            frames: list[Image.Image] = []
            durations: list[int] = []
            for frame in ImageSequence.Iterator(image):
                frames.append(transform(frame.copy(), options, orientation))
                durations.append(int(frame.info.get("duration", 100)))
                if image_format == "JPEG":
                    break
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError,
            ValueError) as error:
        raise StorageError(errors.NOT_AN_IMAGE,
                           f"the file is not an image that can be preprocessed ({error})") from None
    if options.exif_kept and orientation != 1:
        exif[ORIENTATION_TAG] = 1  # the pixels are upright now
    target = disk.temp_path()
    try:
        save(frames, durations, info, target, image_format, options,
             exif if options.exif_kept else None)
    except (OSError, ValueError, KeyError) as error:
        target.unlink(missing_ok=True)
        raise StorageError(errors.BAD_REQUEST,
                           f"images of format {image_format} cannot be preprocessed "
                           f"({error})") from None
    received = disk.Received(target, target.stat().st_size, file_md5(target))
    return Processed(received, frames[0].width, frames[0].height, image_format, len(frames))


def transform(frame: Image.Image, options: Preprocessing, orientation: int) -> Image.Image:
    frame = workable(frame)
    if orientation != 1:
        frame = upright(frame, orientation)
    if options.crop is not None:
        frame = cropped(frame, options.crop)
    if options.thumbnail is not None:
        size = thumbnail_size(frame.size, options.thumbnail)
        if size != frame.size:
            frame = frame.resize(size, Image.Resampling.LANCZOS)
            if options.unsharp:
                frame = frame.filter(UNSHARP)
    if isinstance(options.rotate, int):
        frame = rotated(frame, options.rotate)
    if options.watermark is not None:
        frame = watermarked(frame, options.watermark)
    return frame


def workable(frame: Image.Image) -> Image.Image:
    """Palette and bilevel images are widened, so resizing and drawing are not nearest-colour."""
    if frame.mode in ("P", "1", "PA"):
        has_alpha = frame.mode == "PA" or "transparency" in frame.info
        return frame.convert("RGBA" if has_alpha else "RGB")
    return frame


def upright(frame: Image.Image, orientation: int) -> Image.Image:
    """What EXIF orientation 2..8 asks for, applied to the pixels."""
    steps = {
        2: [Image.Transpose.FLIP_LEFT_RIGHT], 3: [Image.Transpose.ROTATE_180],
        4: [Image.Transpose.FLIP_TOP_BOTTOM], 5: [Image.Transpose.TRANSPOSE],
        6: [Image.Transpose.ROTATE_270], 7: [Image.Transpose.TRANSVERSE],
        8: [Image.Transpose.ROTATE_90],
    }
    for step in steps.get(orientation, []):
        frame = frame.transpose(step)
    return frame


def cropped(frame: Image.Image, crop: Crop) -> Image.Image:
    width, height = frame.size
    if crop.x >= width or crop.y >= height:
        raise errors.gmkerl_error("crop", f"starts at {crop.x},{crop.y}, outside the "
                                          f"{width}x{height} image")
    return frame.crop((crop.x, crop.y, min(width, crop.x + crop.width),
                       min(height, crop.y + crop.height)))


def thumbnail_size(size: tuple[int, int], thumb: Thumbnail) -> tuple[int, int]:
    width, height = size
    if thumb.kind == "fix_both":
        return check_side(thumb.width, thumb.height)
    if thumb.kind == "fix_width_or_height":
        if width <= thumb.width and height <= thumb.height:
            return size  # no scaling when too small
        ratio = min(thumb.width / width, thumb.height / height)
    elif thumb.kind == "fix_width":
        ratio = thumb.width / width
    elif thumb.kind == "fix_height":
        ratio = thumb.height / height
    elif thumb.kind == "fix_max":
        ratio = thumb.number / max(width, height)
    elif thumb.kind == "fix_min":
        ratio = thumb.number / min(width, height)
    else:  # fix_scale, percent
        ratio = thumb.number / 100
    exact = {"fix_width": (thumb.width, None), "fix_height": (None, thumb.height)}
    fixed_width, fixed_height = exact.get(thumb.kind, (None, None))
    return check_side(fixed_width or max(1, round(width * ratio)),
                      fixed_height or max(1, round(height * ratio)))


def check_side(width: int, height: int) -> tuple[int, int]:
    if width > MAX_SIDE or height > MAX_SIDE:
        raise errors.gmkerl_error("value", f"the result would be {width}x{height}, more "
                                           f"than {MAX_SIDE} pixels on a side")
    return width, height


def rotated(frame: Image.Image, degrees: int) -> Image.Image:
    """Clockwise; right angles are exact, others expand the canvas (white or transparent)."""
    if degrees == 360:
        return frame
    if degrees in RIGHT_ANGLES:
        return frame.transpose(RIGHT_ANGLES[degrees])
    fill: Any = (255, 255, 255, 0) if frame.mode in ("RGBA", "LA") else "white"
    if frame.mode not in ("RGB", "RGBA", "L", "LA"):
        frame = frame.convert("RGB")
    return frame.rotate(-degrees, resample=Image.Resampling.BICUBIC, expand=True,
                        fillcolor=fill)


def watermarked(frame: Image.Image, mark: Watermark) -> Image.Image:
    original_mode = frame.mode
    base = frame.convert("RGBA")
    overlay = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    font = fonts.load(mark.font, mark.size)
    alpha = round(255 * (100 - mark.opacity) / 100)
    stroke = max(1, mark.size // 16) if mark.border else 0
    left, top, right, bottom = draw.textbbox((0, 0), mark.text, font=font, stroke_width=stroke)
    x = aligned(mark.halign, ("left", "center", "right"), base.width, right - left,
                mark.margin_x) - left
    y = aligned(mark.valign, ("top", "middle", "bottom"), base.height, bottom - top,
                mark.margin_y) - top
    stroke_fill = None
    if mark.border:
        red, green, blue, border_alpha = mark.border
        stroke_fill = (red, green, blue, round(border_alpha * alpha / 255))
    draw.text((x, y), mark.text, font=font, fill=(*mark.color, alpha), stroke_width=stroke,
              stroke_fill=stroke_fill)
    combined = Image.alpha_composite(base, overlay)
    if original_mode in ("RGB", "L", "CMYK"):
        return combined.convert("RGB")
    return combined


def aligned(where: str, names: tuple[str, str, str], outer: int, inner: float,
            gap: int) -> float:
    """Start coordinate of a box of size `inner` placed at `where` in `outer`, `gap` from the
    edge it sticks to (centred boxes ignore the gap)."""
    start, middle, _end = names
    if where == start:
        return gap
    if where == middle:
        return (outer - inner) // 2
    return outer - inner - gap


def save(frames: list[Image.Image], durations: list[int],
         info: dict[str | tuple[int, int], Any], target: Path, image_format: str,
         options: Preprocessing, exif: Image.Exif | None) -> None:
    first = frames[0]
    params: dict[str, Any] = {"format": image_format}
    if image_format == "JPEG":
        params["quality"] = options.quality
        frames = [frame if frame.mode in ("RGB", "L", "CMYK") else frame.convert("RGB")
                  for frame in frames]
        first = frames[0]
    elif image_format == "WEBP":
        params["quality"] = options.quality
    if info.get("icc_profile"):
        params["icc_profile"] = info["icc_profile"]
    if exif is not None and image_format in ("JPEG", "PNG", "WEBP", "TIFF"):
        params["exif"] = exif.tobytes()
    if len(frames) > 1:
        params.update(save_all=True, append_images=frames[1:], duration=durations,
                      loop=info.get("loop", 0))
    first.save(target, **params)


def file_md5(path: Path) -> str:
    digest = hashlib.md5()
    with open(path, "rb") as handle:
        while chunk := handle.read(disk.CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
