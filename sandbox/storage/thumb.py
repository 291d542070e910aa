"""`x-gmkerl-thumb` at upload: the storage side.

The processing itself is the edge's (sandbox/delivery/upload_thumb.py: the same parameters,
versions and drawing as image URLs), registered here when the delivery app starts: the edge
reads storage, so storage may not import the edge. Without a registered processor (the
delivery app not installed) `x-gmkerl-thumb` is refused by name.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Protocol

from PIL import Image

from sandbox.storage import disk, form_errors
from sandbox.storage.errors import StorageError

HEADER = "x-gmkerl-thumb"


class Processor(Protocol):
    def check(self, text: str) -> None:
        """Refuse (StorageError) a processing string whose parameters are bad."""

    def render(self, bucket: str, text: str, source: Path) -> bytes:
        """The image file `source` processed as `text` asks, encoded (StorageError when the
        version is unknown or the file is not an image)."""


_processor: Processor | None = None


def register(processor: Processor) -> None:
    global _processor
    _processor = processor


def processor() -> Processor:
    if _processor is None:
        raise StorageError(form_errors.BAD_THUMB, f"{HEADER} needs the edge's image processing, "
                                             "which is not running")
    return _processor


def check(text: str) -> None:
    processor().check(text)


def apply(bucket: str, text: str, source: Path) -> disk.Received:
    """The processed image as a new temporary file."""
    body = processor().render(bucket, text, source)
    return disk.receive(io.BytesIO(body), len(body))


def image_info(path: Path) -> dict[str, str] | None:
    """Width, height, type and frames of an image file (the upload answer's image fields);
    None when the file is not an image."""
    try:
        with Image.open(path) as image:
            kind = "JPEG" if image.format == "MPO" else (image.format or "")
            return {"width": str(image.width), "height": str(image.height), "type": kind,
                    "frames": str(getattr(image, "n_frames", 1))}
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return None
