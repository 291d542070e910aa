"""`/delivery/config` on the control port: defaults, partial updates, the full answer, and a
400 naming the field for every bad value."""

from __future__ import annotations

import pytest

DEFAULTS = {
    "token_protection": False, "separator": "!", "versions": {}, "rules": [], "cors": {},
    "referer": {"mode": "off", "domains": [], "deny_empty": False}, "ip_blacklist": [],
    "ua_whitelist": [], "force_https": False, "html_minify": False, "combine": False,
    "param_follow": False, "domains": [], "https_access": False, "https_certificate": "",
    "region": {"mode": "off", "regions": []},
    "origin_auth": {"url": "", "timeout": 3, "timeout_refuses": True}, "external_links": True,
    "waf": False, "max_body_mb": 512, "ip_limits": [],  # security of own-origin domains
}


def post(sandbox, body):
    return sandbox.control("POST", "/delivery/config", body)


def test_a_fresh_account_has_the_defaults(sandbox):
    answer = sandbox.control("GET", "/delivery/config").json()
    assert answer == {**DEFAULTS, "token_secret": sandbox.info["delivery"]["token_secret"]}


def test_keys_left_out_keep_their_value(sandbox):
    post(sandbox, {"token_protection": True, "separator": "-"})
    answer = post(sandbox, {"html_minify": True}).json()
    assert answer["token_protection"] is True
    assert answer["separator"] == "-"
    assert answer["html_minify"] is True
    assert sandbox.control("GET", "/delivery/config").json() == answer


def test_the_answer_is_the_full_normalised_settings(sandbox):
    answer = post(sandbox, {
        "cors": {"access-control-max-age": "0600"},
        "ip_blacklist": ["10.1.2.3/16", "2001:db8::1"],
        "referer": {"mode": "deny", "domains": ["Evil.Example.COM."]},
        "domains": ["CDN.example.com"],
    }).json()
    assert answer["cors"] == {"Access-Control-Max-Age": "600"}
    assert answer["ip_blacklist"] == ["10.1.0.0/16", "2001:db8::1"]
    assert answer["referer"] == {"mode": "deny", "domains": ["evil.example.com"],
                                 "deny_empty": False}
    assert answer["domains"] == ["cdn.example.com"]
    assert set(answer) == set(DEFAULTS) | {"token_secret"}


def test_a_token_secret_can_be_set_and_restored(sandbox):
    assert post(sandbox, {"token_secret": "abc123"}).json()["token_secret"] == "abc123"
    restored = post(sandbox, {"token_secret": None}).json()
    assert restored["token_secret"] == sandbox.info["delivery"]["token_secret"]


def test_a_reset_brings_back_the_defaults(sandbox):
    post(sandbox, {"force_https": True, "versions": {"v": "/fw/10"}})
    sandbox.reset()
    assert sandbox.control("GET", "/delivery/config").json()["force_https"] is False
    assert sandbox.control("GET", "/delivery/config").json()["versions"] == {}


def test_a_refused_change_changes_nothing(sandbox):
    post(sandbox, {"html_minify": True})
    response = post(sandbox, {"html_minify": False, "separator": "#"})
    assert response.status_code == 400
    assert sandbox.control("GET", "/delivery/config").json()["html_minify"] is True


@pytest.mark.parametrize(("body", "field"), [
    ({"token_protection": "yes"}, "token_protection"),
    ({"force_https": 1}, "force_https"),
    ({"html_minify": None}, "html_minify"),
    ({"combine": "on"}, "combine"),
    ({"param_follow": []}, "param_follow"),
    ({"token_secret": ""}, "token_secret"),
    ({"token_secret": 12}, "token_secret"),
    ({"token_secret": "a\nb"}, "token_secret"),
    ({"separator": "#"}, "separator"),
    ({"separator": "!!"}, "separator"),
    ({"domains": ["*.example.com"]}, "domains[0]"),
    ({"domains": "example.com"}, "domains"),
    ({"ip_blacklist": "10.0.0.1"}, "ip_blacklist"),
    ({"ua_whitelist": [""]}, "ua_whitelist[0]"),
    ({"ua_whitelist": [3]}, "ua_whitelist[0]"),
    ({"unknown": 1}, "unknown"),
])
def test_a_bad_value_is_refused_naming_the_field(sandbox, body, field):
    response = post(sandbox, body)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert response.json()["error"].startswith(f"{field}:")


def test_a_body_that_is_not_a_json_object_is_refused(sandbox):
    response = post(sandbox, ["token_protection"])
    assert response.status_code == 400
    assert response.json()["field"] == "body"


def test_only_get_and_post_are_allowed(sandbox):
    assert sandbox.control("PUT", "/delivery/config", {}).status_code == 405
