"""Records of the top-up service: products, orders and their timeline, callbacks, balance, token.

Money moves through `Order`, so its rules are strict: the custno is generated and stored before
any call; the state only moves by conditional updates (see `topup.services.statemachine`);
the timeline (`OrderEvent`) is append-only; every inbound callback is kept raw (`CallbackReceipt`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NoReturn

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from topup.rules import CUSTNO_MAX_LENGTH, Carrier, InvalidInput, parse_product_code


class Access(models.Model):
    """Holds the permissions of the Mobile-data top-up pages that belong to no single model.

    Not a table: Django keeps permissions per model, so this unmanaged model gives them a home.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("Mobile-data top-up access")
        permissions = [
            ("access_topup", _("Can open the top-up pages")),
            ("charge_topup", _("Can place top-up orders")),
            (
                "confirm_manual_topup",
                _("Can record the outcome of an order waiting for manual confirmation"),
            ),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)


CARRIER_CHOICES = [
    (Carrier.CMCC.value, _("China Mobile (CMCC)")),
    (Carrier.CUCC.value, _("China Unicom (CUCC)")),
    (Carrier.CTCC.value, _("China Telecom (CTCC)")),
]


class Product(models.Model):
    """A data package we sell, with what the provider charges us for it.

    The provider's catalogue is unpublished (DECISIONS), so the back-office keeps its own list.
    """

    code = models.CharField(
        _("product code"),
        max_length=40,
        unique=True,
        validators=[RegexValidator(r"^\S+$", _("A product code has no spaces."))],
        help_text=_("As the provider spells it, e.g. CMCC_10."),
    )
    carrier = models.CharField(_("carrier"), max_length=4, choices=CARRIER_CHOICES)
    size_mb = models.PositiveIntegerField(_("size (MB)"), validators=[MinValueValidator(1)])
    price = models.DecimalField(
        _("price (yuan)"),
        max_digits=10,
        decimal_places=2,
        validators=[MinValueValidator(Decimal("0.01"))],
        help_text=_("What the provider deducts from the balance for one successful top-up."),
    )
    active = models.BooleanField(
        _("on sale"), default=True, help_text=_("Only products on sale can be ordered.")
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["carrier", "size_mb", "code"]
        verbose_name = _("product")
        verbose_name_plural = _("products")

    def __str__(self) -> str:
        return self.code

    def clean(self) -> None:
        # A code written CARRIER_MEGABYTES must agree with the carrier and size beside it, or
        # staff would sell one package and the provider deliver another.
        try:
            parsed = parse_product_code(self.code or "")
        except InvalidInput:
            return
        errors = {}
        if self.carrier and parsed.carrier.value != self.carrier:
            errors["carrier"] = _("The code %(code)s names carrier %(carrier)s.") % {
                "code": self.code, "carrier": parsed.carrier.value}
        if self.size_mb and parsed.megabytes != self.size_mb:
            errors["size_mb"] = _("The code %(code)s names %(size)s MB.") % {
                "code": self.code, "size": parsed.megabytes}
        if errors:
            raise ValidationError(errors)


class OrderState(models.TextChoices):
    CREATED = "created", _("Created")
    SUBMITTED = "submitted", _("Submitted")
    PENDING = "pending", _("In progress")
    UNKNOWN = "unknown", _("Uncertain")
    MANUAL = "manual", _("Waiting for manual confirmation")
    SUCCESS = "success", _("Succeeded")
    FAILED = "failed", _("Failed")


FINAL_STATES = frozenset({OrderState.SUCCESS, OrderState.FAILED})
OPEN_STATES = frozenset(set(OrderState) - FINAL_STATES)


class OrderSource(models.TextChoices):
    SINGLE = "single", _("single top-up")
    BULK = "bulk", _("bulk top-up")
    API = "api", _("merchant API")


class ProdTimeChoice(models.IntegerChoices):
    OFF_PEAK = 0, _("off-peak data")
    ALL_TIME = 1, _("all-time data")


class ProdStandardChoice(models.IntegerChoices):
    G2 = 1, _("2G only")
    G2_G3 = 3, _("2G and 3G")
    ALL_NETWORKS = 7, _("all networks")


class Order(models.Model):
    """One top-up of one product for one mobile number.

    `created -> submitted -> pending -> success|failed`, with `unknown` while the outcome of a
    chargeOrder is uncertain and `manual` while a person must confirm it (code 511).
    """

    custno = models.CharField(
        _("our order number"), max_length=CUSTNO_MAX_LENGTH, unique=True, editable=False
    )
    mobile = models.CharField(_("mobile number"), max_length=11)
    carrier = models.CharField(_("carrier"), max_length=4, choices=CARRIER_CHOICES, blank=True)
    product = models.ForeignKey(
        Product, on_delete=models.PROTECT, related_name="orders", verbose_name=_("product")
    )
    # Copied at order time: a product edited later must not rewrite what was ordered.
    prodcode = models.CharField(_("product code"), max_length=40)
    price = models.DecimalField(_("price (yuan)"), max_digits=10, decimal_places=2)
    prodtime = models.PositiveSmallIntegerField(
        _("data period"), choices=ProdTimeChoice.choices, default=ProdTimeChoice.ALL_TIME
    )
    prodstandard = models.PositiveSmallIntegerField(
        _("networks"), choices=ProdStandardChoice.choices, default=ProdStandardChoice.ALL_NETWORKS
    )
    orderno = models.CharField(_("provider order number"), max_length=64, blank=True)
    state = models.CharField(
        _("state"), max_length=10, choices=OrderState.choices, default=OrderState.CREATED
    )
    last_code = models.CharField(_("last code"), max_length=10, blank=True)
    last_info = models.CharField(_("last message"), max_length=300, blank=True)
    charge_code = models.CharField(
        _("chargeOrder code"), max_length=10, blank=True,
        help_text=_("The code of the latest chargeOrder answer; empty when none arrived."),
    )
    source = models.CharField(_("placed through"), max_length=10, choices=OrderSource.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="topup_orders",
        verbose_name=_("requested by"),
    )
    batch = models.ForeignKey(
        "BulkBatch",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="orders",
        verbose_name=_("bulk batch"),
    )
    batch_line = models.PositiveIntegerField(_("CSV line"), null=True, blank=True)
    idempotency_key = models.CharField(_("idempotency key"), max_length=100, blank=True)
    request_fingerprint = models.CharField(max_length=64, blank=True, editable=False)

    charge_attempts = models.PositiveSmallIntegerField(_("chargeOrder attempts"), default=0)
    check_attempts = models.PositiveIntegerField(_("queries"), default=0)
    not_found_count = models.PositiveSmallIntegerField(default=0, editable=False)
    next_check_at = models.DateTimeField(_("next query at"), null=True, blank=True, db_index=True)

    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    settled_manually = models.BooleanField(_("settled by a person"), default=False)
    conflict = models.BooleanField(
        _("conflicting answers"),
        default=False,
        help_text=_("The provider said something that contradicts the final state."),
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("top-up order")
        verbose_name_plural = _("top-up orders")
        indexes = [
            models.Index(fields=["state", "next_check_at"]),
            # The order list filtered on a state, newest first, finds its page at once even
            # for a rare state (bench/report_scale.py). Trigram indexes for the list's
            # "mobile or order number" search are PostgreSQL-only: see migration 0006.
            models.Index(fields=["state", "-created_at", "-id"], name="topup_order_state_recent"),
            # The provider's newest answer (services.attention: dashboard, /ready) without
            # reading every order (1.2 s at ten times the benchmark's data).
            models.Index(fields=["-updated_at", "-id"], name="topup_order_answered_recent",
                         condition=~models.Q(last_code="")),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["requested_by", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="topup_order_idempotency_key_per_user",
            )
        ]

    def __str__(self) -> str:
        return self.custno

    @property
    def is_final(self) -> bool:
        return self.state in FINAL_STATES


class AppendOnlyQuerySet(models.QuerySet["OrderEvent"]):
    """Refuses bulk update and delete: the timeline is evidence, it is never rewritten."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise TypeError(f"{self.model.__name__} rows are append-only")

    def delete(self) -> NoReturn:
        raise TypeError(f"{self.model.__name__} rows are append-only")


class EventKind(models.TextChoices):
    CREATED = "created", _("order placed")
    STATE = "state", _("state changed")
    CHARGE = "charge", _("chargeOrder")
    SEEK = "seek", _("seekOrder")
    CALLBACK = "callback", _("callback")
    MANUAL = "manual", _("manual confirmation")
    NOTE = "note", _("note")


class OrderEvent(models.Model):
    """One line of an order's timeline: a call, an answer, a callback, a state change."""

    order = models.ForeignKey(
        Order, on_delete=models.PROTECT, related_name="events", verbose_name=_("order")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    kind = models.CharField(_("kind"), max_length=10, choices=EventKind.choices)
    from_state = models.CharField(_("from"), max_length=10, choices=OrderState.choices, blank=True)
    to_state = models.CharField(_("to"), max_length=10, choices=OrderState.choices, blank=True)
    code = models.CharField(_("code"), max_length=10, blank=True)
    info = models.CharField(_("provider message"), max_length=300, blank=True)
    # The English message id with %(name)s placeholders, translated when shown (`text`), so
    # that a timeline written by a worker reads in each reader's language.
    message = models.TextField(_("what happened"), blank=True)
    params = models.JSONField(_("details"), default=dict, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    receipt = models.ForeignKey(
        "CallbackReceipt",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("callback receipt"),
    )

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("order event")
        verbose_name_plural = _("order events")

    def __str__(self) -> str:
        return f"{self.order_id} {self.kind} {self.at:%Y-%m-%d %H:%M:%S}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise TypeError("order events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("order events are append-only")

    @property
    def text(self) -> str:
        """The message in the active language, with its details filled in."""
        translated = gettext(self.message) if self.message else ""
        if not self.params:
            return translated
        for template in (translated, self.message):
            try:
                filled: str = template % self.params
                return filled
            except (KeyError, TypeError, ValueError):
                # A translation (or a message) that lost a placeholder must not hide what
                # happened: try the original, then show the details as they are.
                continue
        return f"{translated} {self.params}"


class ReceiptOutcome(models.TextChoices):
    RECEIVED = "received", _("received, not processed yet")
    APPLIED = "applied", _("applied to the order")
    DUPLICATE = "duplicate", _("duplicate: nothing to change")
    STALE = "stale", _("older than what we know: ignored")
    CONFLICT = "conflict", _("contradicts the final state: flagged")
    UNKNOWN_CUSTNO = "unknown_custno", _("no such order here: flagged")
    INVALID_SIGN = "invalid_sign", _("bad sign: refused")
    MALFORMED = "malformed", _("unreadable body: refused")
    REFUSED_ADDRESS = "refused_address", _("sender address not allowed: refused")
    TOO_LARGE = "too_large", _("body too large: refused, first bytes kept")
    ERROR = "error", _("processing failed")


class CallbackReceipt(models.Model):
    """One inbound callback exactly as it arrived, with what we made of it."""

    received_at = models.DateTimeField(_("received at"), auto_now_add=True, db_index=True)
    remote_addr = models.GenericIPAddressField(_("remote address"), null=True, blank=True)
    headers = models.JSONField(_("headers"), default=dict)
    body = models.BinaryField(_("raw body"))
    body_size = models.PositiveBigIntegerField(
        _("body size"), null=True, blank=True,
        help_text=_("Bytes declared or sent; a larger body than the limit keeps its first bytes."))
    sign_valid = models.BooleanField(_("sign valid"), null=True)
    signed_with = models.CharField(
        _("signed with"), max_length=10, blank=True,
        help_text=_("current or previous token (during the grace period)"),
    )
    custno = models.CharField(_("custno"), max_length=64, blank=True, db_index=True)
    orderno = models.CharField(_("orderno"), max_length=64, blank=True)
    code = models.CharField(_("code"), max_length=10, blank=True)
    info = models.CharField(_("provider message"), max_length=300, blank=True)
    order = models.ForeignKey(
        Order,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="receipts",
        verbose_name=_("order"),
    )
    processed = models.BooleanField(_("processed"), default=False)
    processed_at = models.DateTimeField(_("processed at"), null=True, blank=True)
    outcome = models.CharField(
        _("outcome"), max_length=15, choices=ReceiptOutcome.choices,
        default=ReceiptOutcome.RECEIVED,
    )
    unknown_custno = models.BooleanField(_("unknown custno"), default=False)
    error = models.TextField(_("error"), blank=True)
    replays = models.PositiveIntegerField(_("replays"), default=0)

    class Meta:
        ordering = ["-received_at", "-id"]
        verbose_name = _("callback receipt")
        verbose_name_plural = _("callback receipts")
        indexes = [models.Index(fields=["processed", "sign_valid"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.custno or '?'} {self.code or '?'}"

    @property
    def body_text(self) -> str:
        return bytes(self.body).decode("utf-8", errors="replace")


class SnapshotSource(models.TextChoices):
    SCHEDULE = "schedule", _("scheduled")
    STAFF = "staff", _("asked by staff")
    REPORT = "report", _("daily report")


class BalanceSnapshot(models.Model):
    """The provider's answer to getMyBalance at one moment."""

    taken_at = models.DateTimeField(_("taken at"), auto_now_add=True, db_index=True)
    balance = models.DecimalField(_("balance"), max_digits=14, decimal_places=2)
    freeze = models.DecimalField(_("frozen"), max_digits=14, decimal_places=2)
    avail_balance = models.DecimalField(_("available"), max_digits=14, decimal_places=2)
    source = models.CharField(_("source"), max_length=10, choices=SnapshotSource.choices)

    class Meta:
        ordering = ["-taken_at", "-id"]
        get_latest_by = "taken_at"
        verbose_name = _("balance snapshot")
        verbose_name_plural = _("balance snapshots")

    def __str__(self) -> str:
        return f"{self.avail_balance} @ {self.taken_at:%Y-%m-%d %H:%M}"


class TokenState(models.Model):
    """The one shared signing token (row 1), plus the previous one for callbacks in flight.

    The row is also the lock: a refresh runs under `select_for_update` on it (see
    topup.services.shared_token).
    """

    token = models.CharField(max_length=64, blank=True)
    obtained_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    previous_token = models.CharField(max_length=64, blank=True)
    previous_until = models.DateTimeField(null=True, blank=True)
    refresh_count = models.PositiveIntegerField(default=0)

    class Meta:
        default_permissions = ()
        verbose_name = _("signing token")

    def __str__(self) -> str:
        # Never the token itself: __str__ ends up in logs and admin pages.
        return f"token obtained {self.obtained_at}"


class BatchStatus(models.TextChoices):
    VALIDATED = "validated", _("checked, waiting for confirmation")
    CONFIRMED = "confirmed", _("confirmed: orders placed")
    DISCARDED = "discarded", _("discarded")


class BulkBatch(models.Model):
    """A CSV of (mobile, product code) rows, checked before anything is charged."""

    file_name = models.CharField(_("file name"), max_length=200)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("uploaded by"),
    )
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    status = models.CharField(
        _("status"), max_length=10, choices=BatchStatus.choices, default=BatchStatus.VALIDATED
    )
    rows = models.JSONField(_("valid rows"), default=list)
    problems = models.JSONField(_("problems"), default=list)
    warnings = models.JSONField(_("warnings"), default=list)
    line_count = models.PositiveIntegerField(_("lines read"), default=0)
    total_price = models.DecimalField(
        _("total price"), max_digits=14, decimal_places=2, default=Decimal("0")
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        verbose_name = _("bulk top-up")
        verbose_name_plural = _("bulk top-ups")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.uploaded_at:%Y-%m-%d %H:%M})"


class ReconciliationReport(models.Model):
    """What one day's orders, the provider's answers and the balance movement say together."""

    day = models.DateField(_("day"), unique=True)
    created_at = models.DateTimeField(_("made at"), auto_now=True)
    order_count = models.PositiveIntegerField(_("orders"), default=0)
    success_count = models.PositiveIntegerField(_("succeeded"), default=0)
    failed_count = models.PositiveIntegerField(_("failed"), default=0)
    open_count = models.PositiveIntegerField(_("not final"), default=0)
    queried_count = models.PositiveIntegerField(_("queried again"), default=0)
    spent = models.DecimalField(
        _("spent on succeeded orders"), max_digits=14, decimal_places=2, default=Decimal("0")
    )
    balance_start = models.DecimalField(
        _("balance at start"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    balance_end = models.DecimalField(
        _("balance at end"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    balance_start_at = models.DateTimeField(_("start snapshot at"), null=True, blank=True)
    balance_end_at = models.DateTimeField(_("end snapshot at"), null=True, blank=True)
    expected_movement = models.DecimalField(
        _("expected movement"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("made by"),
    )

    class Meta:
        ordering = ["-day"]
        verbose_name = _("reconciliation report")
        verbose_name_plural = _("reconciliation reports")

    def __str__(self) -> str:
        return f"{self.day}"

    @property
    def balance_movement(self) -> Decimal | None:
        if self.balance_start is None or self.balance_end is None:
            return None
        return self.balance_end - self.balance_start


class DiscrepancyKind(models.TextChoices):
    NOT_FINAL = "not_final", _("order not final")
    STATE_MISMATCH = "mismatch", _("provider answers differently")
    CONFLICT = "conflict", _("conflicting answers")
    MANUAL = "manual", _("settled by a person")
    UNKNOWN_CUSTNO = "unknown_custno", _("callback for an unknown order")
    INVALID_SIGN = "invalid_sign", _("callback with a bad sign")
    BALANCE = "balance", _("balance movement does not match")
    NO_BALANCE = "no_balance", _("balance snapshots missing")
    QUERY_FAILED = "query_failed", _("provider could not be asked")


class ReconciliationDiscrepancy(models.Model):
    report = models.ForeignKey(
        ReconciliationReport, on_delete=models.CASCADE, related_name="discrepancies",
        verbose_name=_("report"),
    )
    kind = models.CharField(_("kind"), max_length=15, choices=DiscrepancyKind.choices)
    order = models.ForeignKey(
        Order, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("order"),
    )
    receipt = models.ForeignKey(
        CallbackReceipt, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("callback receipt"),
    )
    ours = models.CharField(_("our record"), max_length=100, blank=True)
    theirs = models.CharField(_("provider's answer"), max_length=100, blank=True)
    detail = models.TextField(_("detail"), blank=True)

    class Meta:
        ordering = ["kind", "id"]
        verbose_name = _("discrepancy")
        verbose_name_plural = _("discrepancies")

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail[:60]}"

    @property
    def detail_text(self) -> str:
        """Details are message ids (translated here) or the provider's own words (kept)."""
        return gettext(self.detail) if self.detail else ""


class ApiScope(models.TextChoices):
    ORDERS_WRITE = "orders:write", _("Place orders (orders:write)")
    ORDERS_READ = "orders:read", _("Read orders (orders:read)")


class ApiToken(models.Model):
    """A merchant API token: only the SHA-256 of the key is stored (the key is shown once, at
    creation). The token acts for the staff member who created it, within its scopes, until
    it expires or is revoked."""

    name = models.CharField(_("name"), max_length=100)
    # The key's first characters, shown on the list so that a person can tell tokens apart;
    # too short to be of any use to guess the rest.
    prefix = models.CharField(_("prefix"), max_length=12, db_index=True)
    key_hash = models.CharField(_("key hash"), max_length=64, unique=True, editable=False)
    scopes = models.JSONField(_("scopes"), default=list)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens", verbose_name=_("acts for"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+",
                                   verbose_name=_("revoked by"))
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
