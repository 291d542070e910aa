from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from console.sealed import SealedField
from providerkit.json_types import JSONObject

if TYPE_CHECKING:
    from console.models import Domain


class Access(models.Model):
    """Holds the permissions of the Content delivery pages that belong to no single model.

    Not a table: Django keeps permissions per model, so this unmanaged model gives them a home.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("Content delivery access")
        permissions = [
            ("access_delivery", _("Can open the content-delivery pages")),
            ("manage_delivery", _("Can change delivery settings and rule sets")),
            ("purge_cache", _("Can refresh the edge cache")),
            ("sign_links", _("Can build signed and secret-protected links")),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)


class Separator(models.TextChoices):
    BANG = "!", "!"
    DASH = "-", "-"
    UNDERSCORE = "_", "_"


class RefererMode(models.TextChoices):
    OFF = "off", _("No Referer check")
    ALLOW = "allow", _("Allow only the listed domains")
    DENY = "deny", _("Deny the listed domains")


class Certificate(models.Model):
    """An uploaded certificate chain (PEM, the site's certificate first) and its private key,
    sealed like every credential (console.sealed). Checked before it was stored
    (`delivery.services.certificate_checks`) and uploaded to the console, whose id it keeps;
    the fields below are read from the site's certificate for the page and the expiry job."""

    certificate_id = models.CharField(_("certificate ID"), max_length=64, unique=True)
    chain = models.TextField(_("certificate chain"))
    private_key = SealedField(_("private key"))
    subject = models.CharField(_("subject"), max_length=500)
    issuer = models.CharField(_("issuer"), max_length=500)
    names = models.JSONField(_("names"), default=list)
    fingerprint = models.CharField(_("SHA-256 fingerprint"), max_length=95)
    not_before = models.DateTimeField(_("valid from"))
    not_after = models.DateTimeField(_("expires"))
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("uploaded by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")
    # The smallest expiry warning (30 or 7 days) already given, so each is given once.
    warned_days = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["not_after", "pk"]
        verbose_name = _("certificate")
        verbose_name_plural = _("certificates")

    def __str__(self) -> str:
        return f"{self.subject} ({self.fingerprint[:11]})"


class RegionMode(models.TextChoices):
    OFF = "off", _("No region restriction")
    ALLOW = "allow", _("Allow only the listed countries/regions")
    BLOCK = "block", _("Block the listed countries/regions")


class DeliverySettings(models.Model):
    """A domain's delivery settings: one row a domain, edited on the settings page and sent to
    the edge on publish.

    The token secret is not here: it is the domain's (sealed on `console.Domain`, or
    `DELIVERY_TOKEN_SECRET` for the environment's domain), and only its fingerprint is kept, on
    each `PublishedConfig`, to tell when it changed.
    """

    domain = models.OneToOneField(
        "console.Domain", verbose_name=_("domain"), on_delete=models.PROTECT,
        related_name="delivery_settings")
    token_protection = models.BooleanField(
        _("token protection"), default=False,
        help_text=_("Refuse requests without a valid _upt token."))
    separator = models.CharField(
        _("separator"), max_length=1, choices=Separator.choices, default=Separator.BANG,
        help_text=_("Between a file URL and a version name, secret or processing parameters."))
    cors_allow_origin = models.CharField("Access-Control-Allow-Origin", max_length=500, blank=True)
    cors_allow_methods = models.CharField(
        "Access-Control-Allow-Methods", max_length=200, blank=True)
    cors_allow_headers = models.CharField(
        "Access-Control-Allow-Headers", max_length=500, blank=True)
    cors_expose_headers = models.CharField(
        "Access-Control-Expose-Headers", max_length=500, blank=True)
    cors_max_age = models.CharField("Access-Control-Max-Age", max_length=12, blank=True)
    referer_mode = models.CharField(
        _("Referer check"), max_length=5, choices=RefererMode.choices, default=RefererMode.OFF)
    referer_domains = models.TextField(
        _("Referer domains"), blank=True, help_text=_("One domain a line; *.example.com "
                                                       "covers its sub-domains."))
    referer_allow_empty = models.BooleanField(
        _("allow an empty Referer"), default=True,
        help_text=_("By default a request without Referer bypasses the domain check."))
    ip_blacklist = models.TextField(
        _("IP blacklist"), blank=True, help_text=_("One IP address or network (CIDR) a line."))
    ua_whitelist = models.TextField(
        _("User-Agent whitelist"), blank=True,
        help_text=_("One entry a line; when the list is not empty, only User-Agents containing "
                    "one of them are served."))
    force_https = models.BooleanField(
        _("forced HTTPS"), default=False,
        help_text=_("Plain HTTP requests are answered with a redirect to https://."))
    https_access = models.BooleanField(
        _("HTTPS access"), default=False,
        help_text=_("The edge completes TLS for the domain with the bound certificate."))
    https_certificate = models.ForeignKey(
        Certificate, verbose_name=_("certificate"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="bound_settings")
    html_minify = models.BooleanField(_("HTML minification"), default=False)
    combine_js_css = models.BooleanField(_("JS/CSS combining"), default=False)
    param_follow = models.BooleanField(
        _("parameter follow"), default=False,
        help_text=_("Cache different query strings separately; _upd and _upv then have no "
                    "effect."))
    # The Access page (delivery/views/edge_access.py): region restriction, origin
    # authentication, the external-links switch.
    region_mode = models.CharField(
        _("region restriction"), max_length=5, choices=RegionMode.choices,
        default=RegionMode.OFF)
    regions = models.TextField(
        _("countries/regions"), blank=True,
        help_text=_("ISO 3166 two-letter codes (CN, US, JP...), one a line."))
    origin_auth_url = models.CharField(
        _("auth URL"), max_length=1024, blank=True,
        help_text=_("http:// or https://; empty turns origin authentication off."))
    origin_auth_timeout = models.PositiveSmallIntegerField(
        _("timeout (seconds)"), default=3, help_text=_("1 to 10 seconds."))
    origin_auth_timeout_refuses = models.BooleanField(
        _("refuse on timeout"), default=True,
        help_text=_("On: a request whose check times out is refused (403). Off: it is "
                    "served."))
    external_links = models.BooleanField(
        _("external links"), default=True,
        help_text=_("Off: every request of the domain is answered 405."))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("updated by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("delivery settings")
        verbose_name_plural = _("delivery settings")

    def __str__(self) -> str:
        return str(self._meta.verbose_name)

    @classmethod
    def for_domain(cls, domain: Domain) -> DeliverySettings:
        """The domain's row, created with the defaults the first time it is asked for."""
        row, _created = cls.objects.get_or_create(domain=domain)
        return row


class ImageVersion(models.Model):
    """A custom image version: `<file URL><separator><name>` serves the file processed by
    `params` (a URL-parameter string such as `/fw/300/format/webp`)."""

    domain = models.ForeignKey(
        "console.Domain", verbose_name=_("domain"), on_delete=models.PROTECT,
        related_name="image_versions")
    name = models.CharField(_("name"), max_length=32)
    params = models.CharField(_("processing"), max_length=400)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["domain", "name"]
        verbose_name = _("image version")
        verbose_name_plural = _("image versions")
        constraints = [models.UniqueConstraint(fields=["domain", "name"],
                                               name="image_version_name_once_a_domain")]

    def __str__(self) -> str:
        return f"{self.name} = {self.params}"


class RuleSet(models.Model):
    """An ordered list of rewrite rules; one of them is published to the edge at a time."""

    domain = models.ForeignKey(
        "console.Domain", verbose_name=_("domain"), on_delete=models.PROTECT,
        related_name="rule_sets")
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("updated by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["domain", "name"]
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        constraints = [models.UniqueConstraint(fields=["domain", "name"],
                                               name="rule_set_name_once_a_domain")]

    def __str__(self) -> str:
        return self.name

    def specs(self) -> list[JSONObject]:
        """The rules as the edge's JSON list, in order: `{pattern, rule, break, state,
        test_addresses}`."""
        return [rule.as_spec() for rule in self.rules.all()]


class RuleState(models.TextChoices):
    """The public page's three states of a rule (cdn/edgerules.md, "状态")."""

    ENABLED = "enabled", _("enabled")
    OFF = "off", _("off")
    TEST = "test", _("in test")


class Rule(models.Model):
    """One rewrite rule (content-delivery.md, "Rewrite rule"). A new rule is in test: it then
    applies only to requests from its test addresses (one address or network a line) and to
    those carrying `X-svc-Rewrite-Preview: true`; enabled, to every request; off, to none."""

    rule_set = models.ForeignKey(
        RuleSet, verbose_name=_("rule set"), on_delete=models.CASCADE, related_name="rules")
    position = models.PositiveIntegerField(pgettext_lazy("position", "order"))
    pattern = models.TextField(_("pattern"), blank=True)
    rule = models.TextField(_("rule"))
    breaks = models.BooleanField(_("break"), default=False)
    state = models.CharField(_("state"), max_length=7, choices=RuleState.choices,
                             default=RuleState.TEST)
    test_addresses = models.TextField(
        _("test addresses"), blank=True,
        help_text=_("One IP address or network (CIDR) a line: the requests a rule in test "
                    "applies to."))

    class Meta:
        ordering = ["rule_set", "position", "id"]
        verbose_name = _("rule")
        verbose_name_plural = _("rules")

    def __str__(self) -> str:
        return f"{self.rule_set_id}#{self.position}: {self.pattern} -> {self.rule}"

    def addresses(self) -> list[str]:
        return [line.strip() for line in self.test_addresses.splitlines() if line.strip()]

    def as_spec(self) -> JSONObject:
        return {"pattern": self.pattern, "rule": self.rule, "break": self.breaks,
                "state": self.state, "test_addresses": [*self.addresses()]}


class PurgeSource(models.TextChoices):
    MANUAL = "manual", _("Purge page")
    FILE_REPLACED = "replaced", _("File replaced")
    FILE_DELETED = "deleted", _("File deleted")
    AUTOMATIC = "automatic", _("Automatic")


class PurgeStatus(models.TextChoices):
    PENDING = "pending", _("Waiting")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Done")
    FAILED = "failed", _("Failed, will retry")
    REFUSED = "refused", _("Refused")


class PurgeErrorKind(models.TextChoices):
    """Why the provider did not take a purge, worded for the history: api/purge.md's 406 and
    its six 401 hint texts, each told apart (`delivery.client.PURGE_AUTH_REASONS`)."""

    RATE_LIMITED = "rate_limited", _(
        "The provider refused more than 600 URLs a minute (406); it will be sent again "
        "later.")
    NEED_AUTHORIZATION = "need_authorization", _(
        "The provider received no Authorization header (401).")
    NEED_DATE = "need_date", _("The provider received no Date header (401).")
    USER_NOT_EXISTS = "user_not_exists", _(
        "The provider does not know the storage operator (401): check the operator's name.")
    BUCKET_NOT_EXISTS = "bucket_not_exists", _(
        "The provider does not know the storage service (401): check the service name.")
    DATE_OFFSET = "date_offset", _(
        "The provider found the Date more than 30 minutes off its clock (401): check this "
        "server's clock.")
    SIGN_ERROR = "sign_error", _(
        "The provider found the signature wrong (401): check the operator's password.")
    UNAUTHORIZED = "unauthorized", _("The provider refused the credentials.")
    NO_ANSWER = "no_answer", _("The provider did not answer; it will be sent again later.")
    SERVER = "server", _("The provider failed (5xx); it will be sent again later.")
    REFUSED = "refused", _("The provider refused the request.")


class PurgeRequest(models.Model):
    """One cache refresh: the URLs, who or what asked, and the provider's answer.

    Written before the call (status `pending`), so a crash between the two leaves a request
    that the beat job sends later; `attempted_at` is what the 600-URLs-a-minute window counts.

    `domains` are the domains of ours its URLs touch (a manual refresh may span several, or
    none we know); `domain` is set when the request concerns exactly one, as the automatic
    purge of a file on a one-domain service does.
    """

    domain = models.ForeignKey(
        "console.Domain", verbose_name=_("domain"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+")
    domains = models.ManyToManyField(
        "console.Domain", verbose_name=_("domains touched"), blank=True, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")
    source = models.CharField(_("source"), max_length=10, choices=PurgeSource.choices)
    path = models.CharField(_("file path"), max_length=1024, blank=True)
    urls = models.TextField(_("URLs"))
    url_count = models.PositiveIntegerField(_("number of URLs"))
    status = models.CharField(
        _("status"), max_length=10, choices=PurgeStatus.choices, default=PurgeStatus.PENDING,
        db_index=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    attempted_at = models.DateTimeField(_("last attempt at"), null=True, blank=True,
                                        db_index=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    invalid_domains = models.JSONField(_("URLs of invalid domains"), default=list, blank=True)
    answer = models.TextField(_("provider answer"), blank=True)
    error = models.TextField(_("error"), blank=True)
    # What `error` says, for people: the history and the page show its translated label.
    error_kind = models.CharField(_("kind of error"), max_length=20, blank=True,
                                  choices=PurgeErrorKind.choices)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("purge request")
        verbose_name_plural = _("purge requests")

    def __str__(self) -> str:
        return f"purge #{self.pk} ({self.url_count} URLs, {self.status})"

    def url_list(self) -> list[str]:
        return [url for url in self.urls.split("\n") if url]


class PublishStatus(models.TextChoices):
    PENDING = "pending", _("Sending")
    OK = "ok", _("Published")
    FAILED = "failed", _("Failed")


class PublishedConfig(models.Model):
    """What was sent to the edge, when, by whom, and how it went.

    `config` is the JSON sent with the token secret replaced by a mask: secrets never go to
    the database. `secret_fingerprint` tells whether the domain's secret has changed since.
    Publishing goes section by section (the console's panels): `changed` names the sections
    that differ from the domain's last successful publication, `answers` holds the provider's
    answer per section sent (`{"ok": bool, "answer": ...}`); one failed section leaves the
    record failed ("not published") until a retry has sent it.
    """

    domain = models.ForeignKey(
        "console.Domain", verbose_name=_("domain"), on_delete=models.PROTECT,
        related_name="publications")
    published_at = models.DateTimeField(_("published at"), auto_now_add=True, db_index=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("published by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")
    rule_set = models.ForeignKey(
        RuleSet, verbose_name=_("rule set"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="publications")
    rule_set_name = models.CharField(_("rule set name"), max_length=100, blank=True)
    target = models.CharField(_("target"), max_length=200)
    config = models.JSONField(_("configuration sent"))
    secret_fingerprint = models.CharField(_("secret fingerprint"), max_length=16, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=PublishStatus.choices, default=PublishStatus.PENDING)
    answer = models.JSONField(_("edge answer"), null=True, blank=True)
    changed = models.JSONField(_("sections changed"), default=list, blank=True)
    answers = models.JSONField(_("answers per section"), default=dict, blank=True)
    retried_at = models.DateTimeField(_("last retried at"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        ordering = ["-published_at", "-id"]
        verbose_name = _("published configuration")
        verbose_name_plural = _("published configurations")

    def __str__(self) -> str:
        return f"publish #{self.pk} ({self.status})"


class RefreshKind(models.TextChoices):
    """The console's refresh operations (cdn/refresh.md); URL refresh stays a PurgeRequest."""

    RULE = "rule", _("Rule refresh")
    PREHEAT = "preheat", _("URL preheat")
    SITE = "site", _("Whole-site refresh")


class RefreshState(models.TextChoices):
    SENDING = "sending", _("Sending")
    ACCEPTED = "accepted", _("Accepted")
    PARTLY = "partly", _("Partly refused")
    REFUSED = "refused", _("Refused")
    FAILED = "failed", _("Not sent")


class RefreshOperation(models.Model):
    """One rule refresh, preheat or whole-site refresh sent to the console, kept here longer
    than the provider's 3 days of operation records.

    Written before the call (`sending`); `items` are the URLs or patterns as sent, `answers`
    the console's answer per item (`{"url", "code", "status"}`, code 1 = accepted) and
    `error` why nothing was sent when the call failed. `domain` is the domain the page was
    on: every item is on a domain of its service.
    """

    domain = models.ForeignKey(
        "console.Domain", verbose_name=_("domain"), on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("kind"), max_length=7, choices=RefreshKind.choices)
    items = models.JSONField(_("URLs or patterns"), default=list)
    answers = models.JSONField(_("answers per item"), default=list, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=RefreshState.choices,
                              default=RefreshState.SENDING)
    error = models.TextField(_("error"), blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("refresh operation")
        verbose_name_plural = _("refresh operations")

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({len(self.items)} items, {self.status})"


class SecuritySettings(models.Model):
    """The security panel of a domain of an own-origin (CDN) service: the WAF, the request
    size limit and the IP access limit rules (DECISIONS.md, "Documented console behaviour").
    Saved here, sent to the edge on the next publish; a storage domain has none.

    The rules are one a line, `<path pattern> <count> ban <seconds>` or `... delay <seconds>`
    (delivery.services.security reads them)."""

    domain = models.OneToOneField(
        "console.Domain", verbose_name=_("domain"), on_delete=models.PROTECT,
        related_name="security_settings")
    waf_enabled = models.BooleanField(
        _("WAF"), default=False,
        help_text=_("Refuse requests that look like SQL injection, cross-site scripting, "
                    "cross-site requests, remote file inclusion, path traversal or a known "
                    "scanner (403)."))
    max_body_mb = models.PositiveIntegerField(
        _("request size limit (MB)"), default=512,
        help_text=_("A request whose body is larger is refused with 413 before its body is "
                    "read; 1 to 10240 MB."))
    ip_limit_rules = models.TextField(
        _("IP access limit rules"), blank=True,
        help_text=_("One rule a line: a path pattern (* is any run of characters), the number "
                    "of requests an address may make in 60 s, then \"ban <seconds>\" (at "
                    "least 60) or \"delay <seconds>\" (1 to 30). Example: /login* 10 ban 600"))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("updated by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")

    class Meta:
        default_permissions = ()  # changed by whoever may change the delivery settings
        verbose_name = _("security settings")
        verbose_name_plural = _("security settings")

    def __str__(self) -> str:
        return str(self._meta.verbose_name)

    @classmethod
    def for_domain(cls, domain: Domain) -> SecuritySettings:
        """The domain's row, created with the defaults the first time it is asked for."""
        row, _created = cls.objects.get_or_create(domain=domain)
        return row
