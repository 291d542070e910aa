"""Templates: mirror the provider's list, and create, edit and delete through the provider.

The provider is the authority on a template; our row is written only from its answers, so a
refused request leaves the stored template exactly as it was. A page's save is one call here:
the provider first (nothing of ours to undo when it refuses), then every row of ours in one
transaction, so a template is never stored without the suppression choice made with it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db import transaction
from django.db.models import Field
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.security.audit import audited
from sms import client as api
from sms import errors, rules
from sms.models import MessageType, Quota, Template, TemplateStatus
from sms.services.connection import latest_quota, record_quota, sms_client
from sms.services.words import blocked_word_in
from sms.verbatim import fit


class TemplateProblems(ValueError):
    """Local checks refused the template before any request; `problems` say why."""

    def __init__(self, problems: list[rules.Problem]) -> None:
        super().__init__("; ".join(problem.message for problem in problems))
        self.problems = problems


BLOCKED_WORD = "BLOCKED_WORD"


def _refuse_blocked_words(draft: rules.TemplateDraft) -> None:
    """A template holding a word of the merchant's list goes no further than the form."""
    found = blocked_word_in(title=draft.title, temp_sign=draft.temp_sign, content=draft.content)
    if found is not None:
        word, field = found
        raise TemplateProblems([rules.Problem(
            field, BLOCKED_WORD, f"{field} contains {word!r}, which is on the word list",
            params={"word": word, "field": field})])


@dataclass(frozen=True)
class EditOutcome:
    """What saving the edit form did: the template as stored, and whether the provider was
    asked to review it again (with changes, or unchanged) or nothing was sent."""

    CHANGED = "changed"
    RESUBMITTED = "resubmitted"
    UNCHANGED = "unchanged"

    template: Template
    what: str


@dataclass(frozen=True)
class TemplateSync:
    created: int
    updated: int
    removed: int
    quota: Quota | None = None  # the account's figures, when asked for with the list


def _fitted(name: str, value: str) -> str:
    """A provider value cut to its column, never a database error (see sms.verbatim)."""
    field = Template._meta.get_field(name)
    limit = field.max_length if isinstance(field, Field) else None
    return fit(value, limit, f"template {name}") if limit else value


def _store(remote: api.Template) -> Template:
    template, _created = Template.objects.update_or_create(
        provider_id=remote.id,
        defaults={
            "title": _fitted("title", remote.title),
            "temp_sign": _fitted("temp_sign", remote.temp_sign),
            "content": remote.content,
            "sign_location": _fitted("sign_location", remote.sign_location),
            "type": _fitted("type", remote.type),
            "report_type": _fitted("report_type", remote.report_type),
            "status": _fitted("status", remote.status),
            "provider_updated_at": remote.updated_at,
            "synced_at": timezone.now(),
            "removed_at": None,
        },
    )
    record_quota(remote.owner)
    return template


def sync_templates() -> TemplateSync:
    """Copy the provider's template list; templates it no longer lists are marked removed."""
    remote_templates = sms_client().list_templates()
    seen: set[int] = set()
    created = updated = 0
    with transaction.atomic():
        known = set(Template.objects.values_list("provider_id", flat=True))
        for remote in remote_templates:
            _store(remote)
            seen.add(remote.id)
            if remote.id in known:
                updated += 1
            else:
                created += 1
        removed = (
            Template.objects.filter(removed_at__isnull=True)
            .exclude(provider_id__in=seen)
            .update(removed_at=timezone.now())
        )
    return TemplateSync(created=created, updated=updated, removed=removed)


def sync_templates_and_quota() -> TemplateSync:
    """The template list, then the account's figures (the page's button, the command and the
    beat job): two reads of the provider, each stored as it comes."""
    return replace(sync_templates(), quota=refresh_quota())


def refresh_quota() -> Quota | None:
    """Fetch the account's figures: from a template answer, or the newest report record."""
    client = sms_client()
    for remote in client.list_templates():
        if remote.owner is not None:
            return record_quota(remote.owner)
    report = client.report(page=1, per_page=1)
    for message in report.messages:
        if message.owner is not None:
            return record_quota(message.owner)
    return latest_quota()


@audited("sms", "template.create",
         lambda draft, respect_suppression=False: (None, f"template {draft.title!r}"),
         result_target=lambda template: template)
def create_template(draft: rules.TemplateDraft, respect_suppression: bool = False) -> Template:
    """Check locally, then create at the provider (status `review`) and store the answer with
    the template's suppression choice (an industry one's; marketing ones always respect)."""
    problems = [problem for problem in rules.check_template(draft) if problem.is_error]
    if problems:
        raise TemplateProblems(problems)
    _refuse_blocked_words(draft)
    remote = sms_client().create_template(
        title=draft.title,
        content=draft.content,
        temp_sign=draft.temp_sign,
        # check_template above admitted only the client's literal values for these three.
        sign_location=draft.sign_location,  # type: ignore[arg-type]
        type=draft.type,  # type: ignore[arg-type]
        report_type=draft.report_type,  # type: ignore[arg-type]
    )
    with transaction.atomic():
        template = _store(remote)
        if respect_suppression:
            set_respect_suppression(template, True)
    return template


@audited("sms", "template.edit", lambda template, draft, respect_suppression=None: (
    template, f"template {draft.title!r}"))
def edit_template(template: Template, draft: rules.TemplateDraft,
                  respect_suppression: bool | None = None) -> EditOutcome:
    """Send the changed fields (the provider puts the template back under review), and store
    the answer with the suppression choice when it changed (None: not the form's to make).

    A rejected template saved without a change is resubmitted all the same, with an empty
    PATCH (the provider takes it back to review unchanged): saving is how staff ask for a
    second review. An approved or waiting template saved without a change is left alone: a
    call would only put a usable template back under review."""
    problems = [problem for problem in rules.check_template(draft) if problem.is_error]
    if problems:
        raise TemplateProblems(problems)
    _refuse_blocked_words(draft)
    changes = {
        name: getattr(draft, name)
        for name in ("title", "content", "temp_sign", "sign_location")
        if getattr(draft, name) != getattr(template, name)
    }
    resubmit = bool(changes) or template.status == TemplateStatus.DEFEAT
    remote = sms_client().edit_template(template.provider_id, **changes) if resubmit else None
    with transaction.atomic():
        if remote is not None:
            template = _store(remote)
        # Audited on its own, as the list's button, and only when it changes (no empty entries).
        if respect_suppression is not None and respect_suppression != template.respect_suppression:
            set_respect_suppression(template, respect_suppression)
    if not resubmit:
        return EditOutcome(template, EditOutcome.UNCHANGED)
    return EditOutcome(template, EditOutcome.CHANGED if changes else EditOutcome.RESUBMITTED)


@audited("sms", "template.delete", lambda template: (template, f"template {template.title!r}"))
def delete_template(template: Template) -> None:
    """Delete at the provider; the row stays (campaigns refer to it), marked removed.

    A template the provider no longer knows is already gone: that counts as deleted.
    """
    try:
        sms_client().delete_template(template.provider_id)
    except errors.TemplateNotFoundError:
        pass
    Template.objects.filter(pk=template.pk).update(removed_at=timezone.now())


@audited(
    "sms",
    "template.respect_suppression",
    lambda template, respect: (template, f"template {template.provider_id}: {respect}"),
)
def set_respect_suppression(template: Template, respect: bool) -> None:
    """Mark an industry template to respect the list, or not (marketing ones always do)."""
    Template.objects.filter(pk=template.pk).update(respect_suppression=respect)
    template.respect_suppression = respect


def draft_of(template: Template) -> rules.TemplateDraft:
    return rules.TemplateDraft(
        title=template.title,
        temp_sign=template.temp_sign,
        content=template.content,
        sign_location=template.sign_location,
        type=template.type,
        report_type=template.report_type,
    )


def send_blockers(template: Template, quota: Quota | None = None) -> list[str]:
    """Why a send with this template would be refused or fail, in the current language."""
    reasons: list[str] = []
    if template.removed_at is not None:
        reasons.append(_("The template was deleted at the provider."))
    elif template.status == TemplateStatus.REVIEW:
        reasons.append(_("Under review: the provider refuses sends (TEMPLATE_AUDITING)."))
    elif template.status == TemplateStatus.DEFEAT:
        reasons.append(_("Failed review: the provider refuses sends (TEMPLATE_FAILED)."))
    elif template.status != TemplateStatus.SUCCESS:
        reasons.append(
            _("Unknown status “%(status)s”: the provider may refuse sends.")
            % {"status": template.status}
        )
    if template.type == MessageType.MARKETING and not template.content.endswith(
        rules.UNSUBSCRIBE_SUFFIXES
    ):
        reasons.append(
            _("A marketing template without 退订回T, 退订回TD or 退订回N: every message will fail.")
        )
    if quota is not None and quota.left_for(template.report_type) <= 0:
        reasons.append(
            _("No quota left on the %(channel)s channel (INSUFFICIENT_FUNDS).")
            % {"channel": template.get_report_type_display()}
        )
    return reasons
