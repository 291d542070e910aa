"""Upload preprocessing, one runner for the REST PUT and the FORM API.

In order: the legacy drawing headers (`imaging.py`), when any is given; then `x-gmkerl-thumb`
(or the legacy version header), drawn the edge's way (`thumb.py`,
`sandbox/delivery/upload_thumb.py`); then theme-colour
extraction on the image as stored. The answer's image fields (`x-svc-width`,
`x-svc-height`, `x-svc-file-type`, `x-svc-frames`) describe the stored image.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from sandbox.storage import disk, imaging, theme_colour, thumb
from sandbox.storage.gmkerl import Preprocessing
from sandbox.storage.theme_colour import Colour


@dataclass(frozen=True)
class Outcome:
    received: disk.Received  # what is to be stored
    image: dict[str, str] | None  # width, height, type, frames of the stored image
    colours: list[Colour] | None  # theme colours, when asked for
    redrawn: bool = False  # by x-gmkerl-thumb, which may change the format

    @property
    def mime_type(self) -> str | None:
        """The stored image's type when a processing string may have changed its format."""
        if not self.redrawn or self.image is None:
            return None
        return Image.MIME.get(self.image["type"])

    def headers(self) -> dict[str, str]:
        if self.image is None:
            return {}
        return {"x-svc-width": self.image["width"], "x-svc-height": self.image["height"],
                "x-svc-file-type": self.image["type"], "x-svc-frames": self.image["frames"]}


def run(bucket: str, received: disk.Received, options: Preprocessing) -> Outcome:
    """Process the temporary file `received`; the caller discards what this returns on a later
    failure, and this discards `received` once it is replaced."""
    current = received
    try:
        if options.drawing:
            processed = imaging.process(current.path, options)
            current = replaced(current, processed.received)
        if options.thumb is not None:
            current = replaced(current, thumb.apply(bucket, options.thumb, current.path))
        colours = None
        if options.extract:
            colours = theme_colour.extract(current.path, options.extract_color_count,
                                           options.extract_format)
        info = thumb.image_info(current.path)
    except BaseException:
        if current is not received:
            current.discard()
        raise
    return Outcome(current, info, colours, redrawn=options.thumb is not None)


def replaced(old: disk.Received, new: disk.Received) -> disk.Received:
    old.discard()
    return new
