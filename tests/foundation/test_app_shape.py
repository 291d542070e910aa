"""Every back-office app has the same rooms (ARCHITECTURE.md, docs/architecture.md "Layout"): a
module that fits none of them is either one of the pure modules the import contracts keep free
of Django, or in the wrong place."""

from __future__ import annotations

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
    access = ROOT / app / "views" / "access.py"
    assert "needs = access_guard(" in access.read_text()
