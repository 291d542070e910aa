"""Dashboard tiles: the provider's last answer per service, plus each app's own figures.

An app adds figures by providing `<app>/dashboard.py` with
`figures(user) -> list[tuple[str, str]]` (label, value); this module finds it by name so that
the project does not have to know every app's internals.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from backoffice.models import ProviderContact
from backoffice.services import Service

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

logger = logging.getLogger(__name__)


@dataclass
class Tile:
    service: Service
    contact: ProviderContact | None
    figures: list[tuple[str, str]] = field(default_factory=list)
    figures_error: bool = False


def app_figures(service: Service, user: User | AnonymousUser) -> tuple[list[tuple[str, str]], bool]:
    module_name = f"{service.app_label}.dashboard"
    if importlib.util.find_spec(module_name) is None:
        return [], False
    try:
        return list(importlib.import_module(module_name).figures(user)), False
    except Exception:
        # One app's broken figures must not take the whole dashboard down.
        logger.exception("dashboard figures of %s failed", service.key)
        return [], True


def build_tiles(services: list[Service], user: User | AnonymousUser) -> list[Tile]:
    contacts = {c.service: c for c in ProviderContact.objects.filter(
        service__in=[s.key for s in services])}
    tiles = []
    for service in services:
        figures, failed = app_figures(service, user)
        tiles.append(Tile(service, contacts.get(service.key), figures, failed))
    return tiles
