"""Two domains of one storage service, side by side: each has its own settings, versions, rule
sets, secret and publications; a rule set published for one acts at the real sandbox edge for
that domain only; a file's automatic purge covers its URLs on both; the switcher remembers each
person's domain; a publication whose section failed is retried."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from console.models import Domain
from console.services import console_client, default_domain
from delivery import services
from delivery.client import localhost_route
from delivery.forms import RuleSetForm
from delivery.models import DeliverySettings, PublishedConfig, PublishStatus, Rule, RuleSet
from delivery.rules import LinkError
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db
SHOP = "shop.sandbox.localhost"
SHOP_SECRET = "shop-secret-1"


@pytest.fixture
def shop(edge: Edge) -> Domain:
    """A second domain of the environment's bucket, bound at the console like a person would,
    reached at the sandbox edge's port under its own name."""
    main = default_domain()
    console_client().bind_domain(main.service.name, SHOP)
    port = urlsplit(edge.base_url).port
    return Domain.objects.create(service=main.service, name=SHOP,
                                 base_url=f"http://{SHOP}:{port}", token_secret=SHOP_SECRET)


def rule_set(domain: Domain, name: str, pattern: str, rule: str) -> RuleSet:
    found = RuleSet.objects.create(domain=domain, name=name)
    Rule.objects.create(rule_set=found, position=1, pattern=pattern, rule=rule, state="enabled")
    return found


def test_each_domain_has_its_own_settings_versions_and_secret(shop: Domain) -> None:
    main = default_domain()
    row = DeliverySettings.for_domain(shop)
    row.separator = "_"
    row.save()
    assert DeliverySettings.for_domain(main).separator == "!"
    assert services.file_url(shop, "/a.jpg", "_thumb") == f"{shop.base_url}/a.jpg_thumb"
    with pytest.raises(LinkError):
        services.file_url(main, "/a.jpg", "_thumb")
    signed_shop = services.signed_link(shop, "/a.jpg", services.Signing(2000000000))
    signed_main = services.signed_link(main, "/a.jpg", services.Signing(2000000000))
    assert signed_shop.split("?")[1] != signed_main.split("?")[1]
    assert services.current_secret_fingerprint(shop) != services.current_secret_fingerprint(main)
    assert services.default_host(shop) == SHOP


def test_rule_set_names_are_unique_per_domain_only(shop: Domain) -> None:
    rule_set(default_domain(), "site", "", "/x")
    rule_set(shop, "site", "", "/y")  # the same name on another domain is fine
    again = RuleSetForm({"name": "site"}, instance=RuleSet(domain=shop))
    assert not again.is_valid()
    assert "already has a rule set of that name" in again.errors["name"][0]


def test_a_rule_set_published_for_one_domain_acts_there_only(edge: Edge, shop: Domain) -> None:
    edge.upload("/page.txt", b"page")
    blocked = rule_set(shop, "shop rules", r"^/page\.txt$", "$EXIT(403)")
    record = services.publish(user=None, domain=shop, rule_set=blocked)
    assert record.status == PublishStatus.OK and record.domain == shop
    on_shop = services.fetch_from_edge(services.file_url(shop, "/page.txt"), force_https=False)
    assert on_shop.status == 403
    assert edge.get("/page.txt").status_code == 200  # the default domain is unaffected
    # Publishing the default domain leaves the shop's rules where they are.
    services.publish(user=None, domain=default_domain(), rule_set=None)
    again = services.fetch_from_edge(services.file_url(shop, "/page.txt"), force_https=False)
    assert again.status == 403
    assert services.last_publication(shop) == record


def test_a_rule_set_of_another_domain_is_not_published(shop: Domain) -> None:
    other = rule_set(default_domain(), "site", "", "/x")
    with pytest.raises(ValueError, match="another domain"):
        services.publish(user=None, domain=shop, rule_set=other)
    assert not PublishedConfig.objects.exists()


def test_a_file_is_purged_on_every_domain_of_its_service(
        shop: Domain, eager_tasks: None, django_capture_on_commit_callbacks: Any) -> None:
    main = default_domain()
    with django_capture_on_commit_callbacks(execute=True):
        request = services.purge_file_urls("/photos/a.jpg", service=main.service)
    assert request is not None
    assert set(request.domains.all()) == {main, shop}
    assert request.domain is None  # spans two domains
    assert request.url_list() == [services.file_url(main, "/photos/a.jpg"),
                                  services.file_url(shop, "/photos/a.jpg")]
    request.refresh_from_db()
    assert request.status == "sent"
    assert services.purges_of(shop).get() == request


def test_a_manual_purge_records_the_domains_its_urls_touch(shop: Domain) -> None:
    urls = [services.file_url(shop, "/a.txt"), "http://elsewhere.example.com/b.txt"]
    assert services.domains_of_urls(urls) == [shop]


def test_the_switcher_is_remembered_per_person(shop: Domain, make_user: Any) -> None:
    first, second = Client(), Client()
    first.force_login(make_user("first", "Content managers"))
    second.force_login(make_user("second", "Content managers"))
    page = first.get(reverse("delivery:settings")).content.decode()
    assert 'data-switcher' in page and f'<option value="{shop.pk}">{SHOP}</option>' in page
    answer = first.post(reverse("delivery:choose_domain"),
                        {"domain": shop.pk, "next": reverse("delivery:settings")})
    assert answer.status_code == 302 and answer["Location"] == reverse("delivery:settings")
    assert first.get(reverse("delivery:settings")).context["domain"] == shop
    assert first.get(reverse("delivery:publish")).context["domain"] == shop
    assert second.get(reverse("delivery:settings")).context["domain"] == default_domain()
    shown = first.get(reverse("delivery:index")).content.decode()
    assert f"domain <strong>{SHOP}</strong>" in shown


@pytest.mark.parametrize("value", ["", "abc", "999999"])
def test_the_switcher_refuses_a_domain_it_does_not_offer(shop: Domain, manager_client: Any,
                                                         value: str) -> None:
    answer = manager_client.post(reverse("delivery:choose_domain"), {"domain": value})
    assert answer.status_code == 400


def test_the_switcher_goes_back_only_within_the_site(shop: Domain, manager_client: Any) -> None:
    answer = manager_client.post(reverse("delivery:choose_domain"),
                                 {"domain": shop.pk, "next": "https://evil.example.com/"})
    assert answer["Location"] == reverse("delivery:index")


def test_rule_sets_and_their_pages_belong_to_the_chosen_domain(shop: Domain,
                                                               manager_client: Any) -> None:
    mine = rule_set(shop, "shop rules", "", "/y")
    theirs = rule_set(default_domain(), "main rules", "", "/x")
    listed = manager_client.get(reverse("delivery:ruleset_list")).context["rule_sets"]
    assert list(listed) == [theirs]
    assert manager_client.get(reverse("delivery:ruleset_edit", args=[mine.pk])).status_code == 404
    manager_client.post(reverse("delivery:choose_domain"), {"domain": shop.pk})
    listed = manager_client.get(reverse("delivery:ruleset_list")).context["rule_sets"]
    assert list(listed) == [mine]


def test_a_failed_section_leaves_the_publication_failed_until_retried(
        edge: Edge, manager_client: Any) -> None:
    domain = default_domain()
    fault = {"service": "console", "path": "/buckets/domains/config", "method": "PUT",
             "action": "status", "status": 503,
             "body": {"error_code": 10503, "message": "try again", "request": "r1"},
             "times": 1}
    assert edge.sandbox.control("POST", "/faults", fault).status_code == 201
    with pytest.raises(services.PublishFailed) as caught:
        services.publish(user=None, domain=domain, rule_set=None)
    record = caught.value.record
    assert caught.value.failed == ["token"]
    assert record.status == PublishStatus.FAILED
    assert record.answers["token"] == {"ok": False, "status": 503,
                                       "answer": record.answers["token"]["answer"]}
    assert "try again" in record.answers["token"]["answer"]
    assert all(record.answers[name]["ok"] for name in record.answers if name != "token")
    page = manager_client.get(reverse("delivery:publish")).content.decode()
    assert 'id="dl-publish-retry"' in page
    answer = manager_client.post(reverse("delivery:publish_retry", args=[record.pk]),
                                 follow=True)
    assert f"Publication #{record.pk} is now published." in answer.content.decode()
    record.refresh_from_db()
    assert record.status == PublishStatus.OK and record.retried_at is not None
    assert record.answers["token"]["ok"] is True


def test_only_the_changed_sections_are_named_and_an_older_failure_is_not_retried(
        edge: Edge) -> None:
    domain = default_domain()
    first = services.publish(user=None, domain=domain, rule_set=None)
    row = DeliverySettings.for_domain(domain)
    row.separator = "-"
    row.save()
    second = services.publish(user=None, domain=domain, rule_set=None)
    assert second.changed == ["separator"]
    PublishedConfig.objects.filter(pk=first.pk).update(status=PublishStatus.FAILED)
    first.refresh_from_db()
    with pytest.raises(services.RetryObsolete):
        services.retry(first, user=None)


def test_a_localhost_domain_is_fetched_through_the_loopback_address() -> None:
    url, headers = localhost_route("http://shop.sandbox.localhost:8105/a.jpg?x=1", {"A": "b"})
    assert url == "http://127.0.0.1:8105/a.jpg?x=1"
    assert headers == {"A": "b", "Host": "shop.sandbox.localhost:8105"}
    assert localhost_route("https://cdn.example.com/a.jpg", {}) == (
        "https://cdn.example.com/a.jpg", {})


def test_domains_of_a_service_limited_to_other_groups_are_not_offered(
        edge: Edge, make_user: Any) -> None:
    """Per-service limits reach the delivery pages: the switcher leaves such domains out, and
    a person whose chosen domain was closed to them falls back to one they may use."""
    from django.contrib.auth.models import Group

    from console.models import Service

    videos = Service.objects.create(name="videos-bucket", operator="o", operator_password="p")
    videos.groups.set([Group.objects.create(name="Videos team")])
    closed = Domain.objects.create(service=videos, name="videos.example.com")
    person = make_user("limited", "Content managers")
    browser = Client()
    browser.force_login(person)
    page = browser.get(reverse("delivery:settings")).content.decode()
    assert "videos.example.com" not in page
    answer = browser.post(reverse("delivery:choose_domain"), {"domain": closed.pk})
    assert answer.status_code == 400
    person.groups.add(Group.objects.get(name="Videos team"))
    person = type(person).objects.get(pk=person.pk)
    browser.force_login(person)
    assert "videos.example.com" in browser.get(reverse("delivery:settings")).content.decode()
