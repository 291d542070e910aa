"""Styles come only from our static files: the Content-Security-Policy allows no inline style
(`style-src 'self'`), so no template may hold a style attribute or a <style> block, and no
script may write one. DRF's browsable API is off in production (JSON only) and, where it is on
(DEBUG without HTTPS), its pages and its login keep to the same policy."""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import pytest
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer

from tests.foundation.test_production_profile import run_manage

ROOT = Path(__file__).resolve().parents[2]
PRINT_RENDERERS = ("from django.conf import settings; "
                   "print(settings.REST_FRAMEWORK['DEFAULT_RENDERER_CLASSES'])")


def our_files(pattern: str) -> list[Path]:
    return [path for path in ROOT.glob(pattern)
            if not {".venv", "sandbox", "var", "site"} & set(path.relative_to(ROOT).parts)]


@pytest.mark.django_db
def test_the_policy_allows_styles_only_from_our_files(client, make_user):
    client.force_login(make_user("ann", "SMS operators"))
    for url in ("/", "/accounts/login/", "/admin/login/", "/api/auth/login/"):
        policy = client.get(url)["Content-Security-Policy"]
        assert re.findall(r"style-src ([^;]*)", policy) == ["'self'"], url


def test_no_template_holds_a_style_attribute_or_block():
    offenders = [str(path.relative_to(ROOT)) for path in our_files("**/templates/**/*.html")
                 if re.search(r"<style\b|\sstyle\s*=", path.read_text())]
    assert offenders == []


def test_no_script_writes_a_style_attribute():
    """Scripts set `element.style.x` (the DOM's properties, which the policy allows), never
    the attribute nor markup holding one."""
    offenders = [str(path.relative_to(ROOT)) for path in our_files("static/**/*.js")
                 if re.search(r"setAttribute\(\s*[\"']style|\sstyle\s*=\s*[\"\\\\]|<style",
                              path.read_text())]
    assert offenders == []


@pytest.mark.parametrize(("profile", "browsable"), [
    ({"DEBUG": "false"}, False),
    ({"DEBUG": "true", "HTTPS": "true"}, False),
    ({"DEBUG": "false", "HTTPS": "true"}, False),
    ({"DEBUG": "true"}, True),
])
def test_the_browsable_api_is_on_only_while_developing(profile, browsable):
    result = run_manage("shell", "-c", PRINT_RENDERERS, SECRET_KEY=secrets.token_urlsafe(50),
                        **profile)
    assert result.returncode == 0, result.stderr
    assert "JSONRenderer" in result.stdout
    assert ("BrowsableAPIRenderer" in result.stdout) is browsable


@pytest.mark.django_db
def test_a_browser_asking_for_html_gets_json_from_the_api(client, make_user):
    client.force_login(make_user("tina", "Top-up operators"))
    answer = client.get("/api/topup/orders/X1/",
                        HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert answer.status_code == 404 and answer["Content-Type"] == "application/json"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_browsable_api_keeps_to_the_policy_where_it_is_on(page, live_server, staff_login,
                                                              monkeypatch):
    """The `page` fixture fails the test on any report of the policy: DRF's own page had an
    inline style block and an onclick sign-out, its login page style attributes."""
    from topup.api.orders import OrderCreateView

    # As with DEBUG: the views take their renderers when their module is imported.
    monkeypatch.setattr(OrderCreateView, "renderer_classes",
                        [JSONRenderer, BrowsableAPIRenderer])
    page.goto(f"{live_server.url}/api/auth/login/")
    assert page.locator("#id_username").is_visible()
    staff_login("tina", groups=("Top-up operators",))

    page.goto(f"{live_server.url}/api/topup/orders/")
    assert "Order Create" in page.title()
    page.click("#api-sign-out")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/api/topup/orders/")
    assert page.locator("#api-sign-out").count() == 0  # signed out


def test_no_admin_turns_off_both_action_bars():
    """Django's change list writes its one inline style block only then."""
    from django.contrib import admin

    both_off = [type(model_admin).__name__ for model_admin in admin.site._registry.values()
                if not model_admin.actions_on_top and not model_admin.actions_on_bottom]
    assert both_off == []
