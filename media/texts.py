"""User-facing wording of the media provider's answers.

The provider's status codes say little about why a source was refused: a file that is neither
a video nor a playlist comes back as a 5xx ("server-side error") or a 400 on `source`. Read
as a provider failure, that sends people to wait for an outage that is not there, so the
answers that say the source is not media are recognised here and worded for what they are.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# Phrases of the provider's message (the sandbox's wording, lower-cased) that mean the source
# is readable but is not a video or playlist: undecodable as audio or video, no picture to take
# a frame of, or not an M3U8 where a playlist was needed.
NOT_MEDIA_PHRASES = (
    "could not be read as audio or video",
    "has no video stream",
    "is not an m3u8 playlist",
)

NOT_MEDIA_ADVICE = _(
    "The source is not a video or playlist. Choose an MP4 (or another video) or an M3U8 "
    "playlist in the file browser."
)


def says_not_media(status: int | None, message: str) -> bool:
    """True when the answer (a 400 or 5xx) says the `source` is not a video or playlist."""
    if status is None or not (status == 400 or 500 <= status <= 599):
        return False
    lowered = message.lower()
    return lowered.startswith(("source:", "m3u8:", "m3u8s")) and any(
        phrase in lowered for phrase in NOT_MEDIA_PHRASES
    )


# The readable name of each request parameter a job records; the API word is shown beside it.
PARAMETER_LABELS: Mapping[str, Promise] = {
    "point": _("Time point"),
    "size": _("Image size"),
    "format": _("Image format"),
    "include": _("Keep span"),
    "exclude": _("Drop span"),
    "index": _("Segment numbers (from 0)"),
}


def parameter_label(name: str) -> str:
    """The readable label of a job parameter, or its API word when it has none."""
    label = PARAMETER_LABELS.get(name)
    return str(label) if label is not None else name
