"""chargeOrder: check the order, freeze its price and create it with its planned outcome."""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import dataclass

from django.db import transaction

from sandbox.topup import carriers, codes, config, shanghai_time, wallet
from sandbox.topup.cipher import CipherError, decrypt_mobile
from sandbox.topup.models import Order, Rule
from sandbox.topup.money import yuan_text
from sandbox.topup.products import PRODUCTS, Product
from sandbox.topup.protocol import Body, TopupError, optional_flag, required_text
from sandbox.topup.signing import Pairs

CUSTNO_MAX = 29  # DECISIONS: 1 to 29 characters; 30 or more is 532
CUSTNO_CHARACTERS = re.compile(r"[A-Za-z0-9_-]+")
PRODTIME_VALUES = (1, 0)  # 1 all-time data (default), 0 off-peak
PRODSTANDARD_VALUES = (7, 3, 1)  # 7 all networks (default), 3 2g+3g, 1 2g


@dataclass(frozen=True)
class ChargeRequest:
    appkey: str
    mobile: str  # as sent: encrypted, base64
    prodcode: str
    custno: str
    sign: str
    prodtime: int
    prodstandard: int

    @classmethod
    def read(cls, body: Body) -> ChargeRequest:
        return cls(
            appkey=required_text(body, "appkey"), mobile=required_text(body, "mobile"),
            prodcode=required_text(body, "prodcode"), custno=required_text(body, "custno"),
            sign=required_text(body, "sign"),
            prodtime=optional_flag(body, "prodtime", PRODTIME_VALUES, 1),
            prodstandard=optional_flag(body, "prodstandard", PRODSTANDARD_VALUES, 7),
        )

    def signed_pairs(self) -> Pairs:
        """chargeOrder's sign: appkey custno mobile prodcode, then `token` (lowercase)."""
        return [("appkey", self.appkey), ("custno", self.custno), ("mobile", self.mobile),
                ("prodcode", self.prodcode)]


@dataclass(frozen=True)
class Plan:
    """What will happen to a new order, fixed at creation so a later rule change or another
    roll of the failure rate cannot rewrite an order already answered."""

    charge_code: str
    final_code: str
    callback_mode: str
    callback_delay_s: float


def check_custno(custno: str) -> None:
    if len(custno) > CUSTNO_MAX:
        raise TopupError(codes.CUSTNO_TOO_LONG,
                         f"custno is {len(custno)} characters; it must be shorter than 30")
    if not CUSTNO_CHARACTERS.fullmatch(custno):
        raise TopupError(codes.PARAMETER_ABNORMAL,
                         "custno: only letters, digits, _ and - are allowed")


def product_for(prodcode: str) -> Product:
    product = PRODUCTS.get(prodcode)
    if product is None:
        raise TopupError(codes.PARAMETER_ABNORMAL,
                         f"prodcode: no product {prodcode!r}; one of {', '.join(PRODUCTS)}")
    return product


def number_of(encrypted_mobile: str, token: str, appkey: str) -> tuple[str, str]:
    """The 11-digit number and its carrier, from the encrypted field."""
    try:
        mobile = decrypt_mobile(encrypted_mobile, token, appkey)
    except CipherError as error:
        raise TopupError(codes.AES_WRONG, f"mobile: AES decryption failed ({error})") from None
    number = carriers.normalise(mobile)
    if number is None:
        raise TopupError(codes.MOBILE_ILLEGAL,
                         "mobile: must be one mainland mobile number of 11 digits")
    carrier = carriers.carrier_of(number)
    if carrier is None:
        raise TopupError(codes.MOBILE_UNRECOGNISED,
                         f"mobile: {number[:3]} is not a segment of CMCC, CUCC or CTCC")
    return number, carrier


def plan_for(number: str, failure_rate: float) -> Plan:
    rule = Rule.objects.filter(mobile=number).first()
    if rule is None:
        rule = Rule(mobile=number)  # the defaults: auto outcome, normal callback
    if rule.outcome == Rule.Outcome.SUCCESS:
        final = codes.SUCCESS
    elif rule.outcome == Rule.Outcome.FAIL:
        final = rule.fail_code
    elif rule.outcome == Rule.Outcome.MANUAL:
        final = codes.MANUAL_CONFIRMATION
    else:
        final = codes.TOPUP_FAILED if random.random() < failure_rate else codes.SUCCESS
    return Plan(charge_code=rule.charge_code, final_code=final, callback_mode=rule.callback,
                callback_delay_s=rule.callback_delay_s)


def new_orderno(now: float) -> str:
    """Platform order number: Shanghai date-time and 8 random digits; unique (checked inside
    the creating transaction, which holds SQLite's write lock)."""
    stamp = shanghai_time.compact(now)
    while True:
        orderno = f"{stamp}{secrets.randbelow(10**8):08d}"
        if not Order.objects.filter(orderno=orderno).exists():
            return orderno


def charge(request: ChargeRequest, token: str, now: float) -> Order:
    """Create the order (or refuse it with the code of the first problem found)."""
    check_custno(request.custno)
    product = product_for(request.prodcode)
    number, carrier = number_of(request.mobile, token, request.appkey)
    if product.carrier != carrier:
        raise TopupError(codes.PRODUCT_NOT_ALLOWED,
                         f"{product.code} is a {product.carrier} product; {number[:3]}... is "
                         f"a {carrier} number")
    settings = config.settings()
    plan = plan_for(number, settings.failure_rate)
    with transaction.atomic():
        if Order.objects.filter(custno=request.custno).exists():
            raise TopupError(codes.CUSTNO_DUPLICATED, f"custno {request.custno} already used")
        if not wallet.freeze(product.price_fen):
            available = yuan_text(config.wallet().available_fen)
            raise TopupError(codes.BALANCE_INSUFFICIENT,
                             f"available balance {available} does not cover {product.code} "
                             f"at {yuan_text(product.price_fen)}")
        return Order.objects.create(
            orderno=new_orderno(now), custno=request.custno, mobile=number, carrier=carrier,
            prodcode=product.code, prodtime=request.prodtime,
            prodstandard=request.prodstandard, price_fen=product.price_fen,
            charge_code=plan.charge_code, code=codes.IN_PROGRESS,
            planned_code=plan.final_code, callback_mode=plan.callback_mode,
            callback_delay_s=plan.callback_delay_s, created_at=now,
            due_at=now + settings.progress_delay_s,
        )
