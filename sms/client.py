"""The SMS provider's HTTP protocol: requests, answer parsing and typed errors.

Sources: spec/sms-and-topup.md part A and spec/DECISIONS.md section "SMS". No Django here: the
services layer hands in a `requests.Session` (for instance one that records provider contact)
and decides what to store.

Outcome of a call, as the caller sees it:
- a return value: the provider answered and the answer was understood;
- `SmsApiError` (one subclass per provider error code): the provider answered with an error
  body; `outcome_uncertain` is True only for 5xx answers;
- `SmsTransportError`: no usable answer (connection failure, timeout, non-JSON, unexpected
  shape). The provider may or may not have acted, so a send must be checked against the
  delivery report before it is retried. The client itself never retries.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, ClassVar, Literal

import requests

logger = logging.getLogger(__name__)

TemplateStatus = Literal["review", "success", "defeat"]
MessageType = Literal["industry", "marketing"]
ReportType = Literal["vip", "general"]
SignLocation = Literal["top", "bottom"]

TEMPLATE_STATUSES: tuple[str, ...] = ("review", "success", "defeat")
MESSAGE_TYPES: tuple[str, ...] = ("industry", "marketing")
REPORT_TYPES: tuple[str, ...] = ("vip", "general")
# DECISIONS: the known message statuses; any other value is kept verbatim, never refused.
MESSAGE_STATUSES: frozenset[str] = frozenset({"processing", "success", "failed"})
MAX_NUMBERS_PER_SEND = 1000  # DECISIONS: more gives MOBILE_LIMIT for the whole call
MAX_PER_PAGE = 100  # DECISIONS: more gives ILLEGAL_PARAMER
MOBILE_SEPARATOR = ","
VARS_SEPARATOR = "|"
DEFAULT_TIMEOUT: tuple[float, float] = (5.0, 30.0)  # (connect, read) seconds


# --- errors ----------------------------------------------------------------------------------


class SmsError(Exception):
    """Anything that went wrong talking to the SMS provider."""

    @property
    def outcome_uncertain(self) -> bool:
        """True when the provider may have carried out the request although the call failed."""
        return True


class SmsTransportError(SmsError):
    """No usable answer: connection failure, timeout, or an answer that is not the protocol's.

    `status` is the HTTP status when an answer arrived but could not be used, else None.
    """

    def __init__(self, detail: str, status: int | None = None) -> None:
        super().__init__(detail if status is None else f"{detail} (HTTP {status})")
        self.detail = detail
        self.status = status

    def __reduce__(self) -> tuple[type[SmsTransportError], tuple[str, int | None]]:
        # Celery pickles exceptions; keep the constructor's arguments, not the formatted text.
        return (type(self), (self.detail, self.status))


class SmsResponseError(SmsTransportError):
    """An answer arrived but is not what the protocol promises (not JSON, wrong shape)."""


class SmsApiError(SmsError):
    """The provider answered with an error body `{error_code, message}`.

    `code` is the provider's code, `status` the HTTP status received and `message` the
    provider's extra description. Subclasses exist for every code of the spec's table;
    an unknown code is raised as this base class with its code kept.
    """

    code: str = ""
    http_status: ClassVar[int | None] = None  # the status the spec lists for this code
    meaning: ClassVar[str] = "unknown error code"  # the spec's standard text for this code

    def __init__(self, code: str, status: int, message: str = "") -> None:
        super().__init__(f"{code} (HTTP {status}): {message or self.meaning}")
        self.code = code
        self.status = status
        self.message = message

    @property
    def outcome_uncertain(self) -> bool:
        # A 4xx is a refusal: nothing was done. A 5xx may have happened half way.
        return self.status >= 500

    def __reduce__(self) -> tuple[type[SmsApiError], tuple[str, int, str]]:
        return (type(self), (self.code, self.status, self.message))


class InvalidFileError(SmsApiError):
    code, http_status, meaning = "INVALID_FILE", 400, "file missing or size/format invalid"


class MissingParameterError(SmsApiError):
    code, http_status, meaning = "MISSING_PARAMETER", 400, "a required field is empty"


class InvalidCredentialsError(SmsApiError):
    code, http_status, meaning = "INVALID_CREDENTIALS", 401, "invalid authentication"


class RequireTemplateOwnerError(SmsApiError):
    code, http_status, meaning = "REQUIRE_TEMPLATE_OWNER", 403, "no permission on the template"


class RequireSignatureOwnerError(SmsApiError):
    code, http_status, meaning = "REQUIRE_SIGNATURE_OWNER", 403, "no permission on the signature"


class UserNotFoundError(SmsApiError):
    code, http_status, meaning = "USER_NOT_FOUND", 404, "user does not exist"


class TemplateNotFoundError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_NOT_FOUND", 404, "template does not exist"


class NotFoundError(SmsApiError):
    code, http_status, meaning = "NOT_FOUND", 404, "page does not exist"


class InsufficientFundsError(SmsApiError):
    code, http_status, meaning = "INSUFFICIENT_FUNDS", 409, "message quota insufficient"


class MobileLimitError(SmsApiError):
    code, http_status, meaning = "MOBILE_LIMIT", 409, "too many mobile numbers"


class IllegalMobileError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_MOBILE", 409, "invalid mobile number"


class IllegalParamerError(SmsApiError):
    # Spelled as the provider spells it.
    code, http_status, meaning = "ILLEGAL_PARAMER", 409, "invalid parameter"


class TemplateLimitError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_LIMIT", 409, "template count reached the cap"


class TemplateAuditingError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_AUDITING", 409, "template under review, unusable"


class TemplateNotAuditedError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_NOT_AUDITED", 409, "template not reviewed"


class IllegalSignatureError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_SIGNATURE", 409, "signature length must be 3-8"


class IllegalTitleError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_TITLE", 409, "title length must be below 12"


class TemplateFailedError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_FAILED", 409, "review failed, resubmit"


class IllegalContentLengthError(SmsApiError):
    code, http_status, meaning = (
        "ILLEGAL_CONTENT_LENGTH",
        409,
        "signature + content must be below 348",
    )


class IllegalReportTypeError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_REPORT_TYPE", 409, "invalid review type"


class IllegalTemplateIdError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_TEMPLATE_ID", 422, "invalid template number"


class SmsSystemError(SmsApiError):
    code, http_status, meaning = "SMS_SYSTEM_ERROR", 500, "SMS service fault"


class ProviderSystemError(SmsApiError):
    # Not named SystemError: that would shadow the Python builtin.
    code, http_status, meaning = "SYSTEM_ERROR", 500, "system error"


ERRORS_BY_CODE: Mapping[str, type[SmsApiError]] = {
    error.code: error
    for error in (
        InvalidFileError,
        MissingParameterError,
        InvalidCredentialsError,
        RequireTemplateOwnerError,
        RequireSignatureOwnerError,
        UserNotFoundError,
        TemplateNotFoundError,
        NotFoundError,
        InsufficientFundsError,
        MobileLimitError,
        IllegalMobileError,
        IllegalParamerError,
        TemplateLimitError,
        TemplateAuditingError,
        TemplateNotAuditedError,
        IllegalSignatureError,
        IllegalTitleError,
        TemplateFailedError,
        IllegalContentLengthError,
        IllegalReportTypeError,
        IllegalTemplateIdError,
        SmsSystemError,
        ProviderSystemError,
    )
}


def api_error(code: str, status: int, message: str = "") -> SmsApiError:
    """The typed exception for a provider error code (the base class for unknown codes)."""
    return ERRORS_BY_CODE.get(code, SmsApiError)(code, status, message)


# --- records ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Owner:
    """The account a template or message belongs to, with its quotas (JSON field `owner`)."""

    id: int
    name: str
    general: int  # remaining ordinary-channel messages
    vip: int  # remaining signature-exempt messages
    industry: int  # industry messages sent
    marketing: int  # marketing messages sent


@dataclass(frozen=True)
class Template:
    id: int
    title: str
    temp_sign: str
    content: str
    sign_location: str
    type: str
    report_type: str
    status: str  # review / success / defeat; any other value is kept verbatim
    updated_at: datetime
    owner: Owner | None


@dataclass(frozen=True)
class Message:
    """One record of the delivery report."""

    id: int
    template_id: int
    report_type: str
    title: str
    type: str
    content: str  # the delivered text, signature included
    temp_sign: str
    mobile: str
    sent_at: datetime | None  # None while not yet sent
    created_at: datetime
    status: str  # verbatim, even when not one of MESSAGE_STATUSES
    quantity: int  # units counted
    owner: Owner | None

    @property
    def status_known(self) -> bool:
        return self.status in MESSAGE_STATUSES


@dataclass(frozen=True)
class SendResult:
    """The provider's answer for one submitted number: accepted or rejected, never both."""

    mobile: str
    message_id: int | None = None
    error_code: str | None = None

    def __post_init__(self) -> None:
        if (self.message_id is None) == (self.error_code is None):
            raise ValueError("a send result has either a message_id or an error_code")

    @property
    def accepted(self) -> bool:
        return self.message_id is not None


@dataclass(frozen=True)
class Report:
    """One page of the delivery report, and the total number of matching messages."""

    messages: tuple[Message, ...]
    total: int


# --- answer parsing --------------------------------------------------------------------------
# The provider's answers are checked field by field: a wrong shape raises SmsResponseError
# naming the field, instead of a KeyError deep inside the services layer.


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise SmsResponseError(f"{where}: field {key!r} is missing")
    value = data[key]
    # bool is an int in Python, but never a valid id or count.
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise SmsResponseError(f"{where}: field {key!r} has an unexpected value {value!r}")
    return value


def _int(data: Mapping[str, Any], key: str, where: str) -> int:
    return int(_field(data, key, int, where))


def _str(data: Mapping[str, Any], key: str, where: str) -> str:
    return str(_field(data, key, str, where))


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise SmsResponseError(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value


def _timestamp(data: Mapping[str, Any], key: str, where: str) -> datetime:
    text = _str(data, key, where)
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise SmsResponseError(f"{where}: field {key!r} is not a timestamp: {text!r}") from None
    # DECISIONS: timestamps are UTC; one sent without an offset is read as UTC as well.
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def _optional_timestamp(data: Mapping[str, Any], key: str, where: str) -> datetime | None:
    if data.get(key) is None:
        return None
    return _timestamp(data, key, where)


def parse_owner(value: Any) -> Owner | None:
    """The `owner` object; None when the provider leaves it out or sends null."""
    if value is None:
        return None
    data = _object(value, "owner")
    return Owner(
        id=_int(data, "id", "owner"),
        name=_str(data, "name", "owner"),
        general=_int(data, "general", "owner"),
        vip=_int(data, "vip", "owner"),
        industry=_int(data, "industry", "owner"),
        marketing=_int(data, "marketing", "owner"),
    )


def parse_template(value: Any) -> Template:
    data = _object(value, "template")
    return Template(
        id=_int(data, "id", "template"),
        title=_str(data, "title", "template"),
        temp_sign=_str(data, "temp_sign", "template"),
        content=_str(data, "content", "template"),
        sign_location=_str(data, "sign_location", "template"),
        type=_str(data, "type", "template"),
        report_type=_str(data, "report_type", "template"),
        status=_str(data, "status", "template"),
        updated_at=_timestamp(data, "updated_at", "template"),
        owner=parse_owner(data.get("owner")),
    )


def parse_message(value: Any) -> Message:
    data = _object(value, "message")
    return Message(
        id=_int(data, "id", "message"),
        template_id=_int(data, "template_id", "message"),
        report_type=_str(data, "report_type", "message"),
        title=_str(data, "title", "message"),
        type=_str(data, "type", "message"),
        content=_str(data, "content", "message"),
        temp_sign=_str(data, "temp_sign", "message"),
        mobile=_str(data, "mobile", "message"),
        sent_at=_optional_timestamp(data, "sent_at", "message"),
        created_at=_timestamp(data, "created_at", "message"),
        status=_str(data, "status", "message"),
        quantity=_int(data, "quantity", "message"),
        owner=parse_owner(data.get("owner")),
    )


def parse_send_result(value: Any) -> SendResult:
    data = _object(value, "send result")
    mobile = _str(data, "mobile", "send result")
    has_id = data.get("message_id") is not None
    has_code = data.get("error_code") is not None
    if has_id == has_code:
        raise SmsResponseError(
            f"send result for {mobile!r}: expected exactly one of message_id and error_code"
        )
    if has_id:
        return SendResult(mobile=mobile, message_id=_int(data, "message_id", "send result"))
    return SendResult(mobile=mobile, error_code=_str(data, "error_code", "send result"))


def _list(data: Mapping[str, Any], key: str, where: str) -> list[Any]:
    return list(_field(data, key, list, where))


# --- the client ------------------------------------------------------------------------------


class SmsClient:
    """Calls the SMS provider at `base_url` ({sms_api_url}) with the raw access token.

    One method per endpoint. Arguments that the provider would silently misread (a filter
    with a typo, a value holding a separator, a datetime given as a day) are refused locally
    with ValueError/TypeError before any request is made.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        timeout: float | tuple[float, float] = DEFAULT_TIMEOUT,
        session: requests.Session | None = None,
    ) -> None:
        if not token:
            raise ValueError("the SMS access token is empty")
        self.base_url = base_url.rstrip("/")
        self._token = token
        self.timeout = timeout
        self.session = session if session is not None else requests.Session()

    def __repr__(self) -> str:
        # Never show the token: reprs end up in logs and error reports.
        return f"SmsClient({self.base_url!r})"

    # templates ---------------------------------------------------------------------------

    def create_template(
        self,
        *,
        title: str,
        content: str,
        temp_sign: str,
        sign_location: SignLocation,
        type: MessageType,
        report_type: ReportType,
    ) -> Template:
        """POST /api/templates; the new template comes back with status `review`.

        The body is not checked here: `sms.rules.check_template` is the place for that, and
        the provider answers a bad one with a typed error.
        """
        body = {
            "title": title,
            "content": content,
            "temp_sign": temp_sign,
            "sign_location": sign_location,
            "type": type,
            "report_type": report_type,
        }
        return parse_template(self._call("POST", "/api/templates", json=body))

    def edit_template(
        self,
        template_id: int,
        *,
        title: str | None = None,
        content: str | None = None,
        temp_sign: str | None = None,
        sign_location: SignLocation | None = None,
    ) -> Template:
        """PATCH /api/templates/{id} with only the fields given; the template goes to review."""
        changes = {
            "title": title,
            "content": content,
            "temp_sign": temp_sign,
            "sign_location": sign_location,
        }
        body = {key: value for key, value in changes.items() if value is not None}
        if not body:
            raise ValueError("edit_template needs at least one field to change")
        path = f"/api/templates/{_template_id(template_id)}"
        return parse_template(self._call("PATCH", path, json=body))

    def delete_template(self, template_id: int) -> None:
        """DELETE /api/templates/{id}; the provider answers 204 with no body."""
        self._call("DELETE", f"/api/templates/{_template_id(template_id)}", expect_body=False)

    def list_templates(
        self,
        *,
        status: TemplateStatus | None = None,
        type: MessageType | None = None,
        report_type: ReportType | None = None,
    ) -> list[Template]:
        """GET /api/templates, filtered by any of status, type and report_type."""
        params = {
            "status": _choice("status", status, TEMPLATE_STATUSES),
            "type": _choice("type", type, MESSAGE_TYPES),
            "report_type": _choice("report_type", report_type, REPORT_TYPES),
        }
        data = self._call("GET", "/api/templates", params=_present(params))
        return [parse_template(item) for item in _list(data, "templates", "template list")]

    # messages ----------------------------------------------------------------------------

    def send(
        self,
        template_id: int,
        mobiles: Sequence[str],
        values: Sequence[str] = (),
        *,
        form: bool = False,
    ) -> list[SendResult]:
        """POST /api/messages: one result per number, in the order the numbers were given.

        `values` fill `{$var1}`, `{$var2}`, ... in that order. `form=True` sends the body
        form-urlencoded instead of JSON (the provider accepts both). A rejected number does not
        raise: its result carries the error code. Refusals of the whole call (quota, template
        state, too many numbers) raise the matching SmsApiError.
        """
        body: dict[str, Any] = {
            "mobile": _join_mobiles(mobiles),
            "template_id": _template_id(template_id),
        }
        if values:
            body["vars"] = _join_values(values)
        if form:
            data = self._call("POST", "/api/messages", data=body)
        else:
            data = self._call("POST", "/api/messages", json=body)
        results = [parse_send_result(item) for item in _list(data, "message_ids", "send")]
        if len(results) != len(mobiles):
            # Results are matched to numbers by position, so a count mismatch leaves every
            # number's outcome unknown.
            raise SmsResponseError(
                f"send: {len(mobiles)} numbers submitted but {len(results)} results returned"
            )
        return results

    def report(
        self,
        *,
        date: date | None = None,
        mobile: str | None = None,
        status: str | None = None,
        page: int | None = None,
        per_page: int | None = None,
    ) -> Report:
        """GET /api/messages: one page of the delivery report, newest first.

        `date` is a day in Asia/Shanghai time. A datetime is refused because which day it
        falls on depends on its time zone, which the caller must decide. `status` is passed
        verbatim, since the provider's full list of statuses is not published.
        """
        params = {
            "date": _day(date),
            "mobile": mobile or None,
            "status": status or None,
            "page": _positive("page", page),
            "per_page": _positive("per_page", per_page, maximum=MAX_PER_PAGE),
        }
        data = self._call("GET", "/api/messages", params=_present(params))
        messages = tuple(parse_message(item) for item in _list(data, "messages", "report"))
        return Report(messages=messages, total=_int(data, "total", "report"))

    # transport ---------------------------------------------------------------------------

    def _call(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | int] | None = None,
        json: Mapping[str, Any] | None = None,
        data: Mapping[str, Any] | None = None,
        expect_body: bool = True,
    ) -> Mapping[str, Any]:
        """Make one request and return its JSON object, or raise the matching SmsError."""
        headers = {"Authorization": self._token, "Accept": "application/json"}
        try:
            response = self.session.request(
                method,
                self.base_url + path,
                params=params,
                json=json,
                data=data,
                headers=headers,
                timeout=self.timeout,
            )
        except requests.RequestException as error:
            # Connection refused, timeout, broken TLS...: the provider may have acted.
            raise SmsTransportError(f"{method} {path}: {type(error).__name__}: {error}") from error
        logger.debug("SMS %s %s -> %s", method, path, response.status_code)
        if not response.ok:
            raise _error_from(method, path, response)
        if not expect_body:
            return {}
        return _object(_json(method, path, response), f"{method} {path}")


def _json(method: str, path: str, response: requests.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        raise SmsResponseError(
            f"{method} {path}: the answer is not JSON", response.status_code
        ) from None


def _error_from(method: str, path: str, response: requests.Response) -> SmsError:
    """The typed error of a non-2xx answer.

    Only an answer carrying the provider's error body counts as the provider's word. Anything
    else (an HTML page from a proxy, an empty 502) may not come from the provider at all, so it
    is a transport error: outcome unknown.
    """
    try:
        body = response.json()
    except ValueError:
        body = None
    code = body.get("error_code") if isinstance(body, dict) else None
    if not isinstance(code, str) or not code:
        return SmsResponseError(
            f"{method} {path}: error answer without an error_code", response.status_code
        )
    message = body.get("message") if isinstance(body, dict) else None
    return api_error(code, response.status_code, message if isinstance(message, str) else "")


# --- argument checks -------------------------------------------------------------------------


def _template_id(template_id: int) -> int:
    if isinstance(template_id, bool) or not isinstance(template_id, int) or template_id < 1:
        raise ValueError(f"template_id must be a positive integer, not {template_id!r}")
    return template_id


def _join_mobiles(mobiles: Sequence[str]) -> str:
    if isinstance(mobiles, str):
        # A lone string would be sent digit by digit otherwise.
        raise TypeError("mobiles must be a sequence of numbers, not one string")
    if not mobiles:
        raise ValueError("at least one mobile number is needed")
    if len(mobiles) > MAX_NUMBERS_PER_SEND:
        raise ValueError(
            f"at most {MAX_NUMBERS_PER_SEND} numbers per send, not {len(mobiles)}; "
            "send them in chunks"
        )
    for mobile in mobiles:
        if not mobile or MOBILE_SEPARATOR in mobile:
            raise ValueError(f"not a single mobile number: {mobile!r}")
    return MOBILE_SEPARATOR.join(mobiles)


def _join_values(values: Sequence[str]) -> str:
    if isinstance(values, str):
        raise TypeError("values must be a sequence of strings, not one string")
    for position, value in enumerate(values, start=1):
        if VARS_SEPARATOR in value:
            # The provider splits on "|": the value would shift every later variable.
            raise ValueError(f"the value of var{position} contains '|', which cannot be sent")
    return VARS_SEPARATOR.join(values)


def _choice(name: str, value: str | None, choices: Sequence[str]) -> str | None:
    if value is not None and value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


def _day(value: date | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        raise TypeError("date must be a datetime.date (a day in Asia/Shanghai), not a datetime")
    if not isinstance(value, date):
        raise TypeError(f"date must be a datetime.date, not {type(value).__name__}")
    return value.isoformat()


def _positive(name: str, value: int | None, maximum: int | None = None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, not {value!r}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} may be at most {maximum}, not {value}")
    return value


def _present(params: Mapping[str, str | int | None]) -> dict[str, str | int]:
    """The query parameters that were given; absent ones are left to the provider's defaults."""
    return {key: value for key, value in params.items() if value is not None}
