"""Typed errors: every provider code, unknown codes, and answers that are not the protocol's."""

import pickle

import pytest
import requests
import responses

from sms.client import SmsClient
from sms.errors import (
    ERRORS_BY_CODE,
    IllegalContentLengthError,
    IllegalMobileError,
    IllegalParamerError,
    IllegalReportTypeError,
    IllegalSignatureError,
    IllegalTemplateIdError,
    IllegalTitleError,
    InsufficientFundsError,
    InvalidCredentialsError,
    InvalidFileError,
    MissingParameterError,
    MobileLimitError,
    NotFoundError,
    ProviderSystemError,
    RateLimitedError,
    RequireSignatureOwnerError,
    RequireTemplateOwnerError,
    SmsApiError,
    SmsError,
    SmsResponseError,
    SmsSystemError,
    SmsTransportError,
    TemplateAuditingError,
    TemplateFailedError,
    TemplateLimitError,
    TemplateNotAuditedError,
    TemplateNotFoundError,
    UserNotFoundError,
    api_error,
)

BASE = "https://sms.example.test"
TOKEN = "tok-3P83lWwkoV15"
URL = f"{BASE}/api/templates"

# The spec's table, written out here independently of the client's own table.
SPEC_ERRORS = [
    ("INVALID_FILE", 400, InvalidFileError),
    ("MISSING_PARAMETER", 400, MissingParameterError),
    ("INVALID_CREDENTIALS", 401, InvalidCredentialsError),
    ("REQUIRE_TEMPLATE_OWNER", 403, RequireTemplateOwnerError),
    ("REQUIRE_SIGNATURE_OWNER", 403, RequireSignatureOwnerError),
    ("USER_NOT_FOUND", 404, UserNotFoundError),
    ("TEMPLATE_NOT_FOUND", 404, TemplateNotFoundError),
    ("NOT_FOUND", 404, NotFoundError),
    ("INSUFFICIENT_FUNDS", 409, InsufficientFundsError),
    ("MOBILE_LIMIT", 409, MobileLimitError),
    ("ILLEGAL_MOBILE", 409, IllegalMobileError),
    ("ILLEGAL_PARAMER", 409, IllegalParamerError),
    ("TEMPLATE_LIMIT", 409, TemplateLimitError),
    ("TEMPLATE_AUDITING", 409, TemplateAuditingError),
    ("TEMPLATE_NOT_AUDITED", 409, TemplateNotAuditedError),
    ("ILLEGAL_SIGNATURE", 409, IllegalSignatureError),
    ("ILLEGAL_TITLE", 409, IllegalTitleError),
    ("TEMPLATE_FAILED", 409, TemplateFailedError),
    ("ILLEGAL_CONTENT_LENGTH", 409, IllegalContentLengthError),
    ("ILLEGAL_REPORT_TYPE", 409, IllegalReportTypeError),
    ("ILLEGAL_TEMPLATE_ID", 422, IllegalTemplateIdError),
    ("SMS_SYSTEM_ERROR", 500, SmsSystemError),
    ("SYSTEM_ERROR", 500, ProviderSystemError),
]


@pytest.fixture
def mock():
    with responses.RequestsMock() as rsps:
        yield rsps


@pytest.fixture
def client():
    return SmsClient(BASE, TOKEN)


@pytest.mark.parametrize(("code", "status", "error_class"), SPEC_ERRORS)
def test_it_raises_the_typed_error_of_each_provider_code(mock, client, code, status, error_class):
    mock.get(URL, json={"error_code": code, "message": "extra words"}, status=status)

    with pytest.raises(error_class) as caught:
        client.list_templates()

    error = caught.value
    assert type(error) is error_class
    assert isinstance(error, SmsApiError)
    assert (error.code, error.status, error.message) == (code, status, "extra words")
    assert error.http_status == status
    assert code in str(error)
    assert error.outcome_uncertain is (status >= 500)


def test_the_error_table_holds_exactly_the_codes_of_the_spec_and_the_429():
    # The spec shows no rate limit; a 429 (the sandbox's limit, or a proxy's) has its class.
    spec = {code: error_class for code, _, error_class in SPEC_ERRORS}
    assert dict(ERRORS_BY_CODE) == {**spec, "TOO_MANY_REQUESTS": RateLimitedError}


def test_it_raises_the_base_class_for_an_unknown_code_and_keeps_the_code(mock, client):
    mock.get(URL, json={"error_code": "TEAPOT", "message": "short and stout"}, status=418)
    with pytest.raises(SmsApiError) as caught:
        client.list_templates()
    assert type(caught.value) is SmsApiError
    assert (caught.value.code, caught.value.status) == ("TEAPOT", 418)
    assert not caught.value.outcome_uncertain


@pytest.mark.parametrize(("body", "retry_after", "code", "seconds"), [
    ({"error_code": "TOO_MANY_REQUESTS", "message": "slow"}, "2", "TOO_MANY_REQUESTS", 2.0),
    ({"error_code": "RATE_LIMITED", "message": "slow"}, None, "RATE_LIMITED", None),
    (None, "1", "TOO_MANY_REQUESTS", 1.0),  # a proxy's bare 429
])
def test_any_429_is_a_certain_rate_limit_with_its_retry_after(mock, client, body, retry_after,
                                                              code, seconds):
    headers = {"Retry-After": retry_after} if retry_after else {}
    if body is None:
        mock.get(URL, body="Too Many Requests", status=429, headers=headers)
    else:
        mock.get(URL, json=body, status=429, headers=headers)
    with pytest.raises(RateLimitedError) as caught:
        client.list_templates()
    assert (caught.value.code, caught.value.status, caught.value.retry_after_s) == (
        code, 429, seconds)
    assert not caught.value.outcome_uncertain


def test_it_keeps_the_status_received_when_it_differs_from_the_table(mock, client):
    mock.get(URL, json={"error_code": "TEMPLATE_NOT_FOUND", "message": ""}, status=409)
    with pytest.raises(TemplateNotFoundError) as caught:
        client.list_templates()
    assert caught.value.status == 409


def test_it_falls_back_to_the_standard_text_without_a_provider_message(mock, client):
    mock.get(URL, json={"error_code": "INVALID_CREDENTIALS"}, status=401)
    with pytest.raises(InvalidCredentialsError) as caught:
        client.list_templates()
    assert caught.value.message == ""
    assert "invalid authentication" in str(caught.value)


def test_it_builds_typed_errors_from_a_code():
    assert type(api_error("TEMPLATE_FAILED", 409, "resubmit")) is TemplateFailedError
    assert type(api_error("SOMETHING_NEW", 409)) is SmsApiError


@pytest.mark.parametrize(
    "error",
    [
        TemplateAuditingError("TEMPLATE_AUDITING", 409, "wait"),
        SmsApiError("SOMETHING_NEW", 418, "teapot"),
        SmsTransportError("GET /api/templates: timeout"),
        SmsResponseError("not JSON", 502),
    ],
)
def test_errors_survive_pickling_for_task_results(error):
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert vars(copy) == vars(error)
    assert str(copy) == str(error)


@pytest.mark.parametrize(
    ("status", "body", "content_type"),
    [
        (502, "<html>Bad Gateway</html>", "text/html"),
        (500, "", "text/plain"),
        (404, '{"detail": "Not found"}', "application/json"),
        (409, '{"error_code": "", "message": "x"}', "application/json"),
        (409, '["ILLEGAL_TITLE"]', "application/json"),
    ],
)
def test_an_error_answer_without_the_providers_error_body_is_a_transport_error(
    mock, client, status, body, content_type
):
    mock.get(URL, body=body, status=status, content_type=content_type)
    with pytest.raises(SmsResponseError) as caught:
        client.list_templates()
    assert isinstance(caught.value, SmsTransportError)
    assert not isinstance(caught.value, SmsApiError)
    assert caught.value.status == status
    assert caught.value.outcome_uncertain


@pytest.mark.parametrize("body", ["<html>ok</html>", "", '["a"]', "null"])
def test_a_success_answer_that_is_not_a_json_object_is_a_transport_error(mock, client, body):
    mock.get(URL, body=body, status=200)
    with pytest.raises(SmsTransportError):
        client.list_templates()


@pytest.mark.parametrize(
    "failure",
    [
        requests.ConnectionError("connection refused"),
        requests.ReadTimeout("read timed out"),
        requests.exceptions.SSLError("bad certificate"),
    ],
)
def test_a_connection_failure_is_a_transport_error_with_uncertain_outcome(mock, client, failure):
    mock.post(f"{BASE}/api/messages", body=failure)
    with pytest.raises(SmsTransportError) as caught:
        client.send(12, ["13800138000"])
    assert isinstance(caught.value, SmsError)
    assert caught.value.status is None
    assert caught.value.outcome_uncertain
    assert caught.value.__cause__ is failure


def test_it_passes_the_timeout_to_every_request(mock):
    mock.get(URL, json={"templates": []})
    SmsClient(BASE, TOKEN, timeout=2.5).list_templates()
    assert mock.calls[0].request.req_kwargs["timeout"] == 2.5


def test_it_uses_a_short_connect_and_a_longer_read_timeout_by_default(mock, client):
    mock.get(URL, json={"templates": []})
    client.list_templates()
    connect, read = mock.calls[0].request.req_kwargs["timeout"]
    assert connect < read


def test_it_sends_through_the_session_it_is_given(mock):
    session = requests.Session()
    session.headers["X-Trace"] = "abc"
    mock.get(URL, json={"templates": []})
    SmsClient(BASE, TOKEN, session=session).list_templates()
    request = mock.calls[0].request
    assert request.headers["X-Trace"] == "abc"
    assert request.headers["Authorization"] == TOKEN
    # The token goes on each request, not onto a session the caller may share.
    assert "Authorization" not in session.headers


def test_it_never_shows_the_token_in_its_repr(client):
    assert TOKEN not in repr(client)
    assert BASE in repr(client)


def test_it_refuses_an_empty_token():
    with pytest.raises(ValueError, match="token"):
        SmsClient(BASE, "")
