"""Provider sessions record whether the provider answered, for the dashboard tiles."""

import pytest
import requests

from backoffice.models import ProviderContact
from backoffice.operations.provider import (
    ProviderNotConfigured,
    provider_session,
    provider_settings,
)
from tests.sandbox_process import free_base_port

pytestmark = pytest.mark.django_db


def test_an_answer_is_recorded_as_contact(sandbox):
    provider_session("sms").get(f"{sandbox.info['sms_api_url']}/api/templates", timeout=5)
    contact = ProviderContact.objects.get(service="sms")
    assert contact.ok and contact.last_ok_at == contact.at  # a 401/404 still is an answer


def test_a_server_error_is_recorded_as_failed(sandbox):
    sandbox.add_fault(service="topup", path=".*", action="status", status=503)
    provider_session("topup").post(f"{sandbox.info['traffic_url']}/getMyBalance", timeout=5)
    contact = ProviderContact.objects.get(service="topup")
    assert not contact.ok and contact.detail == "HTTP 503"


def test_no_connection_is_recorded_and_still_raised():
    closed_port = free_base_port()
    with pytest.raises(requests.ConnectionError):
        provider_session("storage").get(f"http://127.0.0.1:{closed_port}/", timeout=2)
    contact = ProviderContact.objects.get(service="storage")
    assert not contact.ok and "ConnectionError" in contact.detail
    assert contact.last_ok_at is None


def test_missing_provider_settings_are_named(settings):
    settings.PROVIDER = {**settings.PROVIDER, "sms": {"api_url": "http://x", "token": None}}
    with pytest.raises(ProviderNotConfigured, match="token"):
        provider_settings("sms")


def test_a_session_writes_the_same_outcome_at_most_once_a_second(sandbox):
    now = [1000.0]
    session = provider_session("sms", clock=lambda: now[0])
    url = f"{sandbox.info['sms_api_url']}/api/templates"
    session.get(url, timeout=5)
    first = ProviderContact.objects.get(service="sms").at
    now[0] += 0.5
    session.get(url, timeout=5)
    assert ProviderContact.objects.get(service="sms").at == first  # not written again
    now[0] += 0.6
    session.get(url, timeout=5)
    assert ProviderContact.objects.get(service="sms").at > first


def test_a_new_outcome_is_written_at_once(sandbox):
    now = [1000.0]
    session = provider_session("sms", clock=lambda: now[0])
    url = f"{sandbox.info['sms_api_url']}/api/templates"
    session.get(url, timeout=5)
    sandbox.add_fault(service="sms", path=".*", action="status", status=503, times=1)
    session.get(url, timeout=5)
    contact = ProviderContact.objects.get(service="sms")
    assert not contact.ok and contact.detail == "HTTP 503"
    session.get(url, timeout=5)
    assert ProviderContact.objects.get(service="sms").ok
