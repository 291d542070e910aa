"""Watermark fonts: the provider's six font names map to installed CJK faces, with a fallback."""

from __future__ import annotations

import pytest
from PIL import ImageFont

from sandbox.storage import fonts
from sandbox.storage.gmkerl import FONTS

CJK_INSTALLED = any(fonts.font_file(name) for name in FONTS)


def draws_a_real_glyph(font: fonts.FontType, character: str) -> bool:
    """A missing glyph renders as the font's 'tofu' box, the same as a private-use character."""
    missing = font.getmask("\ue000")
    found = font.getmask(character)
    return found.size != missing.size or bytes(found) != bytes(missing)


@pytest.mark.skipif(not CJK_INSTALLED, reason="no CJK font installed on this machine")
@pytest.mark.parametrize("name", FONTS)
def test_each_font_name_draws_chinese(name):
    located = fonts.font_file(name)
    assert located is not None
    path, index = located
    assert path.suffix.lower() in (".ttf", ".ttc", ".otf", ".otc")
    font = fonts.load(name, 40)
    assert isinstance(font, ImageFont.FreeTypeFont)
    assert draws_a_real_glyph(font, "沙")


@pytest.mark.skipif(not CJK_INSTALLED, reason="no CJK font installed on this machine")
def test_a_collection_prefers_its_simplified_chinese_face():
    located = [found for name in FONTS if (found := fonts.font_file(name)) is not None]
    collections = [(path, index) for path, index in located if path.suffix.lower() == ".ttc"
                   and "Noto" in path.name]
    for path, index in collections:
        family, _style = ImageFont.truetype(str(path), 12, index=index).getname()
        assert family is not None
        assert family.endswith(" SC")


def test_without_any_installed_font_the_default_font_is_used(monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "FONT_ROOTS", (tmp_path,))
    fonts.installed_fonts.cache_clear()
    fonts.font_file.cache_clear()
    try:
        assert fonts.font_file("simsun") is None
        font = fonts.load("simsun", 32)
        assert font.getbbox("Sandbox")[2] > 0
    finally:
        fonts.installed_fonts.cache_clear()
        fonts.font_file.cache_clear()
