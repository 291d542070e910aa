"""SMS API authentication: the raw account token in `Authorization`, nothing else."""

import pytest

from tests.sandbox.test_sms_support import SmsApi, error_of

ENDPOINTS = [("GET", "/api/templates"), ("POST", "/api/templates"),
             ("PATCH", "/api/templates/1"), ("DELETE", "/api/templates/1"),
             ("GET", "/api/messages"), ("POST", "/api/messages")]


@pytest.fixture
def api(sandbox):
    return SmsApi(sandbox)


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_it_rejects_a_request_without_authorization(api, method, path):
    response = api.request(method, path, token=None)
    assert error_of(response) == (401, "INVALID_CREDENTIALS")


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_it_rejects_a_wrong_token(api, method, path):
    response = api.request(method, path, token=api.token + "x")
    assert error_of(response) == (401, "INVALID_CREDENTIALS")


def test_it_rejects_the_token_behind_a_scheme_word(api):
    response = api.request("GET", "/api/templates", token=f"Bearer {api.token}")
    assert error_of(response) == (401, "INVALID_CREDENTIALS")


def test_it_rejects_a_token_that_is_not_ascii(api):
    response = api.request("GET", "/api/templates", token="令牌".encode())
    assert error_of(response) == (401, "INVALID_CREDENTIALS")


def test_it_accepts_the_raw_token(api):
    response = api.templates()
    assert response.status_code == 200
    assert response.json() == {"templates": []}


def test_an_unknown_path_answers_not_found_in_the_error_body(api):
    response = api.request("GET", "/api/nothing-here")
    assert error_of(response) == (404, "NOT_FOUND")


def test_an_unsupported_method_answers_not_found(api):
    response = api.request("PUT", "/api/templates")
    assert error_of(response) == (404, "NOT_FOUND")
