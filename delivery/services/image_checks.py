"""The check of an upload's `x-gmkerl-thumb` (cloud/image.md, "上传预处理" and "混合使用"), for
the storage app's upload page: a thumbnail version name (`small`), a processing string with
the keys of image URLs (`/fw/300/format/webp`), or a version followed by parameters
(`small/fw/500`). The processing string gets the very rule of the image builder and the custom
versions (`delivery.image_rules`); whether the version exists is the provider's to say
(40300017), since versions belong to the bucket's domains.

The sentences of the image processing problems live here (and `delivery.texts` takes them
from here), so that the storage app words them as the delivery pages do without importing
the pages' texts.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from delivery import rules
from delivery.problems import Problem


def thumb_problems(text: str) -> list[str]:
    """What is wrong with `text` as `x-gmkerl-thumb`, in the reader's language (empty: fine).
    Each problem names its key, since one field holds them all."""
    value = text.strip()
    if value.startswith("/"):
        name, parameters = "", value
    else:
        name, _slash, parameters = value.partition("/")
    found = list(rules.check_version_name(name)) if name else []
    if parameters.strip("/") or not name:
        try:
            rules.parse_image_params(parameters)
        except rules.LinkError as error:
            found.extend(error.problems)
    return [named_text(problem) for problem in found]


IMAGE_PROBLEMS: Mapping[str, Promise] = {
    "version_name": _("A version name is 1 to 32 letters or digits."),
    "image_number": _("Must be a whole number from %(low)s to %(high)s, not "
                      "“%(value)s”."),
    "image_bool": _("Must be true or false, not “%(value)s”."),
    "image_canvas": _("Must be <width>x<height>, or <width>x<height>a<x>a<y> to place the "
                      "image, with a positive width and height, e.g. 600x400a50a20."),
    "image_angle": _("Must be auto or whole degrees from 1 to 360, not “%(value)s”."),
    "image_positions": _("Must be <start>,<end> in pixels with the start before the end, "
                         "e.g. 10,100."),
    "image_after_cut": _("Only after crop or clip: it says where their box starts."),
    "image_gradient": _("A gradient (gdori) needs its start and end colours."),
    "image_answers": _("The theme colours and the image information are two answers: ask "
                       "for one."),
    "image_choice": _("Must be one of %(choices)s, not “%(value)s”."),
    "image_size": _("Must be <width>x<height>, each from %(low)s to %(high)s, "
                    "e.g. 300x200."),
    "image_area": _("Must be <width>x<height>a<x>a<y> (s instead of a for an offset towards "
                    "west or north; a width or height of 0 reaches the edge), e.g. "
                    "200x100a10a20."),
    "image_colour": _("Must be RRGGBBAA in hexadecimal, AA the transparency (00 opaque, FF "
                      "invisible), e.g. FF000000."),
    "image_blur": _("Must be <radius>x<sigma>, radius 0 to 50 and sigma 1 to 50, "
                    "e.g. 5x3."),
    "image_key": _("“%(value)s” is not an image processing key."),
    "image_twice": _("Given twice."),
    "image_resizes": _("Only one size operation may be used (%(keys)s)."),
    "image_needs": _("Needs %(owner)s as well."),
    "image_empty": _("Choose at least one processing operation."),
    "image_odd": _("Must be /<key>/<value> pairs; “%(key)s” has no value."),
    "image_rgb": _("Must be RRGGBB in hexadecimal, e.g. FF0000."),
    "image_watermark": _("Must be watermark/text/<Base64 text> or "
                         "watermark/url/<Base64 path>, not “%(value)s”."),
    "image_watermarks": _("At most %(limit)s watermarks."),
    "image_base64": _("Must be Base64 (with | for /) of UTF-8 text, not "
                      "“%(value)s”."),
    "image_mark_path": _("The watermark image must be a path of the same service "
                         "starting with /, not “%(value)s”."),
    "image_mark_empty": _("The watermark text is empty."),
    "image_mark_long": _("The watermark text is at most %(limit)s characters."),
    "image_mark_kind": _("Only for a watermark/%(kind)s watermark."),
    "image_watermark_first": _("Belongs to a watermark; put it after "
                               "watermark/text/… or watermark/url/…."),
}


def named_text(problem: Problem) -> str:
    """The sentence of an image processing problem led by its key (`fw: ...`), for a field
    that holds a whole processing string."""
    template = IMAGE_PROBLEMS.get(problem.code)
    text = problem.message if template is None else str(template) % {"field": problem.field,
                                                                      **problem.params}
    if problem.code in ("image_key", "image_empty", "version_name"):  # they say what they are
        return text
    return gettext("%(field)s: %(problem)s") % {"field": problem.field, "problem": text}
