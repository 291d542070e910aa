"""The media tools offered in the storage file browser, beside each video and playlist.

Registered through `storage.services.register_file_action` from `MediaConfig.ready()`; each
link is the tool's page with `?path=<file>`. The tests (`applies_to`) look only at the name
and content type of the row, as the hook's contract asks: no provider call per row.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from media import paths
from media.models import RUN_PERMISSION

# (label, URL name, applies to). "Media info" rather than "Info": the file browser already
# has an "Info" link of its own (the storage facts of the file).
ACTIONS = (
    (_("Media info"), "media:info", paths.has_media_info),
    (_("Snapshot"), "media:snapshot", paths.can_snapshot),
    (_("Clip"), "media:clip", paths.is_playlist),
    (_("Concatenate"), "media:concat", paths.is_playlist),
)


def register() -> None:
    """Add the links; shown only to users who may run media jobs (the pages check it too)."""
    from storage import services as storage

    for label, url_name, applies_to in ACTIONS:
        storage.register_file_action(label, url_name, applies_to, permission=RUN_PERMISSION)
