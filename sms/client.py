"""The SMS provider's HTTP protocol: requests, answer parsing and typed errors.

Sources: spec/sms-and-topup.md part A and spec/DECISIONS.md section "SMS". No Django here: the
services layer hands in the observers of every call (`providerkit.observing`, for metrics and
provider contact) and decides what to store. The errors are in `sms.errors`.

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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from http import HTTPStatus
from typing import Literal

import requests

from providerkit import json_readers as read
from providerkit.failures import NoAnswer, ShapeError, UnusableAnswer
from providerkit.json_types import JSONObject, JSONValue
from providerkit.observing import CallObserver
from providerkit.retry_after import retry_after_seconds
from providerkit.timeouts import DEFAULT_TIMEOUT, Timeout
from providerkit.transport import Transport, json_object_answer
from sms.errors import (
    RateLimitedError,
    SmsError,
    SmsResponseError,
    SmsTransportError,
    api_error,
)

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
__all__ = ["DEFAULT_TIMEOUT", "Message", "Owner", "Report", "SendResult", "SmsClient", "Template"]


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
# The provider's answers are checked field by field (`providerkit.json_readers`): a wrong shape
# raises ShapeError naming the field, which `_answer_shape` turns into SmsResponseError.


@contextmanager
def _answer_shape() -> Iterator[None]:
    """Inside it, the kit's ShapeError becomes this client's SmsResponseError."""
    try:
        yield
    except ShapeError as failure:
        raise SmsResponseError(failure.detail) from None


def parse_owner(value: JSONValue) -> Owner | None:
    """The `owner` object; None when the provider leaves it out or sends null."""
    if value is None:
        return None
    data = read.as_object(value, "owner")
    return Owner(
        id=read.read_int(data, "id", "owner"),
        name=read.read_str(data, "name", "owner"),
        general=read.read_int(data, "general", "owner"),
        vip=read.read_int(data, "vip", "owner"),
        industry=read.read_int(data, "industry", "owner"),
        marketing=read.read_int(data, "marketing", "owner"),
    )


def parse_template(value: JSONValue) -> Template:
    data = read.as_object(value, "template")
    return Template(
        id=read.read_int(data, "id", "template"),
        title=read.read_str(data, "title", "template"),
        temp_sign=read.read_str(data, "temp_sign", "template"),
        content=read.read_str(data, "content", "template"),
        sign_location=read.read_str(data, "sign_location", "template"),
        type=read.read_str(data, "type", "template"),
        report_type=read.read_str(data, "report_type", "template"),
        status=read.read_str(data, "status", "template"),
        updated_at=read.read_timestamp(data, "updated_at", "template"),
        owner=parse_owner(data.get("owner")),
    )


def parse_message(value: JSONValue) -> Message:
    data = read.as_object(value, "message")
    return Message(
        id=read.read_int(data, "id", "message"),
        template_id=read.read_int(data, "template_id", "message"),
        report_type=read.read_str(data, "report_type", "message"),
        title=read.read_str(data, "title", "message"),
        type=read.read_str(data, "type", "message"),
        content=read.read_str(data, "content", "message"),
        temp_sign=read.read_str(data, "temp_sign", "message"),
        mobile=read.read_str(data, "mobile", "message"),
        sent_at=read.optional_timestamp(data, "sent_at", "message"),
        created_at=read.read_timestamp(data, "created_at", "message"),
        status=read.read_str(data, "status", "message"),
        quantity=read.read_int(data, "quantity", "message"),
        owner=parse_owner(data.get("owner")),
    )


def parse_send_result(value: JSONValue) -> SendResult:
    where = "send result"
    data = read.as_object(value, where)
    mobile = read.read_str(data, "mobile", where)
    has_id = data.get("message_id") is not None
    has_code = data.get("error_code") is not None
    if has_id == has_code:
        raise ShapeError(
            f"send result for {mobile!r}: expected exactly one of message_id and error_code"
        )
    if has_id:
        return SendResult(mobile=mobile, message_id=read.read_int(data, "message_id", where))
    return SendResult(mobile=mobile, error_code=read.read_str(data, "error_code", where))


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
        timeout: Timeout = DEFAULT_TIMEOUT,
        session: requests.Session | None = None,
        observers: Sequence[CallObserver] = (),
    ) -> None:
        if not token:
            raise ValueError("the SMS access token is empty")
        self.base_url = base_url.rstrip("/")
        self._token = token
        self.timeout = timeout
        self._transport = Transport(
            "sms", self.base_url, session=session, timeout=timeout, observers=observers
        )

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
        answer = self._call("POST", "/api/templates", json=body)
        with _answer_shape():
            return parse_template(answer)

    def edit_template(
        self,
        template_id: int,
        *,
        title: str | None = None,
        content: str | None = None,
        temp_sign: str | None = None,
        sign_location: SignLocation | None = None,
    ) -> Template:
        """PATCH /api/templates/{id} with only the fields given; the template goes to review.
        With no field at all the body is `{}`: the provider resubmits the template unchanged,
        which is how a rejected (`defeat`) template goes back to review."""
        changes = {
            "title": title,
            "content": content,
            "temp_sign": temp_sign,
            "sign_location": sign_location,
        }
        body = {key: value for key, value in changes.items() if value is not None}
        path = f"/api/templates/{_template_id(template_id)}"
        answer = self._call("PATCH", path, json=body)
        with _answer_shape():
            return parse_template(answer)

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
        with _answer_shape():
            templates = read.read_list(data, "templates", "template list")
            return [parse_template(item) for item in templates]

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
        body: dict[str, str | int] = {
            "mobile": _join_mobiles(mobiles),
            "template_id": _template_id(template_id),
        }
        if values:
            body["vars"] = _join_values(values)
        if form:
            data = self._call("POST", "/api/messages", data=body)
        else:
            data = self._call("POST", "/api/messages", json=body)
        with _answer_shape():
            items = read.read_list(data, "message_ids", "send")
            results = [parse_send_result(item) for item in items]
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
        with _answer_shape():
            items = read.read_list(data, "messages", "report")
            messages = tuple(parse_message(item) for item in items)
            return Report(messages=messages, total=read.read_int(data, "total", "report"))

    # transport ---------------------------------------------------------------------------

    def _call(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | int] | None = None,
        json: Mapping[str, str | int] | None = None,
        data: Mapping[str, str | int] | None = None,
        expect_body: bool = True,
    ) -> JSONObject:
        """Make one request and return its JSON object, or raise the matching SmsError."""
        headers = {"Authorization": self._token, "Accept": "application/json"}
        try:
            response = self._transport.request(
                method, path, params=params, json=None if json is None else dict(json),
                data=data, headers=headers,
            )
        except NoAnswer as failure:
            # Connection refused, timeout, broken TLS...: the provider may have acted.
            raise SmsTransportError(failure.detail) from failure.__cause__
        logger.debug("SMS %s %s -> %s", method, path, response.status_code)
        if not response.ok:
            raise _error_from(method, path, response)
        if not expect_body:
            return {}
        try:
            return json_object_answer(response, f"{method} {path}")
        except UnusableAnswer as failure:
            raise SmsResponseError(failure.detail, failure.status) from None


def _error_from(method: str, path: str, response: requests.Response) -> SmsError:
    """The typed error of a non-2xx answer.

    Only an answer carrying the provider's error body counts as the provider's word. Anything
    else (an HTML page from a proxy, an empty 502) may not come from the provider at all, so it
    is a transport error: outcome unknown.
    """
    try:
        body = json_object_answer(response, f"{method} {path}")
    except UnusableAnswer:
        body = {}
    if response.status_code == HTTPStatus.TOO_MANY_REQUESTS:
        # Whoever answered it (the provider or a proxy), the call was not taken.
        text = body.get("message")
        return RateLimitedError(str(body.get("error_code") or RateLimitedError.code), 429,
                                text if isinstance(text, str) else "",
                                retry_after_seconds(response.headers.get("Retry-After")))
    code = body.get("error_code")
    if not isinstance(code, str) or not code:
        return SmsResponseError(
            f"{method} {path}: error answer without an error_code", response.status_code
        )
    message = body.get("message")
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
