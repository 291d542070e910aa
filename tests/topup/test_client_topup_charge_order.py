"""chargeOrder: the exact request, the reading of answers, and never a blind resend.

Expected ciphertexts come from the openssl command line and expected signs from hashlib over
strings written out here, so neither is computed by the code under test.
"""

import hashlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import responses

from tests.topup.recording_tokens import RecordingTokens
from topup.client import ChargeResult, TopupClient
from topup.rules import ChargeOutcome, InvalidInput, Remedy
from topup.signing import decrypt_mobile

BASE_URL = "http://topup.test/api"
URL = BASE_URL + "/chargeOrder"
APPKEY = "3P83lWwkoV15yZVT"
TOKEN = "VqHAab3JYXBDkCoO"
NEW_TOKEN = "Zx81kQpL0mWn4RtY"
CUSTNO = "20151123114702"
# printf 13800138000 | openssl enc -aes-128-cbc -K <hex token> -iv <hex appkey> | base64
MOBILE_UNDER_TOKEN = "wwzdlJGiV/cIWGvaMFhHQg=="
MOBILE_UNDER_NEW_TOKEN = "TsFLDpVBOhHNnWMxCcPQjw=="


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


SIGN_UNDER_TOKEN = sha1(
    "appkey3P83lWwkoV15yZVTcustno20151123114702mobilewwzdlJGiV/cIWGvaMFhHQg=="
    "prodcodeCMCC_10tokenVqHAab3JYXBDkCoO"
)
SIGN_UNDER_NEW_TOKEN = sha1(
    "appkey3P83lWwkoV15yZVTcustno20151123114702mobileTsFLDpVBOhHNnWMxCcPQjw=="
    "prodcodeCMCC_10tokenZx81kQpL0mWn4RtY"
)


@pytest.fixture
def tokens() -> RecordingTokens:
    return RecordingTokens(TOKEN, NEW_TOKEN)


@pytest.fixture
def client(tokens: RecordingTokens) -> TopupClient:
    return TopupClient(BASE_URL + "/", APPKEY, "merchant-secret", tokens)


@pytest.fixture
def provider() -> Iterator[responses.RequestsMock]:
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        yield mock


def sent(provider: responses.RequestsMock, index: int = 0) -> dict[str, Any]:
    body = provider.calls[index].request.body
    assert body is not None
    return json.loads(body)


def charge(client: TopupClient) -> ChargeResult:
    return client.charge_order(CUSTNO, "13800138000", "CMCC_10")


def test_it_sends_the_encrypted_number_and_the_sign(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(URL, json={"code": "200", "custno": CUSTNO, "orderno": "T1", "info": "ok"})
    charge(client)
    assert sent(provider) == {
        "appkey": APPKEY,
        "custno": CUSTNO,
        "mobile": MOBILE_UNDER_TOKEN,
        "prodcode": "CMCC_10",
        "sign": SIGN_UNDER_TOKEN,
    }
    assert provider.calls[0].request.headers["Content-Type"] == "application/json"


def test_it_reads_code_200_as_created(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(URL, json={"code": "200", "custno": CUSTNO, "orderno": "T1", "info": "ok"})
    assert charge(client) == ChargeResult(
        outcome=ChargeOutcome.CREATED, custno=CUSTNO, code="200", info="ok", orderno="T1"
    )


def test_it_normalises_the_number_before_encrypting(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(URL, json={"code": "200", "custno": CUSTNO, "orderno": "T1", "info": ""})
    client.charge_order(CUSTNO, "+86 138 0013 8000", "CMCC_10")
    assert sent(provider)["mobile"] == MOBILE_UNDER_TOKEN


def test_it_sends_prodtime_and_prodstandard_as_integers_outside_the_sign(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(URL, json={"code": "200", "custno": CUSTNO, "orderno": "T1", "info": ""})
    client.charge_order(CUSTNO, "13800138000", "CMCC_10", prodtime=0, prodstandard=3)
    body = sent(provider)
    assert body["prodtime"] == 0
    assert body["prodstandard"] == 3
    assert body["sign"] == SIGN_UNDER_TOKEN


@pytest.mark.parametrize(
    ("code", "outcome"),
    [
        ("410", ChargeOutcome.MUST_QUERY),
        ("511", ChargeOutcome.MUST_QUERY),
        ("503", ChargeOutcome.FAILED),
        ("505", ChargeOutcome.FAILED),
        ("512", ChargeOutcome.FAILED),
    ],
)
def test_it_reads_other_codes(
    client: TopupClient, provider: responses.RequestsMock, code: str, outcome: ChargeOutcome
) -> None:
    provider.post(URL, json={"code": code, "custno": CUSTNO, "orderno": "", "info": "why"})
    result = charge(client)
    assert (result.outcome, result.code, result.info, result.orderno) == (
        outcome,
        code,
        "why",
        None,
    )
    assert len(provider.calls) == 1


def test_it_flags_510_as_a_reason_to_back_off(
    client: TopupClient, provider: responses.RequestsMock
) -> None:
    provider.post(URL, json={"code": "510", "info": "too frequent"})
    result = charge(client)
    assert result.outcome is ChargeOutcome.FAILED
    assert result.remedy is Remedy.BACK_OFF


@pytest.mark.parametrize(
    "failure",
    [
        requests.exceptions.ReadTimeout("read timed out"),
        requests.exceptions.ConnectTimeout("connect timed out"),
        requests.exceptions.ConnectionError("connection reset"),
    ],
)
def test_a_transport_failure_means_must_query_and_no_resend(
    client: TopupClient, provider: responses.RequestsMock, failure: requests.RequestException
) -> None:
    provider.post(URL, body=failure)
    result = charge(client)
    assert result.outcome is ChargeOutcome.MUST_QUERY
    assert result.custno == CUSTNO
    assert result.code is None
    assert result.problem and "/chargeOrder" in result.problem
    assert len(provider.calls) == 1


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (502, "<html>Bad Gateway</html>"),
        (200, ""),
        (200, "[]"),
        (200, '{"info": "no code"}'),
        (200, '{"code": 200, "orderno": "T1"}'),
        (200, '{"code": "200", "custno": "20151123114799", "orderno": "T1"}'),
        (200, '{"code": "200", "custno": "20151123114702", "info": "no orderno"}'),
        (200, '{"code": "200", "custno": "20151123114702", "orderno": 17}'),
    ],
)
def test_an_abnormal_answer_means_must_query_and_no_resend(
    client: TopupClient, provider: responses.RequestsMock, status: int, body: str
) -> None:
    provider.post(URL, status=status, body=body)
    result = charge(client)
    assert result.outcome is ChargeOutcome.MUST_QUERY
    assert result.custno == CUSTNO
    assert result.problem
    assert len(provider.calls) == 1


@pytest.mark.parametrize("code", ["502", "527"])
def test_it_refreshes_the_token_once_and_resends(
    client: TopupClient, provider: responses.RequestsMock, tokens: RecordingTokens, code: str
) -> None:
    provider.post(URL, json={"code": code, "info": "sign"})
    provider.post(URL, json={"code": "200", "custno": CUSTNO, "orderno": "T1", "info": "ok"})
    result = charge(client)
    assert result.outcome is ChargeOutcome.CREATED
    assert tokens.refreshed == [TOKEN]
    retried = sent(provider, 1)
    assert retried["mobile"] == MOBILE_UNDER_NEW_TOKEN
    assert decrypt_mobile(retried["mobile"], token=NEW_TOKEN, appkey=APPKEY) == "13800138000"
    assert retried["sign"] == SIGN_UNDER_NEW_TOKEN
    assert len(provider.calls) == 2


def test_it_gives_up_after_one_refresh(
    client: TopupClient, provider: responses.RequestsMock, tokens: RecordingTokens
) -> None:
    provider.post(URL, json={"code": "527", "info": "token not valid"})
    result = charge(client)
    assert (result.outcome, result.code, result.remedy) == (
        ChargeOutcome.FAILED,
        "527",
        Remedy.REFRESH_TOKEN,
    )
    assert tokens.refreshed == [TOKEN]
    assert len(provider.calls) == 2


def test_a_timeout_on_the_resend_means_must_query(
    client: TopupClient, provider: responses.RequestsMock, tokens: RecordingTokens
) -> None:
    provider.post(URL, json={"code": "502", "info": "sign wrong"})
    provider.post(URL, body=requests.exceptions.ReadTimeout("read timed out"))
    result = charge(client)
    assert result.outcome is ChargeOutcome.MUST_QUERY
    assert result.custno == CUSTNO
    assert len(provider.calls) == 2


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"custno": "x" * 30}, "custno"),
        ({"custno": "bad custno"}, "custno"),
        ({"mobile": "12345"}, "mobile"),
        ({"prodcode": ""}, "prodcode"),
        ({"prodtime": 2}, "prodtime"),
        ({"prodstandard": 5}, "prodstandard"),
    ],
)
def test_it_refuses_bad_input_before_sending(
    client: TopupClient, provider: responses.RequestsMock, arguments: dict[str, Any], field: str
) -> None:
    call: dict[str, Any] = {"custno": CUSTNO, "mobile": "13800138000", "prodcode": "CMCC_10",
                            **arguments}
    with pytest.raises(InvalidInput) as caught:
        client.charge_order(**call)
    assert caught.value.field == field
    assert len(provider.calls) == 0
