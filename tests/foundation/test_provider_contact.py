"""The clients' transport, observed by the back-office, records whether the provider
answered, for the dashboard tiles."""

import pytest

from backoffice.models import ProviderContact
from backoffice.operations.provider import (
    ProviderNotConfigured,
    provider_observers,
    provider_settings,
)
from providerkit.failures import NoAnswer
from providerkit.transport import Transport
from tests.sandbox_process import free_base_port

pytestmark = pytest.mark.django_db


def provider_transport(service, clock=None):
    """A transport observed as the services' clients are (see `<app>/services/connection`)."""
    observers = provider_observers(service) if clock is None else provider_observers(
        service, clock=clock)
    return Transport(service, timeout=5, observers=observers)


def test_an_answer_is_recorded_as_contact(sandbox):
    provider_transport("sms").request("GET", f"{sandbox.info['sms_api_url']}/api/templates")
    contact = ProviderContact.objects.get(service="sms")
    assert contact.ok and contact.last_ok_at == contact.at  # a 401/404 still is an answer


def test_a_server_error_is_recorded_as_failed(sandbox):
    sandbox.add_fault(service="topup", path=".*", action="status", status=503)
    provider_transport("topup").request("POST", f"{sandbox.info['traffic_url']}/getMyBalance")
    contact = ProviderContact.objects.get(service="topup")
    assert not contact.ok and contact.detail == "HTTP 503"


def test_no_connection_is_recorded_and_still_raised():
    closed_port = free_base_port()
    with pytest.raises(NoAnswer) as caught:
        provider_transport("storage").request("GET", f"http://127.0.0.1:{closed_port}/")
    assert caught.value.connection_failed
    contact = ProviderContact.objects.get(service="storage")
    assert not contact.ok and "ConnectionError" in contact.detail
    assert contact.last_ok_at is None


def test_missing_provider_settings_are_named(settings):
    settings.PROVIDER = {**settings.PROVIDER, "sms": {"api_url": "http://x", "token": None}}
    with pytest.raises(ProviderNotConfigured, match="token"):
        provider_settings("sms")


def test_an_observer_writes_the_same_outcome_at_most_once_a_second(sandbox):
    now = [1000.0]
    transport = provider_transport("sms", clock=lambda: now[0])
    url = f"{sandbox.info['sms_api_url']}/api/templates"
    transport.request("GET", url)
    first = ProviderContact.objects.get(service="sms").at
    now[0] += 0.5
    transport.request("GET", url)
    assert ProviderContact.objects.get(service="sms").at == first  # not written again
    now[0] += 0.6
    transport.request("GET", url)
    assert ProviderContact.objects.get(service="sms").at > first


def test_a_new_outcome_is_written_at_once(sandbox):
    now = [1000.0]
    transport = provider_transport("sms", clock=lambda: now[0])
    url = f"{sandbox.info['sms_api_url']}/api/templates"
    transport.request("GET", url)
    sandbox.add_fault(service="sms", path=".*", action="status", status=503, times=1)
    transport.request("GET", url)
    contact = ProviderContact.objects.get(service="sms")
    assert not contact.ok and contact.detail == "HTTP 503"
    transport.request("GET", url)
    assert ProviderContact.objects.get(service="sms").ok
