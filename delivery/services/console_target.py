"""The console target: each section written with the console API's
`PUT /buckets/domains/config` (console's client, with the back-office's shared token)."""

from __future__ import annotations

import json

from console.client import ConsoleClient, ConsoleConnectionError, ConsoleError, ConsoleRefused

from console.services import console_client
from delivery.client import DeliveryConnectionError, DeliveryError
from providerkit.json_types import JSONObject, JSONValue


class ConsoleTarget:
    """Named "provider console" on the publication records: the console holds each domain's
    settings and the edge obeys it (at the provider as at the sandbox)."""

    name = "provider console"

    def __init__(self, client: ConsoleClient | None = None) -> None:
        self.client = client or console_client()

    def put_section(self, domain: str, section: str, value: JSONValue) -> JSONObject:
        try:
            saved = self.client.put_section(domain, section, value)
        except ConsoleConnectionError as error:
            raise DeliveryConnectionError(f"console: no answer: {error}") from error
        except ConsoleRefused as error:
            raise DeliveryError(str(error), status=error.status, body=_refusal(error)) from error
        except ConsoleError as error:
            raise DeliveryError(str(error), status=error.status or None) from error
        return {"section": saved.section, "value": saved.value, "revision": saved.revision}


def _refusal(error: ConsoleRefused) -> str:
    """The console's error answer, for the record."""
    answer = {"error_code": error.error_code, "message": error.message, "field": error.field,
              "request": error.request}
    return json.dumps({key: value for key, value in answer.items() if value is not None},
                      ensure_ascii=False)
