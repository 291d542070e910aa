"""A storage service works through the entry address it chose (storage-and-media.md: smart
routing, telecom, unicom or mobile lines), and a line that cannot be reached is tried once more
on smart routing, logged and counted; a line that answers is never left."""

from __future__ import annotations

import logging

import pytest
from prometheus_client import REGISTRY

from console.models import EntryLine, Service
from storage import services

pytestmark = pytest.mark.django_db


def fallbacks(service: Service) -> float:
    value = REGISTRY.get_sample_value("backoffice_storage_entry_fallbacks_total",
                                      {"service": service.name})
    return value or 0.0


def line_counts(sandbox) -> dict[str, int]:
    answer = sandbox.control("GET", "/console/lines")
    assert answer.status_code == 200, answer.text
    return dict(answer.json()["lines"])


@pytest.fixture
def telecom_service(provider) -> Service:
    """The sandbox's bucket, recorded by hand (not from the environment) with the telecom
    line chosen."""
    info = provider.info
    return Service.objects.create(
        name=info["storage"]["bucket"], operator=info["storage"]["operator"],
        operator_password=info["storage"]["password"], line=EntryLine.TELECOM)


def test_a_service_sends_its_calls_to_the_line_it_chose(telecom_service, provider):
    before = line_counts(provider).get("telecom", 0)
    services.storage_client(telecom_service).usage()
    assert line_counts(provider).get("telecom", 0) == before + 1


def test_a_line_that_cannot_be_reached_is_retried_once_on_smart_routing(
        telecom_service, provider, settings, caplog):
    settings.PROVIDER = {**settings.PROVIDER, "storage": {
        **settings.PROVIDER["storage"],
        "lines": {**settings.PROVIDER["storage"]["lines"], "telecom": "http://127.0.0.1:1"}}}
    counted = fallbacks(telecom_service)
    auto_before = line_counts(provider).get("auto", 0)
    with caplog.at_level(logging.WARNING, logger="storage.client"):
        client = services.storage_client(telecom_service)
        assert client.usage() >= 0
        client.usage()  # the client stays on smart routing: no second fallback
    assert fallbacks(telecom_service) == counted + 1
    assert line_counts(provider).get("auto", 0) == auto_before + 2
    assert "cannot be reached; trying smart routing" in caplog.text


def test_a_refusal_from_the_chosen_line_is_not_retried_elsewhere(
        telecom_service, provider):
    """Only "could not connect" moves a call: an answer, even a refusal, is the provider's."""
    telecom_service.operator_password = "wrong-password"
    counted = fallbacks(telecom_service)
    with pytest.raises(services.StorageError):
        services.storage_client(telecom_service).usage()
    assert fallbacks(telecom_service) == counted
