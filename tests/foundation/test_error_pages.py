"""Missing, refused and failed pages: in the site's layout and the reader's language, with the
reason when a view wrote one for staff, and never a developer's message."""

import pytest
from django.test import RequestFactory
from django.utils import translation
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator_client(client, make_user):
    client.force_login(make_user("tina", "Top-up operators"))
    return client


def test_an_unknown_address_gets_the_not_found_page_in_the_layout(operator_client):
    response = operator_client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page
    assert "Nothing is at /no/such/page/" in page
    assert 'data-menu="topup"' in page  # the menus are there, so staff can go on
    assert "Resolver404" not in page and 'id="error-reason"' not in page


def test_a_reason_written_for_staff_is_shown(operator_client):
    response = operator_client.get("/topup/reports/not-a-day/")
    assert response.status_code == 404
    assert "No report for not-a-day." in response.content.decode()


def test_a_day_without_a_report_says_so_too(operator_client):
    response = operator_client.get("/topup/reports/2026-01-31/")
    assert response.status_code == 404
    assert "No report for 2026-01-31." in response.content.decode()


def test_a_developers_message_is_not_shown(operator_client):
    response = operator_client.get("/topup/bulk/987654/")  # get_object_or_404
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page
    assert "matches the given query" not in page and 'id="error-reason"' not in page


def test_the_not_found_page_speaks_chinese(operator_client):
    response = operator_client.get("/topup/reports/not-a-day/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    page = response.content.decode()
    assert "页面不存在" in page and "返回仪表板" in page


def test_a_page_outside_ones_role_gets_the_refusal_page(client, make_user):
    client.force_login(make_user("sam", "SMS operators"))
    response = client.get("/topup/orders/")
    assert response.status_code == 403
    page = response.content.decode()
    assert "Access refused" in page and "staff group" in page
    assert 'data-menu="sms"' in page


def test_the_failure_page_renders_without_a_request_context():
    request = RequestFactory().get("/broken/")
    with translation.override("zh-hans"):
        response = server_error(request)
    assert response.status_code == 500
    page = response.content.decode()
    assert "出错了" in page and 'href="/"' in page
