"""State of the emulated top-up service. Times are unix seconds on the sandbox clock; money is
whole fen (see money.py)."""

from __future__ import annotations

from django.db import models

from sandbox.core.json_types import JSONObject
from sandbox.topup.money import yuan_number

DEFAULT_BALANCE_FEN = 100_000  # a fresh account holds 1000.00 yuan
DEFAULT_PROGRESS_DELAY_S = 5.0
DEFAULT_LATE_CALLBACK_S = 300.0


def default_whitelist() -> list[str]:
    # Loopback is admitted by default (DECISIONS), so a local back-office works at once.
    return ["127.0.0.1", "::1"]


class TopupSettings(models.Model):
    """What the merchant configures in the console, plus the emulator's behaviour (one row)."""

    callback_url = models.CharField(max_length=2000, blank=True, default="")
    failure_rate = models.FloatField(default=0.0)
    progress_delay_s = models.FloatField(default=DEFAULT_PROGRESS_DELAY_S)
    whitelist = models.JSONField(default=default_whitelist)

    def __str__(self) -> str:
        return "top-up settings"


class Wallet(models.Model):
    """The merchant's money (one row). `balance` includes `freeze`, the price of orders whose
    outcome is not known yet; what can still be spent is the difference."""

    balance_fen = models.BigIntegerField(default=DEFAULT_BALANCE_FEN)
    freeze_fen = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"wallet {self.balance_fen} fen, {self.freeze_fen} frozen"

    @property
    def available_fen(self) -> int:
        return self.balance_fen - self.freeze_fen


class Token(models.Model):
    """Every token issued; only the latest one is valid, until its expiry."""

    value = models.CharField(max_length=16)
    issued_at = models.FloatField()
    expires_at = models.FloatField()

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"token issued at {self.issued_at}"


class Rule(models.Model):
    """How orders for one number behave, for tests (set through the control API)."""

    class Outcome(models.TextChoices):
        AUTO = "auto"  # as the failure_rate setting says
        SUCCESS = "success"
        FAIL = "fail"
        MANUAL = "manual"  # ends with 511, manual confirmation

    class Callback(models.TextChoices):
        NORMAL = "normal"
        NONE = "none"
        DUPLICATE = "duplicate"  # two independent deliveries of the same callback
        LATE = "late"  # the first call comes callback_delay_s after the outcome

    mobile = models.CharField(max_length=11, unique=True)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, default=Outcome.AUTO)
    fail_code = models.CharField(max_length=3, default="530")
    charge_code = models.CharField(max_length=3, default="200")
    callback = models.CharField(max_length=10, choices=Callback.choices,
                                default=Callback.NORMAL)
    callback_delay_s = models.FloatField(default=0.0)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"rule for {self.mobile}"

    def as_dict(self) -> JSONObject:
        return {"mobile": self.mobile, "outcome": self.outcome, "fail_code": self.fail_code,
                "charge_code": self.charge_code, "callback": self.callback,
                "callback_delay_s": self.callback_delay_s}


class Order(models.Model):
    """A top-up order. `code` is what seekOrder answers; `planned_code` is the outcome decided
    at creation (rules, failure rate), which `code` takes once `due_at` has passed."""

    orderno = models.CharField(max_length=32, unique=True)
    custno = models.CharField(max_length=29, unique=True)
    mobile = models.CharField(max_length=11)
    carrier = models.CharField(max_length=4)
    prodcode = models.CharField(max_length=16)
    prodtime = models.PositiveSmallIntegerField()
    prodstandard = models.PositiveSmallIntegerField()
    price_fen = models.BigIntegerField()
    charge_code = models.CharField(max_length=3)
    code = models.CharField(max_length=3, db_index=True)
    planned_code = models.CharField(max_length=3)
    callback_mode = models.CharField(max_length=10, choices=Rule.Callback.choices)
    callback_delay_s = models.FloatField(default=0.0)
    created_at = models.FloatField()
    due_at = models.FloatField(db_index=True)
    finished_at = models.FloatField(null=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"order {self.orderno} ({self.custno})"

    def as_dict(self) -> JSONObject:
        return {
            "custno": self.custno, "orderno": self.orderno, "mobile": self.mobile,
            "carrier": self.carrier, "prodcode": self.prodcode, "prodtime": self.prodtime,
            "prodstandard": self.prodstandard, "price": yuan_number(self.price_fen),
            "charge_code": self.charge_code, "code": self.code,
            "planned_code": self.planned_code, "callback_mode": self.callback_mode,
            "created_at": self.created_at, "due_at": self.due_at,
            "finished_at": self.finished_at,
        }


class CallbackDelivery(models.Model):
    """One callback to deliver: up to 3 calls, 60 s apart, until acknowledged."""

    class State(models.TextChoices):
        PENDING = "pending"
        ACKNOWLEDGED = "acknowledged"
        GAVE_UP = "gave_up"

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="deliveries")
    code = models.CharField(max_length=3)
    state = models.CharField(max_length=12, choices=State.choices, default=State.PENDING)
    calls_made = models.PositiveSmallIntegerField(default=0)
    next_due_at = models.FloatField(null=True, db_index=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"callback {self.code} for {self.order_id}"


class CallbackAttempt(models.Model):
    """One call made to the merchant's callback address, with what came back."""

    delivery = models.ForeignKey(CallbackDelivery, on_delete=models.CASCADE,
                                 related_name="attempts")
    call = models.PositiveSmallIntegerField()
    sent_at = models.FloatField()
    url = models.CharField(max_length=2000)
    body = models.JSONField()
    status = models.PositiveSmallIntegerField(null=True)
    response = models.TextField(blank=True)
    error = models.TextField(blank=True)
    acknowledged = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"callback call {self.call} of delivery {self.delivery_id}"

    def as_dict(self) -> JSONObject:
        return {
            "id": self.id, "custno": self.delivery.order.custno,
            "orderno": self.delivery.order.orderno, "delivery": self.delivery_id,
            "call": self.call, "sent_at": self.sent_at, "url": self.url, "body": self.body,
            "status": self.status, "response": self.response, "error": self.error,
            "acknowledged": self.acknowledged,
        }


class SeekQuery(models.Model):
    """An answered seekOrder, kept for the 510 threshold's sliding window."""

    custno = models.CharField(max_length=64)
    at = models.FloatField(db_index=True)

    def __str__(self) -> str:
        return f"seek {self.custno} at {self.at}"
