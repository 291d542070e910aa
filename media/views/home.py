"""The media home page: provider connection, jobs by state, the latest jobs, and a way to
start any tool from a storage path."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Count

from backoffice.ui.dashboard import ServiceOverviewView
from media import services
from media.models import JobState, ProcessingJob
from media.views.access import abilities

RECENT_JOBS = 10


class MediaHomeView(ServiceOverviewView):
    template_name = "media/home.html"
    service_key = "media"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)  # checks media.access_media
        user_abilities = abilities(self.request.user)
        counts = dict(ProcessingJob.objects.values_list("state").annotate(n=Count("id"))
                      .values_list("state", "n"))
        today = services.jobs_today_by_state()
        # The media service works with the storage operator's credentials: without them it is
        # not usable, whatever its own address says.
        storage_ready = all(settings.PROVIDER.get("storage", {}).values())
        context.update(
            configured=context["configured"] and storage_ready,
            state_counts=[(state, counts.get(state.value, 0), today.get(state.value, 0))
                          for state in JobState],
            recent=ProcessingJob.objects.select_related("requested_by")[:RECENT_JOBS]
            if user_abilities["can_view_jobs"] else [],
            **user_abilities,
        )
        return context
