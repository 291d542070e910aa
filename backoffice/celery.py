"""The Celery application shared by the worker and beat.

Each app declares its periodic jobs in `<app>/schedule.py` as `BEAT_SCHEDULE` (Celery's
beat_schedule format); they are gathered here, and django-celery-beat's database scheduler
copies them into its tables when beat starts.
"""

import importlib
import importlib.util
import logging.config
import os

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")

SCHEDULED_APPS = ("sms", "topup", "storage", "media", "delivery")


def collect_beat_schedule() -> dict[str, dict[str, object]]:
    """Every app's BEAT_SCHEDULE: entry name -> {"task": ..., "schedule": ..., "options": ...}."""
    schedule: dict[str, dict[str, object]] = {}
    for app_label in SCHEDULED_APPS:
        module_name = f"{app_label}.schedule"
        if importlib.util.find_spec(module_name) is not None:
            schedule.update(importlib.import_module(module_name).BEAT_SCHEDULE)
    return schedule


@setup_logging.connect
def use_django_logging(**_: object) -> None:
    """Worker and beat log through settings.LOGGING only: with a receiver here Celery adds none
    of its own handlers, whose task lines had their own format and the local zone's time."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)


app = Celery("backoffice")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.beat_schedule = collect_beat_schedule()
app.autodiscover_tasks()
