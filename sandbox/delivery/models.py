"""State of the emulated CDN edge: each domain's published configuration (a row per domain).

The edge cache is not a table: it lives in the process's memory (see cache.py), as a real edge
cache lives on the edge servers, and is emptied by a reset like every table.
"""

from __future__ import annotations

from django.db import models


class EdgeSettings(models.Model):
    """What the merchant publishes for a domain (`POST /delivery/config`, or the console's
    `PUT /buckets/domains/config` by section), one row per domain.

    `data` holds the normalised settings as the control API answers them, except that an empty
    `token_secret` means "the account's delivery_token_secret". `revision` changes on every save,
    so a compiled copy of the settings is known to be current by comparing one string.
    """

    domain = models.CharField(max_length=253, unique=True)
    data = models.JSONField(default=dict)
    revision = models.CharField(max_length=32)
    updated_at = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return f"edge settings {self.revision}"
