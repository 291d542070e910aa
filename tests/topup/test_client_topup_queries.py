"""seekOrder, getMyBalance and refreshToken: exact requests, typed answers, typed errors."""

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
import requests
import responses

from tests.topup.recording_tokens import RecordingTokens
from topup.client import (
    BalanceResult,
    LocalTokenProvider,
    SeekResult,
    TopupClient,
    TopupProtocolError,
    TopupRejected,
    TopupTransportError,
)
from topup.rules import InvalidInput, OrderOutcome, Remedy

BASE_URL = "http://topup.test"
APPKEY = "3P83lWwkoV15yZVT"
APPSECRET = "merchant-secret"
TOKEN = "VqHAab3JYXBDkCoO"
NEW_TOKEN = "Zx81kQpL0mWn4RtY"
CUSTNO = "20151123114702"


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


@pytest.fixture
def tokens() -> RecordingTokens:
    return RecordingTokens(TOKEN, NEW_TOKEN)


@pytest.fixture
def client(tokens: RecordingTokens) -> TopupClient:
    return TopupClient(BASE_URL, APPKEY, APPSECRET, tokens)


@pytest.fixture
def provider() -> Iterator[responses.RequestsMock]:
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        yield mock


def sent(provider: responses.RequestsMock, index: int = 0) -> dict[str, Any]:
    body = provider.calls[index].request.body
    assert body is not None
    return json.loads(body)


# --- seekOrder ----------------------------------------------------------------------------------

SEEK_URL = BASE_URL + "/seekOrder"


def test_it_seeks_without_requesttime(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(SEEK_URL, json={"code": "201", "custno": CUSTNO, "info": "charging"})
    result = client.seek_order(CUSTNO)
    assert sent(provider) == {
        "appkey": APPKEY,
        "custno": CUSTNO,
        "sign": sha1("appkey3P83lWwkoV15yZVTcustno20151123114702TOKENVqHAab3JYXBDkCoO"),
    }
    assert provider.calls[0].request.headers["Content-Type"] == "application/json"
    assert result == SeekResult(
        outcome=OrderOutcome.IN_PROGRESS, custno=CUSTNO, code="201", info="charging"
    )


def test_it_sends_requesttime_in_shanghai_time_and_signs_it(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(SEEK_URL, json={"code": "200", "custno": CUSTNO, "info": "done"})
    client.seek_order(CUSTNO, requesttime=datetime(2015, 11, 23, 3, 47, 2, tzinfo=UTC))
    assert sent(provider) == {
        "appkey": APPKEY,
        "custno": CUSTNO,
        "requesttime": "2015-11-23 11:47:02",
        "sign": sha1(
            "appkey3P83lWwkoV15yZVTcustno20151123114702requesttime2015-11-23 11:47:02"
            "TOKENVqHAab3JYXBDkCoO"
        ),
    }


@pytest.mark.parametrize(
    ("code", "outcome"),
    [
        ("200", OrderOutcome.SUCCESS),
        ("430", OrderOutcome.FAILED),
        ("530", OrderOutcome.FAILED),
        ("516", OrderOutcome.NO_SUCH_ORDER),
        ("511", OrderOutcome.MANUAL_CONFIRMATION),
        ("201", OrderOutcome.IN_PROGRESS),
    ],
)
def test_it_reads_the_order_outcome(
    client: TopupClient, provider: responses.RequestsMock, code: str, outcome: OrderOutcome
) -> None:
    provider.post(SEEK_URL, json={"code": code, "info": "x"})
    result = client.seek_order(CUSTNO)
    assert (result.outcome, result.code, result.custno) == (outcome, code, CUSTNO)


def test_it_flags_510_on_seek_as_back_off(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(SEEK_URL, json={"code": "510", "custno": CUSTNO, "info": "too frequent"})
    result = client.seek_order(CUSTNO)
    assert (result.outcome, result.remedy) == (OrderOutcome.IN_PROGRESS, Remedy.BACK_OFF)
    assert len(provider.calls) == 1


def test_it_refreshes_the_token_once_on_seek(
    client: TopupClient, provider: responses.RequestsMock, tokens: RecordingTokens
) -> None:
    provider.post(SEEK_URL, json={"code": "527", "info": "token not valid"})
    provider.post(SEEK_URL, json={"code": "200", "custno": CUSTNO, "info": "done"})
    assert client.seek_order(CUSTNO).outcome is OrderOutcome.SUCCESS
    assert tokens.refreshed == [TOKEN]
    assert sent(provider, 1)["sign"] == sha1(
        "appkey3P83lWwkoV15yZVTcustno20151123114702TOKENZx81kQpL0mWn4RtY"
    )


def test_it_reports_a_seek_timeout_as_a_transport_error(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(SEEK_URL, body=requests.exceptions.ReadTimeout("read timed out"))
    with pytest.raises(TopupTransportError, match="/seekOrder: timed out") as caught:
        client.seek_order(CUSTNO)
    assert not isinstance(caught.value, TopupProtocolError)
    assert caught.value.path == "/seekOrder"
    assert len(provider.calls) == 1


def test_it_reports_a_non_json_seek_answer_as_a_transport_error(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(SEEK_URL, status=504, body="Gateway Timeout")
    with pytest.raises(TopupTransportError, match=r"not JSON \(HTTP 504\)"):
        client.seek_order(CUSTNO)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('["200"]', "JSON list, not object"),
        ('{"code": 200}', "no string code"),
        ('{"code": "200", "custno": "20151123114799"}', "asked for"),
        ('{"code": "200", "info": 5}', "'info' is int"),
    ],
)
def test_it_reports_a_malformed_seek_answer_as_a_protocol_error(
    client: TopupClient, provider: responses.RequestsMock, body: str, message: str
) -> None:
    provider.post(SEEK_URL, body=body)
    with pytest.raises(TopupProtocolError, match=message):
        client.seek_order(CUSTNO)


def test_it_refuses_a_naive_requesttime_or_bad_custno_before_sending(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    with pytest.raises(ValueError, match="naive"):
        client.seek_order(CUSTNO, requesttime=datetime(2015, 11, 23, 11, 47, 2))
    with pytest.raises(InvalidInput, match="custno"):
        client.seek_order("")
    assert len(provider.calls) == 0


# --- getMyBalance -------------------------------------------------------------------------------

BALANCE_URL = BASE_URL + "/getMyBalance"


def test_it_asks_for_the_balance_with_the_sign(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(
        BALANCE_URL,
        body='{"code": "200", "balance": 100.10, "freeze": 20.05, "availBalance": 80.05}',
    )
    result = client.get_my_balance()
    assert sent(provider) == {
        "appkey": APPKEY,
        "sign": sha1("appkey3P83lWwkoV15yZVTTOKENVqHAab3JYXBDkCoO"),
    }
    assert result == BalanceResult(
        balance=Decimal("100.10"), freeze=Decimal("20.05"), avail_balance=Decimal("80.05")
    )


def test_it_rounds_float_noise_to_the_cent(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(
        BALANCE_URL,
        body='{"code": "200", "balance": 100, "freeze": 20.05, "availBalance": 79.95000000000001}',
    )
    result = client.get_my_balance()
    assert (result.balance, result.avail_balance) == (Decimal("100.00"), Decimal("79.95"))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"code": "200", "balance": 100, "freeze": 20, "availBalance": 100}', "is not balance"),
        ('{"code": "200", "balance": 100, "freeze": 20}', "availBalance is not a number"),
        ('{"code": "200", "balance": "100", "freeze": 0, "availBalance": 100}', "balance is not"),
        ('{"code": "200", "balance": true, "freeze": 0, "availBalance": 1}', "balance is not"),
        ('{"code": "200", "balance": NaN, "freeze": 0, "availBalance": 0}', "balance is not"),
        ('{"code": "200", "balance": 1e999999, "freeze": 0, "availBalance": 0}', "out of range"),
    ],
)
def test_it_refuses_a_balance_it_cannot_trust(
    client: TopupClient, provider: responses.RequestsMock, body: str, message: str
) -> None:
    provider.post(BALANCE_URL, body=body)
    with pytest.raises(TopupProtocolError, match=message):
        client.get_my_balance()


def test_it_raises_the_code_of_a_refused_balance_query(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(BALANCE_URL, json={"code": "514", "info": "IP not on whitelist"})
    with pytest.raises(TopupRejected, match="code 514: IP not on whitelist") as caught:
        client.get_my_balance()
    assert (caught.value.code, caught.value.path) == ("514", "/getMyBalance")


def test_it_refreshes_the_token_once_on_balance(
    client: TopupClient, provider: responses.RequestsMock, tokens: RecordingTokens
) -> None:
    provider.post(BALANCE_URL, json={"code": "502", "info": "sign wrong"})
    provider.post(BALANCE_URL, json={"code": "502", "info": "sign wrong"})
    with pytest.raises(TopupRejected, match="code 502"):
        client.get_my_balance()
    assert tokens.refreshed == [TOKEN]
    assert sent(provider, 1)["sign"] == sha1("appkey3P83lWwkoV15yZVTTOKENZx81kQpL0mWn4RtY")
    assert len(provider.calls) == 2


def test_it_reports_a_balance_connection_failure_as_a_transport_error(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(BALANCE_URL, body=requests.exceptions.ConnectionError("refused"))
    with pytest.raises(TopupTransportError, match="ConnectionError: refused"):
        client.get_my_balance()


# --- refreshToken -------------------------------------------------------------------------------

REFRESH_URL = BASE_URL + "/refreshToken"


def test_it_obtains_a_token_with_appkey_and_appsecret(
    client: TopupClient, provider: responses.RequestsMock, tokens: RecordingTokens
) -> None:
    provider.post(REFRESH_URL, json={"code": "200", "token": NEW_TOKEN, "info": "ok"})
    assert client.refresh_token() == NEW_TOKEN
    assert sent(provider) == {"appkey": APPKEY, "appsecret": APPSECRET}
    assert tokens.refreshed == []


def test_it_raises_the_code_of_a_refused_token_request(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(REFRESH_URL, json={"code": "519", "info": "appkey or appsecret wrong"})
    with pytest.raises(TopupRejected, match="code 519") as caught:
        client.refresh_token()
    assert caught.value.info == "appkey or appsecret wrong"


@pytest.mark.parametrize("token", [None, "", "short", "VqHAab3JYXBDkCoOx", 1234567890123456])
def test_it_refuses_a_token_that_cannot_key_aes(
    client: TopupClient, provider: responses.RequestsMock, token: object
) -> None:
    provider.post(REFRESH_URL, json={"code": "200", "token": token, "info": "ok"})
    with pytest.raises(TopupProtocolError, match="token is not a 16-byte string"):
        client.refresh_token()


# --- construction and the local token provider ----------------------------------------------------


@pytest.mark.parametrize("appkey", ["short", "3P83lWwkoV15yZVTx", "ü3P83lWwkoV15yZV"])
def test_it_refuses_an_appkey_that_cannot_be_the_iv(appkey: str, tokens: RecordingTokens) -> None:
    with pytest.raises(ValueError, match="appkey must be 16 bytes"):
        TopupClient(BASE_URL, appkey, APPSECRET, tokens)


def test_it_refuses_an_empty_appsecret(tokens: RecordingTokens) -> None:
    with pytest.raises(ValueError, match="appsecret"):
        TopupClient(BASE_URL, APPKEY, "", tokens)


def test_a_local_provider_fetches_lazily_and_once() -> None:
    fetched: list[str] = []

    def fetch() -> str:
        fetched.append(f"token-{len(fetched):010d}")
        return fetched[-1]

    local = LocalTokenProvider(fetch)
    assert fetched == []
    assert local.current() == local.current() == "token-0000000000"
    assert fetched == ["token-0000000000"]


def test_a_local_provider_does_not_refresh_a_token_already_replaced() -> None:
    fetched: list[str] = []

    def fetch() -> str:
        fetched.append(f"token-{len(fetched):010d}")
        return fetched[-1]

    local = LocalTokenProvider(fetch)
    first = local.current()
    second = local.refresh(first)
    assert second != first
    # A second caller that was refused with the old token must not kill the new one.
    assert local.refresh(first) == second
    assert len(fetched) == 2


def test_a_client_with_a_local_provider_gets_its_own_token(
    provider: responses.RequestsMock,
) -> None:
    provider.post(REFRESH_URL, json={"code": "200", "token": TOKEN, "info": "ok"})
    provider.post(BALANCE_URL, json={"code": "200", "balance": 5, "freeze": 0, "availBalance": 5})
    own = TopupClient(
        BASE_URL, APPKEY, APPSECRET, LocalTokenProvider(lambda: own.refresh_token())
    )
    assert own.get_my_balance().avail_balance == Decimal("5.00")
    assert [call.request.url for call in provider.calls] == [REFRESH_URL, BALANCE_URL]
    assert sent(provider, 1)["sign"] == sha1("appkey3P83lWwkoV15yZVTTOKENVqHAab3JYXBDkCoO")
