"""HTML minification (content-delivery.md, "Page optimisation"): comments and needless
whitespace go, and nothing that could change what the page shows or runs.

- The content of <pre>, <textarea>, <script> and <style> is kept byte for byte.
- Comments are removed, except IE conditional comments (`<!--[if ...]>`), which are code.
- Every run of whitespace in text becomes one space, and whitespace next to a block-level tag
  (or at the start or end of the page) is removed; between inline elements one space stays,
  because there it renders.
- Tags themselves are left alone: attribute values may hold meaningful whitespace.
"""

from __future__ import annotations

import re

_TOKENS = re.compile(
    r"(?P<raw><(?P<rawtag>pre|textarea|script|style)\b[^>]*>.*?</(?P=rawtag)\s*>)"
    r"|(?P<comment><!--.*?-->)"
    r"|(?P<tag><[^>]*>)",
    re.IGNORECASE | re.DOTALL,
)
_WHITESPACE = re.compile(r"\s+")
_TAG_NAME = re.compile(r"</?\s*([!a-zA-Z][a-zA-Z0-9-]*)")
BLOCK_TAGS = frozenset({
    "!doctype", "address", "article", "aside", "base", "blockquote", "body", "br", "caption",
    "col", "colgroup", "dd", "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption",
    "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup",
    "hr", "html", "li", "link", "main", "meta", "nav", "noscript", "ol", "option", "p", "pre",
    "script", "section", "style", "summary", "table", "tbody", "td", "textarea", "tfoot", "th",
    "thead", "title", "tr", "ul",
})

# Token kinds.
TEXT, TAG, BLOCK, KEEP = "text", "tag", "block", "keep"


def minify(html: str) -> str:
    tokens = _tokenize(html)
    out: list[str] = []
    for index, (kind, value) in enumerate(tokens):
        if kind != TEXT:
            out.append(value)
            continue
        text = _WHITESPACE.sub(" ", value)
        if _is_block(tokens, index - 1):
            text = text.lstrip(" ")
        if _is_block(tokens, index + 1):
            text = text.rstrip(" ")
        out.append(text)
    return "".join(out)


def _tokenize(html: str) -> list[tuple[str, str]]:
    """(kind, text) pieces in order; removed comments leave nothing."""
    tokens: list[tuple[str, str]] = []
    position = 0
    for found in _TOKENS.finditer(html):
        if found.start() > position:
            tokens.append((TEXT, html[position:found.start()]))
        position = found.end()
        if found["raw"] is not None:
            tokens.append((BLOCK, found["raw"]))
        elif found["comment"] is not None:
            if found["comment"].startswith("<!--[if"):
                tokens.append((KEEP, found["comment"]))
        else:
            tokens.append((_tag_kind(found["tag"]), found["tag"]))
    if position < len(html):
        tokens.append((TEXT, html[position:]))
    return _merge_text(tokens)


def _merge_text(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Text on both sides of a removed comment is one run of text."""
    merged: list[tuple[str, str]] = []
    for kind, value in tokens:
        if kind == TEXT and merged and merged[-1][0] == TEXT:
            merged[-1] = (TEXT, merged[-1][1] + value)
        else:
            merged.append((kind, value))
    return merged


def _tag_kind(tag: str) -> str:
    found = _TAG_NAME.match(tag)
    name = found[1].lower() if found else ""
    return BLOCK if name in BLOCK_TAGS else TAG


def _is_block(tokens: list[tuple[str, str]], index: int) -> bool:
    """True at the page's edges and next to a block-level tag or a kept comment."""
    if index < 0 or index >= len(tokens):
        return True
    return tokens[index][0] in (BLOCK, KEEP)
