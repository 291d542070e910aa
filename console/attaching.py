"""For the data migrations that attach records made before services existed.

A database from before this change knew one bucket and one domain, from the environment; its
files, uploads, jobs, rule sets and purges belong to them. These functions take the historical
`apps` of a migration, so they keep working whatever the models become later.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

UNNAMED_BUCKET = "configured-bucket"
UNNAMED_DOMAIN = "configured-domain.invalid"


def environment_service_id(apps: Any) -> int:
    """The environment's service, created with the bucket's name (or a stand-in name that
    the first use with STORAGE_BUCKET set replaces)."""
    service_model = apps.get_model("console", "Service")
    found = service_model.objects.filter(from_environment=True).first()
    if found is None:
        bucket = str(settings.PROVIDER["storage"].get("bucket") or "") or UNNAMED_BUCKET
        found = service_model.objects.create(name=bucket, kind="file", from_environment=True)
    return int(found.pk)


def environment_domain_id(apps: Any) -> int:
    domain_model = apps.get_model("console", "Domain")
    found = domain_model.objects.filter(from_environment=True).first()
    if found is None:
        url = str(settings.PROVIDER["delivery"].get("delivery_url") or "")
        name = (urlsplit(url).hostname or "").lower() or UNNAMED_DOMAIN
        found = domain_model.objects.create(
            service_id=environment_service_id(apps), name=name, from_environment=True)
    return int(found.pk)


def attach_all(apps: Any, app_label: str, model_names: list[str], field: str) -> None:
    """Point `field` of every row of the models at the environment's service or domain; no
    record is made when there is nothing to attach."""
    models = [apps.get_model(app_label, name) for name in model_names]
    if not any(model.objects.exists() for model in models):
        return
    target = environment_domain_id(apps) if field == "domain" else environment_service_id(apps)
    for model in models:
        model.objects.filter(**{f"{field}__isnull": True}).update(**{f"{field}_id": target})
