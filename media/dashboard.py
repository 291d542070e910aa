"""Figures of the media tile on the dashboard (hook: `figures(user)`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from media.models import JobState
from media.services.stats import jobs_today_by_state

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


def figures(user: User | AnonymousUser) -> list[tuple[str, str]]:
    """Today's jobs by state (running, succeeded, failed, no answer).

    Contract of the hook: (label, value) pairs, already translated; only called for users who
    may open the media pages.
    """
    if not user.has_perm("media.access_media"):
        return []
    today = jobs_today_by_state()
    labels = {
        JobState.RUNNING: _("Today: running"),
        JobState.SUCCEEDED: _("Today: succeeded"),
        JobState.FAILED: _("Today: failed"),
        JobState.NO_ANSWER: _("Today: no answer"),
    }
    return [(label, str(today.get(state.value, 0))) for state, label in labels.items()]
