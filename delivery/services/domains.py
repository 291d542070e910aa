"""Which domain the delivery pages, jobs and commands work on.

Pages open on the domain the person last chose in the switcher (console's `Choice`,
remembered per user), else the default domain; commands and dashboard tiles take `--domain`
or a name. The switcher lists the domains of every service the person may see.
"""

from __future__ import annotations

from django.db.models import QuerySet

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from console.models import Domain
from console.services import choose, chosen_domain, default_domain, visible_services


def domain_choices(user: StaffUser) -> QuerySet[Domain]:
    """The domains the person may switch to, by service then name: those of the services open
    to them (a service limited to other groups is left out)."""
    return (Domain.objects.select_related("service")
            .filter(service__in=visible_services(user))
            .order_by("service__name", "name"))


def page_domain(user: StaffUser) -> Domain:
    """The person's chosen domain, else the default one; ProviderNotConfigured when the
    account has no domain at all."""
    return chosen_domain(user)


def named_domain(name: str | None) -> Domain:
    """A domain by its name (commands' `--domain`), the default domain without one.
    Domain.DoesNotExist for an unknown name, ProviderNotConfigured when none is configured."""
    if not name:
        return default_domain()
    return Domain.objects.select_related("service").get(name=name.strip().lower())


def choose_domain(user: StaffUser, domain: Domain) -> None:
    """Remember `domain` (and its service) as the person's choice, for every page."""
    choose(user, domain=domain)


__all__ = ["ProviderNotConfigured", "choose_domain", "domain_choices", "named_domain",
           "page_domain"]
