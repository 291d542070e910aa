"""User-facing wording for console errors and the services pages' refusals.

`console.client` imports no Django and speaks English to developers; pages show staff the
translated sentences built here, with the console's own answer (its code and message) kept
beside them, since that is what the provider's support asks for.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from backoffice.operations.provider import ProviderNotConfigured
from console import client
from console.services.records import Reference


def console_error_text(error: Exception) -> str:
    if isinstance(error, ProviderNotConfigured):
        return gettext("The console is not configured: %(detail)s") % {"detail": error}
    if isinstance(error, client.ConsoleConnectionError):
        return gettext("The provider's console did not answer; try again later.")
    if isinstance(error, client.WrongCredentials):
        return gettext("The console refused CONSOLE_USERNAME and CONSOLE_PASSWORD.")
    if isinstance(error, client.ConsoleRefused):
        return gettext("The console refused: %(message)s (code %(code)s).") % {
            "message": error.message or "-", "code": error.error_code}
    if isinstance(error, client.ConsoleError):
        return gettext("The console's answer could not be read; try again later.")
    return str(error)


def references_text(found: list[Reference]) -> str:
    """"Still referenced by: files: 3, rule sets: 1." """
    parts = ", ".join(
        ngettext("%(name)s: %(count)d record", "%(name)s: %(count)d records", ref.count)
        % {"name": ref.name, "count": ref.count} for ref in found)
    return gettext("It cannot be removed; it is still referenced by %(parts)s.") % {
        "parts": parts}
