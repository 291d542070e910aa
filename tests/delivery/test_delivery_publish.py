"""Publishing the settings, versions and a rule set to the real sandbox edge, and what is
kept on record (never the secret)."""

from __future__ import annotations

from typing import Any

import pytest

from console.models import Domain, Service
from console.services import default_domain
from delivery import services
from delivery.models import PublishedConfig, PublishStatus, Rule, RuleSet
from delivery.services.edgeconfig import OWN_ORIGIN_SECTIONS, SECRET_MASK, SECTIONS
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db


def test_every_setting_reaches_the_edge(edge: Edge, publish: Any) -> None:
    record = publish(
        token_protection=True, separator="_", cors_allow_origin="*",
        cors_max_age="600", referer_mode="allow", referer_domains="shop.example.com\n",
        referer_allow_empty=False, ip_blacklist="10.0.0.0/8", ua_whitelist="Mozilla",
        html_minify=True, combine_js_css=True, param_follow=True,
        versions={"thumb": "/fw/200"},
        rules=[{"pattern": "^/a$", "rule": "/b", "break": True, "state": "enabled"}])
    config = edge.config()
    assert config["token_protection"] is True
    assert config["token_secret"] == edge.secret
    assert config["separator"] == "_"
    assert config["versions"] == {"thumb": "/fw/200"}
    assert config["rules"] == [{"pattern": "^/a$", "rule": "/b", "break": True,
                                "state": "enabled", "test_addresses": []}]
    assert config["cors"] == {"Access-Control-Allow-Origin": "*", "Access-Control-Max-Age": "600"}
    assert config["referer"] == {"mode": "allow", "domains": ["shop.example.com"],
                                 "deny_empty": True}
    assert config["ip_blacklist"] == ["10.0.0.0/8"]
    # "containing Mozilla" is the console pattern *Mozilla*, which the edge keeps as a regex
    assert config["ua_whitelist"] == ["/^.*Mozilla.*$/"]
    # forced HTTPS needs HTTPS access and a certificate: tests/delivery/test_delivery_https.py
    assert (config["force_https"], config["html_minify"], config["combine"],
            config["param_follow"]) == (False, True, True, True)
    assert record.status == PublishStatus.OK
    assert record.rule_set_name == "test rules"


def test_the_record_keeps_a_fingerprint_never_the_secret(edge: Edge, publish: Any) -> None:
    record = publish(token_protection=True)
    stored = PublishedConfig.objects.get(pk=record.pk)
    assert stored.config["token"] == {"enabled": True, "secret": SECRET_MASK}
    assert stored.answers["token"]["ok"] is True
    assert edge.secret not in str(stored.config) + str(stored.answers)
    domain = default_domain()
    assert stored.secret_fingerprint == services.current_secret_fingerprint(domain)
    assert not services.secret_changed_since_publish(
        domain, services.current_secret_fingerprint(domain))


def test_a_rule_set_with_errors_is_not_published(edge: Edge) -> None:
    rule_set = RuleSet.objects.create(domain=default_domain(), name="broken")
    Rule.objects.create(rule_set=rule_set, position=1, pattern="", rule="/ok", state="enabled")
    Rule.objects.create(rule_set=rule_set, position=2, pattern="", rule="$NOPE(1)",
                        state="enabled")
    with pytest.raises(services.PublishBlocked) as caught:
        services.publish(domain=default_domain(), user=None, rule_set=rule_set)
    assert list(caught.value.errors) == [2]
    assert not PublishedConfig.objects.exists()
    assert edge.config()["rules"] == []


def test_publishing_without_a_rule_set_clears_the_rules(edge: Edge, publish: Any) -> None:
    publish(rules=[{"rule": "/x"}])
    assert len(edge.config()["rules"]) == 1
    services.publish(domain=default_domain(), user=None, rule_set=None)
    assert edge.config()["rules"] == []


def test_an_unreachable_console_is_recorded_as_failed(edge: Edge, settings: Any) -> None:
    settings.PROVIDER["console"]["console_url"] = "http://127.0.0.1:9"
    with pytest.raises(services.PublishFailed) as caught:
        services.publish(domain=default_domain(), user=None, rule_set=None)
    assert caught.value.failed[0] == "token"
    record = PublishedConfig.objects.get()
    assert record.status == PublishStatus.FAILED
    assert "no answer" in record.answers["token"]["answer"]
    # The console is not answering: the other sections are marked, not tried one by one.
    assert "not sent" in record.answers["optimise"]["answer"]


def test_the_target_is_swappable(db: Any, settings: Any) -> None:
    settings.PROVIDER["delivery"] = {"delivery_url": "http://cdn.example.com",
                                     "purge_url": "http://purge.example.com",
                                     "token_secret": "s3cret"}
    service = Service.objects.create(name="test-bucket", from_environment=True)
    domain = Domain.objects.create(service=service, name="cdn.example.com",
                                   from_environment=True)

    class PrintedTarget:
        name = "printed for a person"

        def __init__(self) -> None:
            self.sent: dict[str, Any] = {}

        def put_section(self, domain: Domain, section: str, value: Any) -> dict[str, Any]:
            self.sent[section] = value
            return {"section": section}

    target = PrintedTarget()
    record = services.publish(domain=domain, user=None, rule_set=None, target=target)
    assert record.target == "printed for a person"
    assert target.sent["token"] == {"enabled": False, "secret": "s3cret"}
    assert list(target.sent) == [name for name in SECTIONS if name not in OWN_ORIGIN_SECTIONS]
    assert record.config["token"]["secret"] == SECRET_MASK
