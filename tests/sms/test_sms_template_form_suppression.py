"""The template form marks an industry template to skip the suppression list (audited as the
list's button is); a marketing template always skips it, so its form says so instead of asking."""

from __future__ import annotations

import pytest
from django.urls import reverse

from backoffice.models import AuditEntry
from sms.models import Template
from tests.sms.conftest import DRAFTS

pytestmark = pytest.mark.django_db

MARKETING = {**DRAFTS["plain"], "type": "marketing"}


def audit_entries() -> list[str]:
    return list(AuditEntry.objects.filter(app="sms", action="template.respect_suppression")
                .order_by("id").values_list("summary", flat=True))


def test_a_new_industry_template_can_be_created_skipping_the_list(operator_client, provider):
    operator_client.post(reverse("sms:template_create"),
                         {**DRAFTS["code"], "respect_suppression": "on"})

    template = Template.objects.get()
    assert template.respect_suppression and template.respects_suppression
    assert audit_entries() == [f"template {template.provider_id}: True"]


def test_a_new_industry_template_left_unticked_sends_to_everybody(operator_client, provider):
    operator_client.post(reverse("sms:template_create"), DRAFTS["code"])

    template = Template.objects.get()
    assert not template.respects_suppression
    assert audit_entries() == []


def test_a_refused_template_marks_nothing(operator_client, provider):
    response = operator_client.post(
        reverse("sms:template_create"),
        {**DRAFTS["code"], "title": "", "respect_suppression": "on"})

    assert response.status_code == 200 and "title" in response.context["form"].errors
    assert not Template.objects.exists() and audit_entries() == []


def test_editing_an_industry_template_changes_its_choice_and_audits_it(
    operator_client, sms_template
):
    template = sms_template()
    url = reverse("sms:template_edit", args=[template.pk])
    page = operator_client.get(url).content.decode()
    assert 'name="respect_suppression"' in page and 'id="suppression-always"' not in page

    operator_client.post(url, {**DRAFTS["code"], "respect_suppression": "on"})
    template.refresh_from_db()
    assert template.respect_suppression
    operator_client.post(url, DRAFTS["code"])  # unticked
    template.refresh_from_db()
    assert not template.respect_suppression
    assert audit_entries() == [f"template {template.provider_id}: True",
                               f"template {template.provider_id}: False"]


def test_saving_without_changing_the_choice_writes_no_audit_entry(operator_client,
                                                                  sms_template):
    template = sms_template()
    operator_client.post(reverse("sms:template_edit", args=[template.pk]), DRAFTS["code"])

    assert audit_entries() == []


def test_a_marketing_templates_form_says_it_always_skips_the_list(operator_client,
                                                                 sms_template):
    template = sms_template("plain")
    url = reverse("sms:template_edit", args=[template.pk])
    page = operator_client.get(url).content.decode()

    assert 'name="respect_suppression"' not in page
    assert "A marketing template always skips numbers on the suppression list." in page
    # A value sent anyway (an old page, a script) changes nothing: the list always applies.
    operator_client.post(url, {**MARKETING, "respect_suppression": "on"})
    template.refresh_from_db()
    assert not template.respect_suppression and template.respects_suppression
    assert audit_entries() == []


def test_the_choice_and_the_note_read_in_chinese(operator_client, sms_template):
    template = sms_template("plain")
    page = operator_client.get(reverse("sms:template_edit", args=[template.pk]),
                               HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    new = operator_client.get(reverse("sms:template_create"),
                              HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    assert "营销模板总是跳过屏蔽名单中的号码。" in page
    assert "营销模板总是跳过屏蔽名单中的号码" in new  # hidden until "marketing" is chosen
    assert "行业模板可选" in new


def test_a_new_template_is_stored_with_its_choice_or_not_at_all(provider, monkeypatch):
    """One service call: the provider's answer and the choice are written in one transaction,
    so a failure storing the choice leaves no template that sends to the list by mistake (the
    next sync brings the provider's template back, unmarked, for staff to decide)."""
    from sms import rules, services
    from sms.services import template_ops

    def broken(template, respect):
        raise RuntimeError("database went away")

    monkeypatch.setattr(template_ops, "set_respect_suppression", broken)
    with pytest.raises(RuntimeError):
        services.create_template(rules.TemplateDraft(**DRAFTS["code"]), respect_suppression=True)

    assert not Template.objects.exists()
