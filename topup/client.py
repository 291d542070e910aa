"""HTTP client of the top-up service: refreshToken, chargeOrder, seekOrder, getMyBalance.

Protocol per sms-and-topup.md part B and DECISIONS "Top-up": POST, JSON both ways, `code` always
a string. The client holds no token itself: a `TokenProvider` hands it out, so the Django layer
can share one token between processes under a lock (a new token kills the old one at once, so
two processes refreshing independently would keep invalidating each other).

Safety of chargeOrder, the one call that moves money: it is sent at most twice, and the second
time only after the provider answered a token/sign error, which means the first request created
nothing. A timeout, a broken connection or an unreadable answer never leads to a resend; it comes
back as `ChargeOutcome.MUST_QUERY` with the custno, and seekOrder decides.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Protocol

import requests

from providerkit import json_readers as read
from providerkit.failures import NoAnswer, ShapeError, UnusableAnswer
from providerkit.json_types import JSONObject
from providerkit.observing import CallObserver
from providerkit.timeouts import DEFAULT_TIMEOUT, Timeout
from providerkit.transport import Transport, json_answer
from topup.rules import (
    SUCCESS_CODE,
    ChargeOutcome,
    OrderOutcome,
    Remedy,
    classify_charge_code,
    classify_seek_code,
    format_requesttime,
    normalize_mobile,
    parse_prodstandard,
    parse_prodtime,
    remedy_for,
    validate_custno,
    validate_prodcode,
)
from topup.signing import (
    balance_sign,
    charge_order_sign,
    encrypt_mobile,
    seek_order_sign,
)

logger = logging.getLogger(__name__)


# providerkit's (connect, read) default: reading may take long, chargeOrder waits on the carrier.
__all__ = ["DEFAULT_TIMEOUT", "Timeout", "TopupClient"]

REFRESH_TOKEN_PATH = "/refreshToken"
CHARGE_ORDER_PATH = "/chargeOrder"
SEEK_ORDER_PATH = "/seekOrder"
GET_MY_BALANCE_PATH = "/getMyBalance"

_CENT = Decimal("0.01")
_KEY_BYTES = 16  # appkeys and tokens are 16 characters; they are the AES IV and key


# --- errors ---------------------------------------------------------------------------------------


class TopupError(Exception):
    """Base of every error this client raises about the provider."""


class TopupTransportError(TopupError):
    """No usable answer: timeout, connection failure, or a body that is not JSON."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


class TopupProtocolError(TopupTransportError):
    """An answer arrived but breaks the protocol (missing field, wrong type, wrong echo)."""


class TopupRejected(TopupError):
    """The provider answered a non-success `code` where no result can be built from it."""

    def __init__(self, path: str, code: str, info: str) -> None:
        super().__init__(f"{path}: provider answered code {code}: {info}")
        self.path = path
        self.code = code
        self.info = info


# --- token supply ---------------------------------------------------------------------------------


class TokenProvider(Protocol):
    """Where the client gets the signing token; shared across processes by the Django layer."""

    def current(self) -> str:
        """The token to sign with now, obtaining one first if none is held."""
        ...

    def refresh(self, rejected: str) -> str:
        """A token other than `rejected`, which the provider refused.

        Refresh only if `rejected` is still the token held: another process may have refreshed
        meanwhile, and refreshing again would invalidate the token it just got.
        """
        ...


class LocalTokenProvider:
    """A TokenProvider for one process (scripts, end-to-end tests against the sandbox).

    `fetch` obtains a brand-new token, typically `lambda: client.refresh_token()`.
    """

    def __init__(self, fetch: Callable[[], str]) -> None:
        self._fetch = fetch
        self._token: str | None = None
        self._lock = threading.Lock()

    def current(self) -> str:
        with self._lock:
            if self._token is None:
                self._token = self._fetch()
            return self._token

    def refresh(self, rejected: str) -> str:
        with self._lock:
            if self._token is None or self._token == rejected:
                self._token = self._fetch()
            return self._token


# --- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChargeResult:
    """The answer to chargeOrder. `custno` is always the one we sent, whatever happened."""

    outcome: ChargeOutcome
    custno: str
    code: str | None  # None when no readable answer arrived
    info: str
    orderno: str | None
    problem: str | None = None  # why the answer was unusable, when outcome is MUST_QUERY for it

    @property
    def remedy(self) -> Remedy:
        return Remedy.NONE if self.code is None else remedy_for(self.code)


@dataclass(frozen=True)
class SeekResult:
    """The answer to seekOrder: the order's outcome as read from `code`."""

    outcome: OrderOutcome
    custno: str
    code: str
    info: str

    @property
    def remedy(self) -> Remedy:
        """Not NONE when `code` is about the request (510, token errors), not about the order."""
        return remedy_for(self.code)


@dataclass(frozen=True)
class BalanceResult:
    """The answer to getMyBalance, in yuan. `balance` includes `freeze`."""

    balance: Decimal
    freeze: Decimal
    avail_balance: Decimal  # balance - freeze; checked against the provider's availBalance


# --- client ---------------------------------------------------------------------------------------


class TopupClient:
    """Calls the top-up service at `base_url` (the `traffic_url`) for one merchant account."""

    def __init__(
        self,
        base_url: str,
        appkey: str,
        appsecret: str,
        token_provider: TokenProvider,
        timeout: Timeout = DEFAULT_TIMEOUT,
        session: requests.Session | None = None,
        observers: Sequence[CallObserver] = (),
    ) -> None:
        if not isinstance(appkey, str) or len(appkey.encode("utf-8")) != _KEY_BYTES:
            # The appkey is the AES IV: a wrong length would only show up as 533 on every order.
            raise ValueError(f"appkey must be {_KEY_BYTES} bytes in UTF-8")
        if not isinstance(appsecret, str) or not appsecret:
            raise ValueError("appsecret must be a non-empty string")
        self._base_url = base_url.rstrip("/")
        self._appkey = appkey
        self._appsecret = appsecret
        self._tokens = token_provider
        # A caller's session must not carry POST retries of its own.
        self._transport = Transport(
            "topup", base_url, session=session, timeout=timeout, observers=observers
        )

    # -- public calls --

    def refresh_token(self) -> str:
        """Obtain a new token; the previous one stops working at once.

        Meant to be called by a TokenProvider, which knows when a refresh is due.
        """
        answer = self._post(
            REFRESH_TOKEN_PATH, {"appkey": self._appkey, "appsecret": self._appsecret}
        )
        code, info = _code(answer), _optional_str(answer, "info", REFRESH_TOKEN_PATH)
        if code != SUCCESS_CODE:
            raise TopupRejected(REFRESH_TOKEN_PATH, code, info)
        token = answer.get("token")
        if not isinstance(token, str) or len(token.encode("utf-8")) != _KEY_BYTES:
            raise TopupProtocolError(REFRESH_TOKEN_PATH, f"token is not a {_KEY_BYTES}-byte string")
        return token

    def charge_order(
        self,
        custno: str,
        mobile: str,
        prodcode: str,
        prodtime: int | None = None,
        prodstandard: int | None = None,
    ) -> ChargeResult:
        """Create a top-up order for `custno`, which the caller has already stored.

        Bad arguments raise `InvalidInput` before anything is sent. After that, every provider
        or network problem is a ChargeResult; only the TokenProvider's own errors propagate,
        and those happen before a request or right after one that created nothing.
        """
        custno = validate_custno(custno)
        number = normalize_mobile(mobile)
        prodcode = validate_prodcode(prodcode)
        # Optional fields: sent only when given, so the provider's defaults apply otherwise.
        extras: dict[str, int] = {}
        if prodtime is not None:
            extras["prodtime"] = int(parse_prodtime(prodtime))
        if prodstandard is not None:
            extras["prodstandard"] = int(parse_prodstandard(prodstandard))

        def build(token: str) -> JSONObject:
            # The AES key is the token, so the number is encrypted anew for each token.
            encrypted = encrypt_mobile(number, token=token, appkey=self._appkey)
            sign = charge_order_sign(
                appkey=self._appkey,
                custno=custno,
                mobile=encrypted,
                prodcode=prodcode,
                token=token,
            )
            return {
                "appkey": self._appkey,
                "custno": custno,
                "mobile": encrypted,
                "prodcode": prodcode,
                **extras,
                "sign": sign,
            }

        try:
            answer = self._signed_post(CHARGE_ORDER_PATH, build)
        except TopupTransportError as error:
            logger.warning("chargeOrder %s: no usable answer, must query: %s", custno, error)
            return _must_query(custno, str(error))
        try:
            return _charge_result(custno, answer)
        except TopupProtocolError as error:
            logger.warning("chargeOrder %s: abnormal answer, must query: %s", custno, error)
            return _must_query(custno, str(error), code=_code(answer))

    def seek_order(self, custno: str, requesttime: datetime | None = None) -> SeekResult:
        """Ask for the outcome of `custno`.

        Without `requesttime` the provider searches the last week; with it, one hour either side
        (an aware datetime; it is sent in Asia/Shanghai time).
        """
        custno = validate_custno(custno)
        sent_time = format_requesttime(requesttime) if requesttime is not None else None

        def build(token: str) -> JSONObject:
            payload: JSONObject = {"appkey": self._appkey, "custno": custno}
            if sent_time is not None:
                payload["requesttime"] = sent_time
            payload["sign"] = seek_order_sign(
                appkey=self._appkey, custno=custno, requesttime=sent_time, token=token
            )
            return payload

        answer = self._signed_post(SEEK_ORDER_PATH, build)
        code = _code(answer)
        info = _optional_str(answer, "info", SEEK_ORDER_PATH)
        echoed = _optional_str(answer, "custno", SEEK_ORDER_PATH)
        if echoed and echoed != custno:
            raise TopupProtocolError(SEEK_ORDER_PATH, f"asked for {custno!r}, answer is {echoed!r}")
        return SeekResult(outcome=classify_seek_code(code), custno=custno, code=code, info=info)

    def get_my_balance(self) -> BalanceResult:
        """The account balance; a non-200 code raises TopupRejected."""

        def build(token: str) -> JSONObject:
            return {"appkey": self._appkey, "sign": balance_sign(appkey=self._appkey, token=token)}

        answer = self._signed_post(GET_MY_BALANCE_PATH, build)
        if _code(answer) != SUCCESS_CODE:
            info = _optional_str(answer, "info", GET_MY_BALANCE_PATH)
            raise TopupRejected(GET_MY_BALANCE_PATH, _code(answer), info)
        balance = _amount(answer, "balance")
        freeze = _amount(answer, "freeze")
        reported = _amount(answer, "availBalance")
        if reported != balance - freeze:
            # DECISIONS defines availBalance = balance - freeze; a mismatch means we misread
            # the fields, and a wrong available balance shown to staff is worse than an error.
            raise TopupProtocolError(
                GET_MY_BALANCE_PATH,
                f"availBalance {reported} is not balance {balance} - freeze {freeze}",
            )
        return BalanceResult(balance=balance, freeze=freeze, avail_balance=reported)

    # -- plumbing --

    def _signed_post(self, path: str, build: Callable[[str], JSONObject]) -> JSONObject:
        """POST a signed request; on a token/sign refusal, refresh once and send once more.

        Resending is safe for every path, chargeOrder included: a refused sign means the
        provider did nothing with the request.
        """
        token = self._tokens.current()
        answer = self._post(path, build(token))
        if remedy_for(_code(answer)) is Remedy.REFRESH_TOKEN:
            logger.info("%s: code %s, refreshing the token and retrying once", path, _code(answer))
            answer = self._post(path, build(self._tokens.refresh(token)))
        return answer

    def _post(self, path: str, payload: JSONObject) -> JSONObject:
        """POST JSON, return the answer object; it is guaranteed to have a string `code`.

        The HTTP status is not consulted when the body carries a code: the protocol speaks
        through `code`, and a status alone (a proxy's 502 page) is treated as no answer.
        """
        try:
            response = self._transport.request("POST", path, json=payload)
        except NoAnswer as failure:
            error = failure.__cause__
            name = "timed out" if failure.timed_out else type(error).__name__
            reason = f"{name}: {error}"
            raise TopupTransportError(path, reason) from error
        try:
            # parse_float=Decimal: amounts are yuan; binary floats would misstate cents.
            value = json_answer(response, path, parse_float=Decimal)
        except UnusableAnswer:
            raise TopupTransportError(
                path, f"answer is not JSON (HTTP {response.status_code})"
            ) from None
        with _protocol(path):
            answer = read.as_object(value, "answer")
        if not isinstance(answer.get("code"), str):
            raise TopupProtocolError(
                path, f"answer has no string code (HTTP {response.status_code})"
            )
        return answer


# --- answer reading -----------------------------------------------------------------------------


@contextmanager
def _protocol(path: str) -> Iterator[None]:
    """Inside it, the kit's ShapeError becomes this client's TopupProtocolError."""
    try:
        yield
    except ShapeError as failure:
        raise TopupProtocolError(path, failure.detail) from None


def _code(answer: JSONObject) -> str:
    """The answer's `code`, which `TopupClient._post` checked is a string."""
    return str(answer["code"])


def _optional_str(answer: JSONObject, name: str, path: str) -> str:
    """A string field that may be absent or null (read as ""), but never of another type."""
    with _protocol(path):
        return read.optional_str(answer, name, "answer") or ""


def _charge_result(custno: str, answer: JSONObject) -> ChargeResult:
    code = _code(answer)
    info = _optional_str(answer, "info", CHARGE_ORDER_PATH)
    echoed = _optional_str(answer, "custno", CHARGE_ORDER_PATH)
    orderno = _optional_str(answer, "orderno", CHARGE_ORDER_PATH)
    if echoed and echoed != custno:
        # An answer about another order says nothing about ours.
        raise TopupProtocolError(CHARGE_ORDER_PATH, f"sent {custno!r}, echo is {echoed!r}")
    outcome = classify_charge_code(code)
    if outcome is ChargeOutcome.CREATED and not orderno:
        raise TopupProtocolError(CHARGE_ORDER_PATH, "code 200 without an orderno")
    return ChargeResult(
        outcome=outcome, custno=custno, code=code, info=info, orderno=orderno or None
    )


def _must_query(custno: str, problem: str, code: str | None = None) -> ChargeResult:
    return ChargeResult(
        outcome=ChargeOutcome.MUST_QUERY,
        custno=custno,
        code=code,
        info="",
        orderno=None,
        problem=problem,
    )


def _amount(answer: JSONObject, name: str) -> Decimal:
    """A yuan amount rounded to the cent; the provider's floats may carry binary noise."""
    value = answer.get(name)
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise TopupProtocolError(GET_MY_BALANCE_PATH, f"{name} is not a number: {value!r}")
    try:
        return Decimal(value).quantize(_CENT, rounding=ROUND_HALF_UP)
    except InvalidOperation:
        # JSON allows 1e999999, which no amount of yuan needs and quantize cannot hold.
        raise TopupProtocolError(GET_MY_BALANCE_PATH, f"{name} is out of range") from None
