"""How the audit log says an entry in the reader's language: the app, the action, the object
and a one-line summary, the same words on the page and in the CSV export.

An entry is evidence under a hash chain (`audit_chain`), so what was recorded stays as it was
written, in English, and is shown apart as "recorded details". The words a person reads are
made at display time from the entry's codes: every action code the services record has a
label and a summary sentence here (a test reads the sources for codes without one), and the
object's type is the translated name of its model.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.apps import apps
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from backoffice.models import AuditEntry

APP_LABELS: dict[str, Promise] = {
    "auth": gettext_lazy("Accounts and sign-in"),
    "sms": gettext_lazy("SMS"),
    "topup": gettext_lazy("Mobile-data top-up"),
    "storage": gettext_lazy("Object storage"),
    "delivery": gettext_lazy("Content delivery"),
    "console": gettext_lazy("Services"),
    "media": gettext_lazy("Media processing"),
}

# action code: (label, summary). The summary may name %(object)s, the entry's object in words.
ACTIONS: dict[str, tuple[Promise, Promise]] = {
    # sign-in and accounts
    "login": (gettext_lazy("Signed in"), gettext_lazy("%(object)s signed in.")),
    "login_failed": (gettext_lazy("Sign-in refused"),
                     gettext_lazy("A sign-in was refused.")),
    "lockout": (gettext_lazy("Locked out"),
                gettext_lazy("Too many failed sign-ins: the account is locked for a while.")),
    "login.second_factor": (gettext_lazy("Second factor accepted"),
                            gettext_lazy("%(object)s gave a valid second-factor code.")),
    "login_failures.clear": (gettext_lazy("Failed sign-ins cleared (unlock)"),
                             gettext_lazy("The failed sign-ins of %(object)s were cleared.")),
    "group_membership": (gettext_lazy("Group membership changed"),
                         gettext_lazy("The groups of %(object)s changed.")),
    "user.superuser": (gettext_lazy("Superuser status changed"),
                       gettext_lazy("The superuser status of %(object)s changed.")),
    "user.staff": (gettext_lazy("Staff status changed"),
                   gettext_lazy("The staff status of %(object)s changed.")),
    "user.active": (gettext_lazy("Account activated or deactivated"),
                    gettext_lazy("%(object)s was activated or deactivated.")),
    "user.permissions": (gettext_lazy("A user's permissions changed"),
                         gettext_lazy("The permissions of %(object)s changed.")),
    "group.permissions": (gettext_lazy("A group's permissions changed"),
                          gettext_lazy("The permissions of %(object)s changed.")),
    "2fa.enrol": (gettext_lazy("Authenticator set up"),
                  gettext_lazy("%(object)s set up an authenticator.")),
    "2fa.device_add": (gettext_lazy("Authenticator added"),
                       gettext_lazy("An authenticator of %(object)s was added.")),
    "2fa.device_remove": (gettext_lazy("Second factor removed"),
                          gettext_lazy("A second factor of %(object)s was removed.")),
    "2fa.recovery_codes": (gettext_lazy("Recovery codes made"),
                           gettext_lazy("A new set of recovery codes for %(object)s.")),
    "2fa.recovery_code_used": (gettext_lazy("Recovery code used or removed"),
                               gettext_lazy("A recovery code of %(object)s was used.")),
    # services (console)
    "services.refresh": (gettext_lazy("Services read from the provider"),
                         gettext_lazy("The list of services was read from the provider.")),
    "service.save": (gettext_lazy("Service saved"), gettext_lazy("%(object)s was saved.")),
    "service.remove": (gettext_lazy("Service record removed"),
                       gettext_lazy("%(object)s was removed from the back-office.")),
    "mirror.publish": (gettext_lazy("Mirror settings published"),
                       gettext_lazy("The mirror settings of %(object)s were published.")),
    "mirror.move": (gettext_lazy("Mirror storage changed"),
                    gettext_lazy("The mirror storage of %(object)s changed.")),
    "origins.publish": (gettext_lazy("Origins published"),
                        gettext_lazy("The origins of %(object)s were published.")),
    "origin.add": (gettext_lazy("Origin added"),
                   gettext_lazy("An origin was added to %(object)s.")),
    "origin.remove": (gettext_lazy("Origin removed"),
                      gettext_lazy("An origin was removed from %(object)s.")),
    "domain.publish": (gettext_lazy("Domain published"),
                       gettext_lazy("%(object)s was published.")),
    "domain.add": (gettext_lazy("Domain added"),
                   gettext_lazy("A domain was added to %(object)s.")),
    "domain.remove": (gettext_lazy("Domain removed"),
                      gettext_lazy("A domain was removed from %(object)s.")),
    # content delivery
    "ruleset.save": (gettext_lazy("Rule set saved"), gettext_lazy("%(object)s was saved.")),
    "publish": (gettext_lazy("Rules published"),
                gettext_lazy("Rules were published for %(object)s.")),
    "publish.retry": (gettext_lazy("Publication retried"),
                      gettext_lazy("The publication for %(object)s was tried again.")),
    "purge": (gettext_lazy("Cache purged"), gettext_lazy("Addresses were purged: %(object)s.")),
    "refresh.rule": (gettext_lazy("Cache refreshed by pattern"),
                     gettext_lazy("A refresh by pattern: %(object)s.")),
    "refresh.preheat": (gettext_lazy("Cache preheated"),
                        gettext_lazy("Addresses were preheated: %(object)s.")),
    "refresh.site": (gettext_lazy("Whole site refreshed"),
                     gettext_lazy("A whole-site refresh: %(object)s.")),
    "certificate.upload": (gettext_lazy("Certificate uploaded"),
                           gettext_lazy("A certificate was uploaded: %(object)s.")),
    "certificate.bind": (gettext_lazy("HTTPS settings changed"),
                         gettext_lazy("The certificate and HTTPS switches of %(object)s "
                                      "changed.")),
    "certificate.delete": (gettext_lazy("Certificate deleted"),
                           gettext_lazy("%(object)s was deleted.")),
    # SMS
    "template.create": (gettext_lazy("Template created"),
                        gettext_lazy("%(object)s was created and sent for review.")),
    "template.edit": (gettext_lazy("Template changed"), gettext_lazy("%(object)s was changed.")),
    "template.delete": (gettext_lazy("Template deleted"),
                        gettext_lazy("%(object)s was deleted.")),
    "template.respect_suppression": (
        gettext_lazy("Suppression setting of a template changed"),
        gettext_lazy("Whether %(object)s respects the suppression list changed.")),
    "messages.archive": (gettext_lazy("Month of messages archived"),
                         gettext_lazy("A month of messages past the retention was archived as "
                                      "CSV (%(object)s) and removed from the table.")),
    "messages.archive.download": (gettext_lazy("Archived messages downloaded"),
                                  gettext_lazy("%(object)s was downloaded.")),
    "words.add": (gettext_lazy("Blocked words added"),
                  gettext_lazy("Words were added to the blocked word list.")),
    "words.remove": (gettext_lazy("Blocked word removed"),
                     gettext_lazy("A word was removed from the blocked word list.")),
    "campaign.confirm": (gettext_lazy("Campaign confirmed"),
                         gettext_lazy("%(object)s was confirmed.")),
    "campaign.window_override": (gettext_lazy("Sending window overridden"),
                                 gettext_lazy("%(object)s sends outside the sending window.")),
    "campaign.reschedule": (gettext_lazy("Campaign rescheduled"),
                            gettext_lazy("The start of %(object)s was moved.")),
    "campaign.start": (gettext_lazy("Campaign started"), gettext_lazy("%(object)s started.")),
    "campaign.cancel": (gettext_lazy("Campaign cancelled"),
                        gettext_lazy("%(object)s was cancelled.")),
    "campaign.resume": (gettext_lazy("Campaign resumed"), gettext_lazy("%(object)s goes on.")),
    "suppression.add": (gettext_lazy("Number suppressed"),
                        gettext_lazy("%(object)s was added to the suppression list.")),
    "suppression.remove": (gettext_lazy("Number no longer suppressed"),
                           gettext_lazy("%(object)s was removed from the suppression list.")),
    "suppression.add_invalid": (
        gettext_lazy("Invalid numbers suppressed"),
        gettext_lazy("The invalid numbers of %(object)s were added to the suppression list.")),
    "suppression.import": (gettext_lazy("Suppression list imported"),
                           gettext_lazy("%(object)s was imported into the suppression list.")),
    # top-up
    "product.create": (gettext_lazy("Product added"), gettext_lazy("%(object)s was added.")),
    "product.price": (gettext_lazy("Product price changed"),
                      gettext_lazy("The price of %(object)s changed.")),
    "product.change": (gettext_lazy("Product changed"), gettext_lazy("%(object)s changed.")),
    "order.place": (gettext_lazy("Top-up ordered"), gettext_lazy("%(object)s was placed.")),
    "order.manual_outcome": (gettext_lazy("Order outcome confirmed by hand"),
                             gettext_lazy("The outcome of %(object)s was confirmed by hand.")),
    "bulk.confirm": (gettext_lazy("Bulk top-up confirmed"),
                     gettext_lazy("%(object)s was confirmed.")),
    "api_token.create": (gettext_lazy("API token created"),
                         gettext_lazy("An API token was created.")),
    "api_token.revoke": (gettext_lazy("API token revoked"),
                         gettext_lazy("%(object)s was revoked.")),
    "api_token.refused": (gettext_lazy("API request refused"),
                          gettext_lazy("A request with %(object)s was refused.")),
    # object storage
    "folder.remove": (gettext_lazy("Folder removed"), gettext_lazy("%(object)s was removed.")),
    "folder.delete_tree": (gettext_lazy("Folder and its files deletion started"),
                           gettext_lazy("Deleting %(object)s with every file in it began.")),
    "folder.delete_tree.end": (gettext_lazy("Folder and its files deletion ended"),
                               gettext_lazy("Deleting %(object)s with its files ended.")),
    "file.delete": (gettext_lazy("File deleted"), gettext_lazy("%(object)s was deleted.")),
    "file.copy": (gettext_lazy("File copied"), gettext_lazy("%(object)s was copied.")),
    "file.move": (gettext_lazy("File moved"), gettext_lazy("%(object)s was moved.")),
    "file.rename": (gettext_lazy("File renamed"), gettext_lazy("%(object)s was renamed.")),
    "folder.copy": (gettext_lazy("Folder copy started"),
                    gettext_lazy("Copying %(object)s with every file in it began.")),
    "folder.copy.end": (gettext_lazy("Folder copy ended"),
                        gettext_lazy("Copying %(object)s with its files ended.")),
    "folder.move": (gettext_lazy("Folder move started"),
                    gettext_lazy("Moving %(object)s with every file in it began.")),
    "folder.move.end": (gettext_lazy("Folder move ended"),
                        gettext_lazy("Moving %(object)s with its files ended.")),
    "file.metadata": (gettext_lazy("File metadata changed"),
                      gettext_lazy("The metadata of %(object)s changed.")),
    "file.secret": (gettext_lazy("File secret set or removed"),
                    gettext_lazy("The secret of %(object)s was set or removed.")),
    "file.upload": (gettext_lazy("File uploaded from the browser"),
                    gettext_lazy("%(object)s was uploaded from the browser.")),
}


@cache
def _model_names() -> dict[str, Promise | str]:
    return {model._meta.model_name or "": model._meta.verbose_name or ""
            for model in apps.get_models()}


def app_label(code: str) -> str:
    return str(APP_LABELS.get(code, _("Other")))


def action_label(code: str) -> str:
    known = ACTIONS.get(code)
    return str(known[0]) if known else _("Other action")


def object_words(entry: AuditEntry) -> str:
    """The object as a person reads it: the model's name and the record's number, or the
    identifier as recorded (a mobile number, a file's path, a user name)."""
    if entry.object_type:
        name = _model_names().get(entry.object_type)
        kind = str(name) if name is not None else _("record")
        return _("%(kind)s #%(id)s") % {"kind": kind, "id": entry.object_id}
    return entry.object_id or entry.actor_name or _("(nothing named)")


def summary(entry: AuditEntry) -> str:
    known = ACTIONS.get(entry.action)
    if known is None:
        return _("An action of %(app)s on %(object)s.") % {
            "app": app_label(entry.app), "object": object_words(entry)}
    return str(capfirst(str(known[1]) % {"object": object_words(entry)}))


@dataclass(frozen=True)
class EntryWords:
    """One entry as the page's row and the CSV's line say it."""

    entry: AuditEntry
    app: str
    action: str
    object: str
    summary: str
    outcome: str


def words(entry: AuditEntry) -> EntryWords:
    return EntryWords(entry=entry, app=app_label(entry.app), action=action_label(entry.action),
                      object=object_words(entry), summary=summary(entry),
                      outcome=str(entry.get_outcome_display()))
