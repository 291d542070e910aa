from django.db import models


class ProcessingRequest(models.Model):
    """One call to a media-processing endpoint and its answer, kept so that tests and people
    can see what the sandbox received (control API `GET /media/requests`)."""

    request_id = models.CharField(max_length=32, unique=True)
    service = models.CharField(max_length=200)
    endpoint = models.CharField(max_length=40)
    body = models.TextField(help_text="the request body as received, cut at 64 KiB")
    status_code = models.PositiveSmallIntegerField()
    message = models.TextField()
    received_at = models.FloatField(help_text="sandbox clock, unix seconds")
    elapsed_ms = models.FloatField()

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.endpoint} {self.status_code} {self.request_id}"

    def as_dict(self) -> dict[str, object]:
        return {
            "request_id": self.request_id, "service": self.service, "endpoint": self.endpoint,
            "body": self.body, "status_code": self.status_code, "message": self.message,
            "received_at": self.received_at, "elapsed_ms": self.elapsed_ms,
        }
