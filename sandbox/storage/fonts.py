"""The watermark fonts: the provider's six Chinese font names mapped to installed CJK fonts.

None of SimSun & co. ships with Linux, so each name maps to the closest installed face by
style (Song/Fang-Song to a serif, Hei/You-Yuan to a sans, Kai/Li to whatever Kai or bold serif
exists), preferring the Simplified Chinese face of a collection. Without any CJK font installed,
Pillow's default font is used, so a watermark is still drawn (Latin text only).
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
}
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
                return path, simplified_chinese_face(path)
    return None


def simplified_chinese_face(path: Path) -> int:
    """In a collection (.ttc), the index of the face whose family names Simplified Chinese."""
    for index in range(32):
        try:
            family, _style = ImageFont.truetype(str(path), 12, index=index).getname()
        except OSError:
            break
        if family and family.endswith(" SC"):
            return index
    return 0


def load(name: str, size: int) -> FontType:
    located = font_file(name)
    if located is None:
        return ImageFont.load_default(size)
    path, index = located
    return ImageFont.truetype(str(path), size, index=index)
