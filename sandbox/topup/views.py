"""The four top-up interfaces. Thin: read the request, authenticate, call the rule module."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from sandbox.core import clock
from sandbox.topup import charging, codes, config, progress, seeking, tokens
from sandbox.topup.auth import authenticate
from sandbox.topup.money import yuan_text
from sandbox.topup.protocol import Body, answer, endpoint, required_text


@endpoint(blanks={"token": ""})
def refresh_token(request: HttpRequest, body: Body) -> HttpResponse:
    appkey, appsecret = required_text(body, "appkey"), required_text(body, "appsecret")
    token = tokens.refresh(appkey, appsecret, clock.now())
    return answer({"code": codes.SUCCESS, "token": token.value, "info": "token issued"})


@endpoint(echo=("custno",), blanks={"orderno": ""})
def charge_order(request: HttpRequest, body: Body) -> HttpResponse:
    charge = charging.ChargeRequest.read(body)
    now = clock.now()
    token = authenticate(charge.appkey, charge.sign, charge.signed_pairs(), "token", now)
    order = charging.charge(charge, token, now)
    return answer({"code": order.charge_code, "custno": order.custno, "orderno": order.orderno,
                   "info": codes.CHARGE_INFO[order.charge_code]})


@endpoint(echo=("custno",))
def seek_order(request: HttpRequest, body: Body) -> HttpResponse:
    seek = seeking.SeekRequest.read(body)
    now = clock.now()
    authenticate(seek.appkey, seek.sign, seek.signed_pairs(), "TOKEN", now)
    order = seeking.seek(seek, now)
    return answer({"code": order.code, "custno": order.custno,
                   "info": codes.ORDER_INFO[order.code]})


@endpoint()
def get_my_balance(request: HttpRequest, body: Body) -> HttpResponse:
    appkey, sign = required_text(body, "appkey"), required_text(body, "sign")
    now = clock.now()
    authenticate(appkey, sign, [("appkey", appkey)], "TOKEN", now)
    progress.settle_due(now)  # the balance reflects every outcome known by now
    wallet = config.wallet()
    # Written by hand so every amount has exactly two decimals on the wire (1000.00, not
    # 1000.0); a client parsing numbers as decimals gets the exact amount.
    text = (f'{{"code": "{codes.SUCCESS}", "balance": {yuan_text(wallet.balance_fen)}, '
            f'"freeze": {yuan_text(wallet.freeze_fen)}, '
            f'"availBalance": {yuan_text(wallet.available_fen)}}}')
    return HttpResponse(text, content_type="application/json")
