"""The check of an upload's `x-gmkerl-thumb` (cloud/image.md, "上传预处理" and "混合使用"), for
the storage app's upload page: a thumbnail version name (`small`), a processing string with
the keys of image URLs (`/fw/300/format/webp`), or a version followed by parameters
(`small/fw/500`). The processing string gets the very rule of the image builder and the custom
versions (`delivery.image_rules`); whether the version exists is the provider's to say
(40300017), since versions belong to the bucket's domains.
"""

from __future__ import annotations

from delivery import rules
from delivery.image_texts import named_text


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
