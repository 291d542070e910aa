"""Every back-office app has the same rooms (ARCHITECTURE.md, docs/architecture.md "Layout"): a
module that fits none of them is either one of the pure modules the import contracts keep free
of Django, or in the wrong place."""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path

import pytest

from backoffice.catalogue import MENU_PAGES, SERVICES

ROOT = Path(__file__).resolve().parents[2]
APPS = ("sms", "topup", "storage", "media", "delivery", "console")
ROOMS = {
    "__init__.py", "apps.py", "models.py", "models", "client.py", "rules.py", "services",
    "tasks.py", "views", "forms.py", "forms", "api", "admin.py", "urls.py", "api_urls.py",
    "api_schema_urls.py", "management", "dashboard.py", "demo.py", "schedule.py", "texts.py",
    "conf.py", "receivers.py", "file_actions.py", "readiness.py", "migrations", "templates",
    "templatetags", "locale", "static", "demo",
}
# Rooms only one app has, each placed by that app's layers contract in pyproject.toml: the
# console's sealed model field (below its models) and the helpers the other apps' data
# migrations use to attach old records to the environment's service (beside its models).
APP_ROOMS = {"console": {"sealed.py", "attaching.py"}}
PURE_CONTRACT = "Provider clients and pure rules import no Django"


def pure_modules() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    return {module for contract in contracts if contract["name"] == PURE_CONTRACT
            for module in contract["source_modules"]}


def entries(app: str) -> list[Path]:
    return [path for path in (ROOT / app).iterdir() if path.name != "__pycache__"]


@pytest.mark.parametrize("app", APPS)
def test_every_module_of_an_app_sits_in_a_room_or_is_checked_pure(app: str) -> None:
    pure = pure_modules()
    rooms = ROOMS | APP_ROOMS.get(app, set())
    strays = [path.name for path in entries(app)
              if path.name not in rooms and f"{app}.{path.stem}" not in pure]
    assert strays == []


@pytest.mark.parametrize("app", APPS)
def test_every_app_has_a_services_package_with_one_place_that_builds_its_client(
    app: str,
) -> None:
    assert (ROOT / app / "services" / "__init__.py").is_file()
    assert (ROOT / app / "services" / "connection.py").is_file()


@pytest.mark.parametrize("app", APPS)
def test_every_app_keeps_its_pages_in_a_views_package_with_its_access_guard(app: str) -> None:
    assert not (ROOT / app / "views.py").exists()
    access = ROOT / app / "views" / "access.py"
    # `needs` is the guard itself, or (storage: the "not configured" page when no service can
    # be reached) a wrapper around it: either way it is built on access_guard(ACCESS).
    text = access.read_text()
    assert "needs = access_guard(ACCESS)" in text or (
        "_guard = access_guard(ACCESS)" in text and "guarded = _guard(*permissions)" in text)


@pytest.mark.parametrize("app", APPS)
def test_every_access_module_has_the_same_shape(app: str) -> None:
    """The guard over `ACCESS` (the permission the menu and the dashboard name for the app in
    backoffice.catalogue: `access_<app>` for a provider service, `access_<what it opens>` for a
    menu page), the templates' `abilities(user)`, a docstring saying who may read and who may
    act, and permission names as constants: an app permission named by its action, a model
    permission as Django's verb and the model."""
    access = importlib.import_module(f"{app}.views.access")
    gates = {entry.app_label: entry.access_permission for entry in (*SERVICES, *MENU_PAGES)}
    assert gates[app] == access.ACCESS
    assert re.fullmatch(rf"{app}\.access_[a-z_]+", access.ACCESS)
    assert all(entry.access_permission == f"{entry.app_label}.access_{entry.app_label}"
               for entry in SERVICES)
    assert callable(access.needs) and callable(access.abilities)
    assert (access.__doc__ or "").startswith("Permission checks shared by the ")
    constants = {name: value for name, value in vars(access).items()
                 if name.isupper() and isinstance(value, str)}
    assert all(value.startswith(f"{app}.") for value in constants.values()), constants
    misnamed = [name for name, value in constants.items()
                if re.fullmatch(rf"{app}\.(add|change|delete|view)_[a-z]+", value)
                and name.replace("_", "").lower() != value.split(".")[1].replace("_", "")]
    assert misnamed == []


@pytest.mark.parametrize("app", APPS)
def test_every_app_counts_in_one_services_module_named_counts(app: str) -> None:
    """Its dashboard tile's figures, when it has a tile (the console app has none)."""
    services = ROOT / app / "services"
    assert (services / "counts.py").is_file() == (ROOT / app / "dashboard.py").is_file()
    assert [name for name in ("figures.py", "stats.py") if (services / name).exists()] == []


@pytest.mark.parametrize("app", APPS)
def test_every_app_words_its_problems_for_staff_in_texts(app: str) -> None:
    assert (ROOT / app / "texts.py").is_file()


MAX_MODULE_LINES = 600


def test_no_product_module_is_longer_than_a_newcomer_reads_at_one_sitting() -> None:
    packages = (*APPS, "backoffice", "edgerules", "providerkit", "sandbox", "scripts")
    long = [f"{path.relative_to(ROOT)}: {lines}"
            for package in packages for path in sorted((ROOT / package).glob("**/*.py"))
            if "migrations" not in path.parts
            and (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES]
    assert long == []
