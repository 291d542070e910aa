"""Figures of the media tile on the dashboard (hook: `figures(user)`)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from backoffice.annotations import RequestUser
from backoffice.ui.tiles import Figure
from media import services
from media.models import JobState


def figures(user: RequestUser) -> list[Figure]:
    """Today's jobs by state (running, succeeded, failed, no answer).

    Contract of the hook: figures already translated, each linked to the job list filtered by
    its state (the list has no date filter; it shows the newest jobs first).
    """
    if not user.has_perm("media.access_media"):
        return []
    today = services.jobs_today_by_state()
    labels = {
        JobState.RUNNING: _("Today: running"),
        JobState.SUCCEEDED: _("Today: succeeded"),
        JobState.FAILED: _("Today: failed"),
        JobState.NO_ANSWER: _("Today: no answer"),
    }
    jobs = reverse("media:job_list")
    return [Figure(label, str(today.get(state.value, 0)), f"{jobs}?state={state.value}")
            for state, label in labels.items()]
