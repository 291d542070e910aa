"""Every back-office app has the same rooms (ARCHITECTURE.md, docs/architecture.md "Layout"): a
module that fits none of them is either one of the pure modules the import contracts keep free
of Django, or in the wrong place."""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("sms", "topup", "storage", "media", "delivery")
ROOMS = {
    "__init__.py", "apps.py", "models.py", "client.py", "rules.py", "services", "tasks.py",
    "views", "forms.py", "api", "admin.py", "urls.py", "api_urls.py", "api_schema_urls.py",
    "management", "dashboard.py", "demo.py", "schedule.py", "texts.py", "conf.py",
    "receivers.py", "file_actions.py", "migrations", "templates", "templatetags", "locale",
    "static", "demo",
}
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
    strays = [path.name for path in entries(app)
              if path.name not in ROOMS and f"{app}.{path.stem}" not in pure]
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
    access = (ROOT / app / "views" / "access.py").read_text()
    # `needs` is the guard over the app's ACCESS, or a decorator built on it (storage's adds
    # the "not configured" page for an account without a storage service).
    assert "needs = access_guard(ACCESS)" in access or (
        "= access_guard(ACCESS)" in access and "def needs(" in access)


@pytest.mark.parametrize("app", APPS)
def test_every_access_module_has_the_same_shape(app: str) -> None:
    """The guard over `ACCESS` (the app's `access_<app>`), the templates' `abilities(user)`, a
    docstring saying who may read and who may act, and permission names as constants: an app
    permission named by its action, a model permission as Django's verb and the model."""
    access = importlib.import_module(f"{app}.views.access")
    assert f"{app}.access_{app}" == access.ACCESS
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
    services = ROOT / app / "services"
    assert (services / "counts.py").is_file()
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
