"""State of the emulated purge API: the accepted purge requests, which also feed the rate limit."""

from __future__ import annotations

from django.db import models

from sandbox.core.json_types import JSONObject


class PurgeRequest(models.Model):
    """One accepted `POST /purge/`: when (sandbox clock), the URLs sent, those refused."""

    at = models.FloatField(db_index=True)
    url_count = models.PositiveIntegerField()
    urls = models.JSONField(default=list)
    invalid = models.JSONField(default=list)
    evicted = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"purge of {self.url_count} URLs at {self.at}"

    def as_dict(self) -> JSONObject:
        return {"at": self.at, "url_count": self.url_count, "urls": self.urls,
                "invalid_domain_of_url": self.invalid, "evicted": self.evicted}
