"""Top-up tokens: issued for the right appkey and appsecret, 24 hours on the sandbox clock,
and a new one kills the previous at once."""

import pytest

from tests.sandbox.test_topup_support import TopupClient, sha1


@pytest.fixture
def topup(sandbox):
    return TopupClient(sandbox)


def test_it_issues_a_16_character_token(topup):
    answer = topup.post("/refreshToken", {"appkey": topup.appkey, "appsecret": topup.appsecret})
    assert answer["code"] == "200"
    assert len(answer["token"]) == 16
    assert answer["token"].isalnum()


def test_it_refuses_a_wrong_appsecret_with_519(topup):
    answer = topup.post("/refreshToken", {"appkey": topup.appkey, "appsecret": "nope"})
    assert answer["code"] == "519"
    assert answer["token"] == ""


def test_it_refuses_a_wrong_appkey_with_519(topup):
    answer = topup.post("/refreshToken", {"appkey": "0123456789abcdef",
                                          "appsecret": topup.appsecret})
    assert answer["code"] == "519"


def test_it_refuses_a_missing_appsecret_with_507(topup):
    answer = topup.post("/refreshToken", {"appkey": topup.appkey})
    assert answer["code"] == "507"
    assert "appsecret" in answer["info"]


def test_it_refuses_an_appsecret_that_is_not_a_string_with_507(topup):
    answer = topup.post("/refreshToken", {"appkey": topup.appkey, "appsecret": 12345})
    assert answer["code"] == "507"
    assert "appsecret" in answer["info"]


def test_each_refresh_gives_a_new_token(topup):
    assert topup.refresh_token() != topup.refresh_token()


def test_a_new_token_invalidates_the_previous_one_at_once(topup):
    old = topup.refresh_token()
    new = topup.refresh_token()
    topup.token = old
    assert topup.balance()["code"] == "502"
    topup.token = new
    assert topup.balance()["code"] == "200"


def test_a_token_is_valid_for_24_hours_of_the_sandbox_clock(topup, sandbox):
    topup.refresh_token()
    sandbox.advance(24 * 3600 - 600)
    assert topup.balance()["code"] == "200"
    sandbox.advance(600)
    answer = topup.balance()
    assert answer["code"] == "527"
    assert "refreshToken" in answer["info"]


def test_an_expired_token_refuses_every_signed_interface(topup, sandbox):
    topup.refresh_token()
    placed = topup.charge()
    sandbox.advance(24 * 3600)
    assert topup.charge()["code"] == "527"
    assert topup.seek(placed["custno"])["code"] == "527"
    assert topup.balance()["code"] == "527"


def test_a_refresh_after_expiry_restores_service(topup, sandbox):
    topup.refresh_token()
    sandbox.advance(25 * 3600)
    assert topup.balance()["code"] == "527"
    topup.refresh_token()
    assert topup.balance()["code"] == "200"


def test_a_request_before_any_token_was_issued_gets_527(topup):
    made_up = "A" * 16
    answer = topup.post("/getMyBalance", {"appkey": topup.appkey,
                                          "sign": sha1(f"appkey{topup.appkey}TOKEN{made_up}")})
    assert answer["code"] == "527"


def test_reset_forgets_every_token(topup, sandbox):
    topup.refresh_token()
    sandbox.reset()
    assert topup.balance()["code"] == "527"
