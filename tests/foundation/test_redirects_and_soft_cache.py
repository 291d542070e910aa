"""Addresses taken from a request stay on this site; a cache that cannot be reached is a miss,
never an error (backoffice.security.redirects, backoffice.operations.soft_cache)."""

from __future__ import annotations

from django.test import RequestFactory, override_settings

from backoffice.operations import once_a_minute, soft_cache
from backoffice.security.redirects import came_from, safe_next

FACTORY = RequestFactory()
# Nothing listens on port 1: every call to this cache fails to connect.
UNREACHABLE_CACHE = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                 "LOCATION": "redis://127.0.0.1:1/0"}}


def test_a_next_field_on_this_site_is_followed():
    request = FACTORY.post("/x/", {"next": "/storage/?path=/a"})
    assert safe_next(request, "/fallback/") == "/storage/?path=/a"


def test_a_next_field_to_another_site_or_empty_falls_back():
    for target in ("https://evil.example/", "//evil.example/x", ""):
        request = FACTORY.get("/x/", {"next": target})
        assert safe_next(request, "/fallback/") == "/fallback/", target


def test_a_referer_from_another_site_is_not_offered_as_the_way_back():
    own = FACTORY.get("/x/", HTTP_REFERER="http://testserver/sms/campaigns/1/")
    other = FACTORY.get("/x/", HTTP_REFERER="https://evil.example/sms/")
    assert came_from(own, "/fallback/") == "http://testserver/sms/campaigns/1/"
    assert came_from(other, "/fallback/") == "/fallback/"


@override_settings(CACHES=UNREACHABLE_CACHE)
def test_an_unreachable_cache_reads_as_a_miss_and_a_write_is_dropped(caplog):
    once_a_minute.forget()
    soft_cache.write("figures", 1, 60)
    assert soft_cache.read("figures") is None
    assert soft_cache.add("figures", 1, 60) is None  # unknown, neither taken nor free
    soft_cache.delete("figures")
    # One line a minute while it stays down, not one per call.
    assert [record.levelname for record in caplog.records] == ["WARNING"]
    once_a_minute.forget()
