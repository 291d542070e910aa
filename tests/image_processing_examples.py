"""One table of processing strings, from cloud/image.md (its examples, and each key of its
"功能" tables with a value of the page's range and one outside it), that the sandbox's edge
(`sandbox.delivery.imageparams`) and the back-office's rule (`delivery.image_rules`) must
accept and refuse alike: tests/sandbox/test_image_processing_table.py and
tests/delivery/test_image_processing_table.py read it. The two sides never import each other;
this table is the only thing they share.

REFUSED names the key each string is refused for (both sides name it).
"""

from __future__ import annotations

# The page's own examples, word for word.
DOCS_EXAMPLES = (
    "/format/webp",
    "/format/png",
    "/fw/300/unsharp/true/quality/80/format/png",
    "/fw/500",
    "/format/webp/lossless/true",
    "/fw/300/quality/95",
    "/watermark/text/5L2g5aW977yB/font/simhei/watermark/url/"
    "L2RvY3MvY2xvdWQvdXB5dW4tbG9nby5wbmc=/align/southeast",
    "/watermark/url/L3BhdGgvdG8vd2F0ZXJtYXJrLnBuZw==/align/north/margin/15x10/opacity/90"
    "/percent/50/repeat/true/animate/true",
    "/watermark/text/5L2g5aW977yB/size/16/font/simsun/color/FF0000/border/FF000000"
    "/align/north/margin/15x10/opacity/90/animate/true",
    "/crop/300x200a80a60",
    "/clip/300x200a80a60",
    "/canvas/600x400a50a20",
    "/gaussblur/5x2",
    "/border/3x2/brdcolor/FF000000",
    "/gdori/top,down/gdpos/10,100/gdstartcolor/FF000000/gdstopcolor/FF000000",
    "/excolor/128/exformat/hex",
)

ACCEPTED = DOCS_EXAMPLES + (
    "/fh/200", "/max/200", "/min/200", "/fwfh/300x200", "/fwfh2/300x200", "/both/300x200",
    "/both/300x200/force/true", "/sq/300", "/scale/50", "/scale/1", "/scale/1000",
    "/wscale/200", "/hscale/200", "/fxfn/300x200", "/fxfn2/300x200", "/fp/200000",
    "/fp/25000000", "/fw/300/force/true", "/force/false/max/900",
    "/crop/300x200a80a60/gravity/north", "/clip/300x200s80s60/gravity/southeast",
    "/crop/0x0a80a60", "/crop/300x200s10a0", "/roundrect/20", "/crop/100x100a0a0/roundrect/10",
    "/rotate/auto", "/rotate/90", "/rotate/45", "/rotate/360", "/flip/left,right",
    "/flip/top,down", "/unsharp/true", "/unsharp/false", "/gaussblur/0x3", "/gaussblur/50x50",
    "/border/3x2", "/border/0x5", "/canvas/600x400", "/canvas/600x400/cvscolor/FF000000",
    "/info", "/meta", "/meta/iptc", "/meta/all", "/fw/100/format/webp/info",
    "/format/jpg", "/quality/1", "/quality/99", "/compress/true", "/coalesce/false",
    "/progressive/true", "/noicc/true", "/strip/true", "/gifto/true", "/exifswitch/true",
    "/ignore-error/true", "/excolor/1", "/excolor/4096", "/excolor/10/exformat/dec",
    "/gdori/left,right/gdstartcolor/FFFFFF00/gdstopcolor/000000FF",
    "/watermark/text/5L2g/border/3x2",  # the image's border after a text watermark
    "/watermark/text/5L2g/align/east/watermark/text/5L2g/align/west",
    "fw/300/format/png/",  # the slashes around are optional
)

REFUSED: tuple[tuple[str, str], ...] = (
    ("/scale/0", "scale"), ("/scale/1001", "scale"), ("/wscale/1001", "wscale"),
    ("/hscale/0", "hscale"), ("/fp/0", "fp"), ("/fp/25000001", "fp"),
    ("/fw/0", "fw"), ("/fw/abc", "fw"), ("/fwfh/300", "fwfh"), ("/fwfh2/0x10", "fwfh2"),
    ("/fxfn/300", "fxfn"), ("/both/3x", "both"),
    ("/quality/0", "quality"), ("/quality/100", "quality"), ("/format/gif", "format"),
    ("/rotate/0", "rotate"), ("/rotate/361", "rotate"), ("/rotate/left", "rotate"),
    ("/flip/left", "flip"), ("/gravity/north", "gravity"), ("/gravity/north/crop/1x1a0a0",
                                                            "gravity"),
    ("/crop/300x200a80a60/gravity/middle", "gravity"), ("/crop/300x200", "crop"),
    ("/crop/300x200b1a1", "crop"), ("/clip/10x10a-1a0", "clip"), ("/roundrect/0", "roundrect"),
    ("/gaussblur/51x2", "gaussblur"), ("/gaussblur/5x0", "gaussblur"),
    ("/gaussblur/5", "gaussblur"), ("/border/0x0", "border"), ("/border/axb", "border"),
    ("/canvas/600x400a1", "canvas"), ("/canvas/0x400", "canvas"),
    ("/brdcolor/FF000000", "brdcolor"), ("/cvscolor/FF000000", "cvscolor"),
    ("/border/3x2/brdcolor/FF0000", "brdcolor"), ("/canvas/9x9/cvscolor/#FF00000", "cvscolor"),
    ("/excolor/0", "excolor"), ("/excolor/4097", "excolor"), ("/exformat/hex", "exformat"),
    ("/excolor/10/exformat/rgb", "exformat"), ("/excolor/10/info", "excolor"),
    ("/gdori/top,down", "gdstartcolor"), ("/gdpos/10,100", "gdpos"),
    ("/gdori/up,down/gdstartcolor/FF000000/gdstopcolor/FF0000FF", "gdori"),
    ("/gdori/top,down/gdpos/100,10/gdstartcolor/FF000000/gdstopcolor/FF0000FF", "gdpos"),
    ("/coalesce/yes", "coalesce"), ("/lossless/1", "lossless"),
    ("/ignore-error/on", "ignore-error"), ("/force/TRUE/fw/10", "force"),
    ("/fw/100/fh/100", "fh"), ("/force/true", "force"), ("/fw/300/fw/400", "fw"),
    ("/foo/bar", "foo"), ("/fw", "fw"),
    ("/watermark/text/5L2g/opacity/101", "opacity"),
    ("/watermark/text/5L2g/font/comic", "font"),
    ("/watermark/url/L2EucG5n/font/simhei", "font"),
    ("/watermark/text/@@@", "watermark/text"), ("/watermark/url/YWJj", "watermark/url"),
    ("/watermark/image/YWJj", "watermark"), ("/align/north", "align"),
)
