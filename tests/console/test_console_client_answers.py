"""The console client on answers the sandbox does not give: the contract's whole error table,
error bodies that break the shape, unreadable answers, no answer, and the token request's
form. Real calls against the sandbox are in test_console_client_against_sandbox.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from urllib.parse import parse_qs

import pytest
import responses

from console.client import (
    ERRORS,
    BadField,
    Conflict,
    ConsoleClient,
    ConsoleConnectionError,
    ConsoleProtocolError,
    ConsoleRefused,
    NotApplicable,
    NotFound,
    TokenRejected,
    TooMany,
    WrongCredentials,
)

BASE = "http://console.test"


class FixedTokens:
    def current(self) -> str:
        return "token-one"

    def refresh(self, rejected: str) -> str:
        return "token-two"


@pytest.fixture
def console() -> Iterator[responses.RequestsMock]:
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        yield mock


@pytest.fixture
def client() -> ConsoleClient:
    return ConsoleClient(BASE, "demo", "secret-password", FixedTokens())


@pytest.mark.parametrize(("status", "code", "kind"), [
    (400, 10400, BadField), (401, 10402, WrongCredentials), (403, 10403, NotApplicable),
    (404, 10404, NotFound), (409, 10409, Conflict), (429, 10429, TooMany),
])
def test_each_error_code_of_the_contract_is_its_own_error(
        console: responses.RequestsMock, client: ConsoleClient, status: int, code: int,
        kind: type[ConsoleRefused]) -> None:
    console.get(f"{BASE}/buckets/info", status=status, json={
        "error_code": code, "message": "refused", "request": "req-1", "field": "bucket_name"})
    with pytest.raises(kind) as refused:
        client.service_info("images")
    error = refused.value
    assert (error.status, error.error_code, error.message, error.request) == (
        status, code, "refused", "req-1")
    assert error.field == "bucket_name"
    assert ERRORS[code] is kind


def test_an_unknown_error_code_is_still_a_typed_refusal(console: responses.RequestsMock,
                                                        client: ConsoleClient) -> None:
    console.get(f"{BASE}/buckets", status=500, json={"error_code": 10500, "message": "oops"})
    with pytest.raises(ConsoleRefused) as refused:
        client.list_services()
    assert type(refused.value) is ConsoleRefused
    assert (refused.value.error_code, refused.value.field) == (10500, None)


def test_10401_twice_is_raised_after_one_retry_with_the_fresh_token(
        console: responses.RequestsMock, client: ConsoleClient) -> None:
    console.get(f"{BASE}/buckets", status=401, json={"error_code": 10401, "message": "expired"})
    with pytest.raises(TokenRejected):
        client.list_services()
    sent = [call.request.headers["Authorization"] for call in console.calls]
    assert sent == ["Bearer token-one", "Bearer token-two"]


def test_an_error_page_that_is_not_json_is_a_protocol_error(console: responses.RequestsMock,
                                                            client: ConsoleClient) -> None:
    console.get(f"{BASE}/buckets", status=502, body="<html>Bad gateway</html>")
    with pytest.raises(ConsoleProtocolError) as failed:
        client.list_services()
    assert failed.value.status == 502


def test_an_error_body_without_error_code_is_a_protocol_error(
        console: responses.RequestsMock, client: ConsoleClient) -> None:
    console.get(f"{BASE}/buckets", status=400, json={"message": "no code"})
    with pytest.raises(ConsoleProtocolError):
        client.list_services()


def test_a_success_of_the_wrong_shape_names_the_field(console: responses.RequestsMock,
                                                      client: ConsoleClient) -> None:
    console.get(f"{BASE}/buckets", json={"buckets": [{"bucket_id": "7", "bucket_name": "x"}]})
    with pytest.raises(ConsoleProtocolError, match="bucket_id"):
        client.list_services()


def test_a_success_that_is_not_json_is_a_protocol_error(console: responses.RequestsMock,
                                                        client: ConsoleClient) -> None:
    console.get(f"{BASE}/buckets/origins", body="ok")
    with pytest.raises(ConsoleProtocolError):
        client.origins("shop")


def test_no_answer_is_a_connection_error() -> None:
    client = ConsoleClient("http://127.0.0.1:9", "demo", "pw", FixedTokens(), timeout=2)
    with pytest.raises(ConsoleConnectionError):
        client.list_services()


def test_times_come_as_unix_seconds_or_iso_text(console: responses.RequestsMock,
                                                client: ConsoleClient) -> None:
    console.get(f"{BASE}/buckets", json={"buckets": [
        {"bucket_id": 2, "bucket_name": "videos", "business_type": "file", "status": "enabled",
         "created_at": 1700000000, "domains": ["v.example.com"], "line": "unicom"},
        {"bucket_id": 1, "bucket_name": "images", "business_type": "file", "status": "enabled",
         "created_at": "2023-11-14T22:13:20Z", "domains": [], "line": "auto"},
    ], "pager": {"max": None}})
    page = client.list_services()
    assert page.next_max is None
    assert page.services[0].created_at == page.services[1].created_at == datetime.fromtimestamp(
        1700000000, UTC)
    assert page.services[0].line == "unicom"


def test_a_bodiless_success_is_accepted(console: responses.RequestsMock,
                                        client: ConsoleClient) -> None:
    console.delete(f"{BASE}/buckets/domains", status=204)
    client.unbind_domain("images", "img.example.com")
    assert parse_qs(console.calls[0].request.url.split("?", 1)[1]) == {
        "bucket_name": ["images"], "domain": ["img.example.com"]}


def test_a_token_is_asked_with_a_new_code_each_time_and_no_bearer(
        console: responses.RequestsMock) -> None:
    console.post(f"{BASE}/oauth/tokens", json={"access_token": "abc", "expired_at": 1900000000})
    client = ConsoleClient(BASE, "demo", "secret-password")
    client.fetch_token()
    client.fetch_token()
    forms = [parse_qs(str(call.request.body)) for call in console.calls]
    codes = [form["code"][0] for form in forms]
    assert all(re.fullmatch(r"[A-Za-z0-9-]{20,32}", code) for code in codes)
    assert codes[0] != codes[1]
    assert forms[0]["username"] == ["demo"] and forms[0]["password"] == ["secret-password"]
    assert all("Authorization" not in call.request.headers for call in console.calls)


def test_an_empty_access_token_is_a_protocol_error(console: responses.RequestsMock) -> None:
    console.post(f"{BASE}/oauth/tokens", json={"access_token": "", "expired_at": 1900000000})
    with pytest.raises(ConsoleProtocolError):
        ConsoleClient(BASE, "demo", "pw").fetch_token()


def test_the_client_repr_never_shows_the_password(client: ConsoleClient) -> None:
    assert "secret-password" not in repr(client)


@pytest.mark.parametrize("call", [
    lambda c: c.list_services(limit=0),
    lambda c: c.list_services(business_type="video"),
    lambda c: c.put_section("a.example.com", "colour", "red"),
    lambda c: c.put_mirror("shop", "maybe"),
    lambda c: c.records(type="everything"),
])
def test_bad_arguments_are_refused_before_sending(console: responses.RequestsMock,
                                                  client: ConsoleClient, call) -> None:
    with pytest.raises(ValueError):
        call(client)
    assert not console.calls
