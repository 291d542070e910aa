"""The console target: each section written with the console API's
`PUT /buckets/domains/config` (console's client, with the back-office's shared token)."""

from __future__ import annotations

import ipaddress
import json

from console.client import ConsoleClient, ConsoleConnectionError, ConsoleError, ConsoleRefused
from console.models import Domain
from console.services import ConsoleTokenUnavailable, console_client
from delivery.client import DeliveryConnectionError, DeliveryError
from providerkit.json_types import JSONObject, JSONValue


def addresses_no_domain(name: str) -> bool:
    """An IP literal or `localhost`: a host that names no domain at the console."""
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class ConsoleTarget:
    """Named "provider console" on the publication records: the console holds each domain's
    settings and the edge obeys it (at the provider as at the sandbox)."""

    name = "provider console"

    def __init__(self, client: ConsoleClient | None = None) -> None:
        self.client = client or console_client()
        self._names: dict[int, str] = {}

    def console_name(self, domain: Domain) -> str:
        """The domain's name at the console. A domain known by an IP literal or `localhost`
        (the environment's, when DELIVERY_URL is an address, as under the sandbox) is what the
        edge serves at such a host: its service's first domain (docs/decisions.md)."""
        if not addresses_no_domain(domain.name):
            return domain.name
        if domain.pk not in self._names:
            bound = sorted(self.client.list_domains(domain.service.name),
                           key=lambda binding: binding.created_at)
            if not bound:
                raise DeliveryError(f"console: service {domain.service.name} has no domain "
                                    f"to publish {domain.name} to")
            self._names[domain.pk] = bound[0].domain
        return self._names[domain.pk]

    def put_section(self, domain: Domain, section: str, value: JSONValue) -> JSONObject:
        try:
            saved = self.client.put_section(self.console_name(domain), section, value)
        except (ConsoleConnectionError, ConsoleTokenUnavailable) as error:
            # Nothing reached the console, or it did not answer: the same for what follows.
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
