"""Celery tasks of media processing: thin wrappers over `media.services`.

The jobs themselves run synchronously in the web request (the provider's endpoints are
synchronous); the only background work is tidying jobs a dead process left running.
"""

from __future__ import annotations

from celery import shared_task

from media import services


@shared_task(acks_late=True)
def mark_interrupted_jobs() -> int:
    """Jobs still `running` long after any call could last become `no_answer`."""
    return services.mark_interrupted_jobs()
