"""The watermark fonts: the provider's six Chinese font names mapped to installed CJK fonts.

None of SimSun & co. ships with Linux, so each name maps to the closest installed face by
style (Song/Fang-Song to a serif, Hei/You-Yuan to a sans, Kai/Li to whatever Kai or bold serif
exists), preferring the Simplified Chinese face of a collection. Without any CJK font installed,
Pillow's default font is used, so a watermark is still drawn (Latin text only).

The edge's text watermark (cloud/image.md's font list) adds `sc` and `tc` (the Simplified and
the Traditional Chinese face of a Noto CJK collection) and four Latin names mapped to the
installed metric look-alikes (DejaVu or Liberation; a CJK face when none is installed).
"""

from __future__ import annotations

import functools
from pathlib import Path

from PIL import ImageFont

FONT_ROOTS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
# File name patterns per provider font name, best first; the common tail is the fallback.
_ANY_CJK = ("NotoSansCJK-Regular*", "NotoSerifCJK-Regular*", "wqy-zenhei*", "wqy-microhei*",
            "NotoSansCJK*", "NotoSerifCJK*")
CANDIDATES: dict[str, tuple[str, ...]] = {
    "simsun": ("NotoSerifCJK-Regular*", *_ANY_CJK),
    "simhei": ("NotoSansCJK-Bold*", "wqy-zenhei*", *_ANY_CJK),
    "simkai": ("*ukai*", "*Kai*", "wqy-zenhei*", *_ANY_CJK),
    "simli": ("*Li*Shu*", "NotoSerifCJK-Bold*", *_ANY_CJK),
    "simyou": ("*YouYuan*", "wqy-microhei*", "NotoSansCJK-Regular*", *_ANY_CJK),
    "simfang": ("*Fang*", "NotoSerifCJK-Regular*", *_ANY_CJK),
    "sc": ("NotoSansCJK-Regular*", *_ANY_CJK),
    "tc": ("NotoSansCJK-Regular*", "NotoSerifCJK-Regular*", *_ANY_CJK),
    "arial": ("LiberationSans-Regular*", "DejaVuSans.ttf", *_ANY_CJK),
    "helvetica": ("LiberationSans-Regular*", "DejaVuSans.ttf", *_ANY_CJK),
    "georgia": ("DejaVuSerif.ttf", "LiberationSerif-Regular*", *_ANY_CJK),
    "roman": ("LiberationSerif-Regular*", "DejaVuSerif.ttf", *_ANY_CJK),
}
# The face a collection should give for a name: Traditional Chinese for `tc`, else Simplified.
_FACE_SUFFIX = {"tc": " TC"}
FontType = ImageFont.FreeTypeFont | ImageFont.ImageFont


@functools.cache
def installed_fonts() -> tuple[Path, ...]:
    found: list[Path] = []
    for root in FONT_ROOTS:
        if root.is_dir():
            found.extend(path for path in root.rglob("*")
                         if path.suffix.lower() in (".ttf", ".ttc", ".otf", ".otc"))
    return tuple(sorted(found))


@functools.cache
def font_file(name: str) -> tuple[Path, int] | None:
    """(file, face index) for a provider font name, or None when no CJK font is installed."""
    for pattern in CANDIDATES[name]:
        for path in installed_fonts():
            if path.match(pattern):
                return path, chinese_face(path, _FACE_SUFFIX.get(name, " SC"))
    return None


def simplified_chinese_face(path: Path) -> int:
    """In a collection (.ttc), the index of the face whose family names Simplified Chinese."""
    return chinese_face(path, " SC")


def chinese_face(path: Path, suffix: str) -> int:
    """In a collection (.ttc), the index of the face whose family name ends in `suffix`
    (` SC`, ` TC`); 0 when none does."""
    for index in range(32):
        try:
            family, _style = ImageFont.truetype(str(path), 12, index=index).getname()
        except OSError:
            break
        if family and family.endswith(suffix):
            return index
    return 0


def load(name: str, size: int) -> FontType:
    located = font_file(name)
    if located is None:
        return ImageFont.load_default(size)
    path, index = located
    return ImageFont.truetype(str(path), size, index=index)
