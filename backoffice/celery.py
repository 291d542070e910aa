"""The Celery application shared by the worker and beat."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")

app = Celery("backoffice")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
