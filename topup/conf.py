"""Tunable values of the top-up app, each read from Django settings, else the environment.

The project's settings module belongs to the foundation, so the app reads its own knobs here:
a test (or a deployment that prefers settings) sets `TOPUP_...` in Django settings, an operator
sets the same name in the environment, and otherwise the default below applies. Values are read
on every access, so `override_settings` in tests takes effect at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from backoffice.env import StrictEnv


@dataclass(frozen=True)
class Knob:
    name: str
    default: int
    minimum: int
    doc: str


KNOBS: dict[str, Knob] = {
    knob.name: knob
    for knob in (
        Knob("TOPUP_CALLBACK_GRACE_S", 600, 0,
             "How long a callback signed with the previous token is still accepted after a "
             "token refresh."),
        Knob("TOPUP_TOKEN_LIFETIME_S", 24 * 3600, 60,
             "How long a token lives at the provider (24 hours in the spec)."),
        Knob("TOPUP_TOKEN_REFRESH_MARGIN_S", 3600, 0,
             "A token is replaced this long before it expires."),
        Knob("TOPUP_FIRST_CHECK_S", 60, 1,
             "Wait before the first seekOrder of a pending order (the callback usually comes "
             "first)."),
        Knob("TOPUP_UNCERTAIN_FIRST_CHECK_S", 5, 0,
             "Wait before the first seekOrder of an order whose chargeOrder answer was lost or "
             "inconclusive."),
        Knob("TOPUP_CHECK_MAX_INTERVAL_S", 1800, 1,
             "Longest pause between two queries of the same open order."),
        Knob("TOPUP_BACK_OFF_S", 60, 1,
             "First pause of every query after a 510 (queries too frequent); doubles while 510 "
             "repeats."),
        Knob("TOPUP_BACK_OFF_MAX_S", 900, 1, "Longest pause after repeated 510 answers."),
        Knob("TOPUP_NOT_FOUND_GRACE_S", 120, 0,
             "A 516 (no such order) is believed only this long after the chargeOrder was sent, "
             "so that a request still in flight is not taken for a lost one."),
        Knob("TOPUP_MAX_CHARGE_ATTEMPTS", 3, 1,
             "chargeOrder calls per order (same custno) when the provider confirms it never "
             "received the earlier ones."),
        Knob("TOPUP_NOT_FOUND_LIMIT", 3, 1,
             "516 answers about an order the provider acknowledged before it goes to a person."),
        Knob("TOPUP_STALE_SUBMISSION_S", 120, 1,
             "An order still `submitted` after this long lost its worker mid-call: query it."),
        Knob("TOPUP_STALE_CREATED_S", 60, 1,
             "An order still `created` after this long lost its task: enqueue it again."),
        Knob("TOPUP_UNCERTAIN_LIMIT_S", 24 * 3600, 60,
             "An order without a final answer this long after submission goes to the manual "
             "queue."),
        Knob("TOPUP_POLL_BATCH", 200, 1, "Orders enqueued for a query per beat run."),
        Knob("TOPUP_BULK_MAX_ROWS", 5000, 1, "Rows accepted in one bulk CSV."),
        Knob("TOPUP_BULK_MAX_BYTES", 1024 * 1024, 1, "Size accepted for one bulk CSV."),
    )
}


def knob(name: str) -> int:
    """The value of one knob: Django setting, else environment variable, else default."""
    spec = KNOBS[name]
    if hasattr(settings, name):
        value: object = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < spec.minimum:
            raise ImproperlyConfigured(f"{name}: expected an integer >= {spec.minimum}")
        return value
    return StrictEnv().int(name, spec.default, minimum=spec.minimum)


def provider_timeout() -> tuple[float, float]:
    """Connect quickly; reading may take as long as the project allows (PROVIDER_TIMEOUT_S)."""
    read = float(getattr(settings, "PROVIDER_TIMEOUT_S", 15))
    return (min(5.0, read), read)
