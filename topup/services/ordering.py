"""Placing an order and sending it: the custno is stored first, chargeOrder is sent at most once
per claim, and an answer that says nothing certain leads to a query, never to a resend."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.operations.queue import enqueue
from backoffice.security.audit import audited
from backoffice.ui.mobile_words import NOT_A_MOBILE
from providerkit.mobiles import MobileRefused, national_mobile
from topup import texts
from topup.client import ChargeResult
from topup.conf import knob
from topup.models import BulkBatch, EventKind, Order, OrderSource, OrderState, Product
from topup.rules import (
    ChargeOutcome,
    InvalidInput,
    detect_carrier,
    new_custno,
    parse_prodstandard,
    parse_prodtime,
)
from topup.services.connection import build_client
from topup.services.shared_token import TokenUnavailable
from topup.services.statemachine import log, move

logger = logging.getLogger(__name__)

S = OrderState
# chargeOrder codes after which an earlier attempt may still have created the order (512:
# custno already used, e.g. by our own request whose answer was lost).
CHARGE_CODES_TO_QUERY = frozenset({"512"})


class OrderInputError(ValueError):
    """A request that cannot become an order; `field` names the culprit, `message` is for staff.

    `template` and `params`, when given, are the untranslated message id and its values, so
    that a problem kept for later (a bulk batch's) reads in each reader's language.
    """

    def __init__(self, field: str, message: str, template: str = "",
                 params: dict[str, str] | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.template = template
        self.params = params or {}


def _refusal(field: str, template: str, **params: str) -> OrderInputError:
    """An OrderInputError from a message id of `topup.texts`, translated now."""
    return OrderInputError(field, texts.problem_text(template, params), template, params)


@dataclass(frozen=True)
class OrderRequest:
    mobile: str
    product_code: str
    prodtime: int | None = None
    prodstandard: int | None = None
    allow_other_carrier: bool = False

    def fingerprint(self) -> str:
        """Stable digest of what was asked, to tell a repeated request from a different one."""
        canonical = json.dumps(
            [self.mobile, self.product_code, self.prodtime, self.prodstandard,
             self.allow_other_carrier],
            separators=(",", ":"),
        )
        return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class CheckedRequest:
    mobile: str
    carrier: str
    product: Product
    prodtime: int
    prodstandard: int


def check_mobile(raw: str) -> tuple[str, str]:
    """(11-digit number, carrier code or "") for a number as staff typed it."""
    try:
        mobile = national_mobile(raw)
    except MobileRefused as refused:
        raise _refusal("mobile", NOT_A_MOBILE, value=raw, reason=refused.reason) from None
    carrier = detect_carrier(mobile)
    return mobile, carrier.value if carrier else ""


def check_request(
    request: OrderRequest, products: dict[str, Product] | None = None
) -> CheckedRequest:
    """Validate an order request against the rules and our product list.

    `products` (code -> Product) saves a query per row when a whole CSV is checked.
    """
    mobile, carrier = check_mobile(request.mobile)
    code = (request.product_code or "").strip()
    if not code:
        raise _refusal("product", texts.NO_PRODUCT)
    product = (products or {}).get(code) if products is not None else (
        Product.objects.filter(code=code).first())
    if product is None:
        raise _refusal("product", texts.UNKNOWN_PRODUCT, code=code)
    if not product.active:
        raise _refusal("product", texts.NOT_ON_SALE, code=code)
    if carrier and product.carrier != carrier and not request.allow_other_carrier:
        raise _refusal(
            "product", texts.OTHER_CARRIER,
            code=code, product_carrier=product.carrier, mobile=mobile, carrier=carrier,
        )
    try:
        prodtime = int(parse_prodtime(1 if request.prodtime is None else request.prodtime))
    except InvalidInput:
        raise _refusal("prodtime", texts.BAD_PRODTIME) from None
    try:
        prodstandard = int(
            parse_prodstandard(7 if request.prodstandard is None else request.prodstandard))
    except InvalidInput:
        raise _refusal("prodstandard", texts.BAD_PRODSTANDARD) from None
    return CheckedRequest(mobile, carrier or product.carrier, product, prodtime, prodstandard)


@audited("topup", "order.place", lambda request, *, requested_by, idempotency_key: (
    None, f"API order: {request.product_code} to {request.mobile}", requested_by),
    result_target=lambda placed: placed[0])
def place_api_order(
    request: OrderRequest, *, requested_by: StaffUser | None, idempotency_key: str
) -> tuple[Order, bool]:
    """An order for the merchant API: (order, True) when placed now, (order, False) when the
    same user already placed the same request under the same idempotency key.

    Raises IdempotencyConflict when the key was used for a different request.
    """
    return _place(request, requested_by=requested_by, source=OrderSource.API,
                  idempotency_key=idempotency_key)


# One record per order placed by a person; a bulk run's orders are covered by the record of
# its confirmation (topup.services.bulk.confirm_batch).
@audited("topup", "order.place", lambda request, *, requested_by, source, batch=None, **_: None
         if batch is not None else (None, f"{source} order: {request.product_code} to "
                                          f"{request.mobile}", requested_by),
         result_target=lambda order: order)
def place_order(
    request: OrderRequest,
    *,
    requested_by: StaffUser | None,
    source: OrderSource,
    batch: BulkBatch | None = None,
    batch_line: int | None = None,
    products: dict[str, Product] | None = None,
) -> Order:
    """Store a new order with its custno, then (after commit) queue its chargeOrder."""
    order, _placed = _place(request, requested_by=requested_by, source=source, batch=batch,
                            batch_line=batch_line, products=products)
    return order


def _place(
    request: OrderRequest,
    *,
    requested_by: StaffUser | None,
    source: OrderSource,
    idempotency_key: str | None = None,
    batch: BulkBatch | None = None,
    batch_line: int | None = None,
    products: dict[str, Product] | None = None,
) -> tuple[Order, bool]:
    fingerprint = request.fingerprint() if idempotency_key else ""
    if idempotency_key:
        # Before any check: a repeat must return the order even if, say, the product has
        # gone off sale since.
        existing = _order_for_key(requested_by, idempotency_key, fingerprint)
        if existing is not None:
            return existing, False
    checked = check_request(request, products)
    for _attempt in range(3):
        try:
            with transaction.atomic():
                order = Order.objects.create(
                    custno=new_custno(),
                    mobile=checked.mobile,
                    carrier=checked.carrier,
                    product=checked.product,
                    prodcode=checked.product.code,
                    price=checked.product.price,
                    prodtime=checked.prodtime,
                    prodstandard=checked.prodstandard,
                    source=source,
                    requested_by=requested_by,
                    batch=batch,
                    batch_line=batch_line,
                    idempotency_key=idempotency_key or "",
                    request_fingerprint=fingerprint,
                )
                log(order.pk, EventKind.CREATED, gettext_noop("Order placed."), actor=requested_by)
                enqueue_submission(order.pk)
            return order, True
        except IntegrityError:
            # Either the same idempotency key won a race, or (astronomically rarely) the custno
            # collided; the first case returns the winner, the second tries a new custno.
            if idempotency_key:
                existing = _order_for_key(requested_by, idempotency_key, fingerprint)
                if existing is not None:
                    return existing, False
    raise RuntimeError("could not store the order after 3 attempts")


class IdempotencyConflict(Exception):
    """The idempotency key was used before for a different request."""

    def __init__(self, order: Order) -> None:
        super().__init__(f"idempotency key already used for order {order.custno}")
        self.order = order


def _order_for_key(user: StaffUser | None, key: str, fingerprint: str) -> Order | None:
    existing = Order.objects.filter(requested_by=user, idempotency_key=key).first()
    if existing is not None and existing.request_fingerprint != fingerprint:
        raise IdempotencyConflict(existing)
    return existing


def enqueue_submission(order_id: int) -> None:
    """Queue the chargeOrder once the order row is committed (never before it exists)."""
    enqueue("topup.tasks.submit_order_task", order_id)


def submit_order(order_id: int) -> str:
    """Send chargeOrder for a `created` order (or a confirmed-lost one); return its new state.

    The claim `created -> submitted` is a conditional update, so two workers handed the same
    order send one request; an order already claimed is left to the queries.
    """
    previous = move(
        order_id, S.SUBMITTED, sources=frozenset({S.CREATED}),
        message=gettext_noop("chargeOrder about to be sent."),
        submitted_at=timezone.now(), charge_attempts=F("charge_attempts") + 1,
        next_check_at=_stale_at(),
    )
    if previous is None:
        return Order.objects.values_list("state", flat=True).get(pk=order_id)
    return _charge(order_id)


def resubmit_lost_order(order_id: int, reason: str) -> str:
    """Send chargeOrder again with the same custno for an order the provider confirmed it never
    received. Same custno: if an earlier request did arrive after all, the provider answers 512
    instead of charging twice."""
    previous = move(
        order_id, S.SUBMITTED, sources=frozenset({S.UNKNOWN}), message=reason,
        submitted_at=timezone.now(), charge_attempts=F("charge_attempts") + 1,
        not_found_count=0, next_check_at=_stale_at(),
    )
    if previous is None:
        return Order.objects.values_list("state", flat=True).get(pk=order_id)
    return _charge(order_id)


def _stale_at() -> datetime:
    # If the worker dies mid-call, the beat job queries the order from this moment on.
    return timezone.now() + timedelta(seconds=knob("TOPUP_STALE_SUBMISSION_S"))


def _charge(order_id: int) -> str:
    order = Order.objects.get(pk=order_id)
    try:
        result = build_client().charge_order(
            order.custno, order.mobile, order.prodcode,
            prodtime=order.prodtime, prodstandard=order.prodstandard,
        )
    except InvalidInput as error:
        # Refused by a rule before anything was sent.
        move(order_id, S.FAILED, sources=frozenset({S.SUBMITTED}),
             message=gettext_noop("Not sent: %(problem)s"), params={"problem": str(error)})
        return S.FAILED
    except (TokenUnavailable, ProviderNotConfigured) as error:
        # Nothing was sent (the client's contract for token errors): release the claim so the
        # order is sent later, instead of guessing at its outcome.
        move(order_id, S.CREATED, sources=frozenset({S.SUBMITTED}),
             message=gettext_noop("Not sent, will retry: %(problem)s"),
             params={"problem": str(error)},
             charge_attempts=F("charge_attempts") - 1, submitted_at=None)
        raise
    except Exception as error:
        # Anything else may have happened after the request left: only a query can tell.
        logger.exception("chargeOrder %s failed unexpectedly", order.custno)
        _uncertain(order_id, None, gettext_noop("Unexpected error, will query: %(problem)s"),
                   params={"problem": str(error)})
        return S.UNKNOWN
    return record_charge_result(order_id, result)


def record_charge_result(order_id: int, result: ChargeResult) -> str:
    """Apply a chargeOrder answer to an order we claimed (`submitted`)."""
    now = timezone.now()
    code = result.code or ""
    message, params = _charge_message(result)
    log(order_id, EventKind.CHARGE, message, params=params, code=code, info=result.info)
    common: dict[str, Any] = {"last_code": code, "last_info": result.info[:300]}
    # Recorded whatever the state: a callback may have moved the order in between, and the
    # queries need to know what chargeOrder said.
    Order.objects.filter(pk=order_id).update(charge_code=code)
    if result.orderno:
        Order.objects.filter(pk=order_id, orderno="").update(orderno=result.orderno)
    if result.outcome is ChargeOutcome.CREATED:
        first = now + timedelta(seconds=knob("TOPUP_FIRST_CHECK_S"))
        if move(order_id, S.PENDING, sources=frozenset({S.SUBMITTED}), code=code,
                info=result.info, message=gettext_noop("The provider created the order."),
                next_check_at=first, check_attempts=0, **common):
            return S.PENDING
    elif result.outcome is ChargeOutcome.MUST_QUERY or code in CHARGE_CODES_TO_QUERY:
        _uncertain(order_id, code, gettext_noop("The answer does not settle the order: querying."),
                   info=result.info, **common)
    else:
        move(order_id, S.FAILED, sources=frozenset({S.SUBMITTED}), code=code, info=result.info,
             message=gettext_noop("The provider refused the order."), **common)
    return Order.objects.values_list("state", flat=True).get(pk=order_id)


def _uncertain(order_id: int, code: str | None, message: str, info: str = "",
               params: dict[str, Any] | None = None, **fields: Any) -> None:
    soon = timezone.now() + timedelta(seconds=knob("TOPUP_UNCERTAIN_FIRST_CHECK_S"))
    move(order_id, S.UNKNOWN, sources=frozenset({S.SUBMITTED}), code=code or "", info=info,
         message=message, params=params, next_check_at=soon, check_attempts=0, **fields)


def _charge_message(result: ChargeResult) -> tuple[str, dict[str, str]]:
    if result.code is None:
        return gettext_noop("chargeOrder got no usable answer: %(problem)s"), {
            "problem": result.problem or ""}
    if result.problem:
        return gettext_noop("chargeOrder answered code %(code)s abnormally: %(problem)s"), {
            "code": result.code, "problem": result.problem}
    return gettext_noop("chargeOrder answered code %(code)s."), {"code": result.code}

