"""Saving a rule set from its editor: the set, its rules renumbered 1..n in the chosen order."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from delivery.forms import BaseRuleFormSet, RuleSetForm
from delivery.models import RuleSet


def save_rule_set(form: RuleSetForm, formset: BaseRuleFormSet, user: Any) -> RuleSet:
    """Both must be valid. Deleted rules go, the others are saved with positions 1..n."""
    with transaction.atomic():
        rule_set = form.save(commit=False)
        rule_set.updated_by = user if getattr(user, "pk", None) else None
        rule_set.save()
        formset.instance = rule_set
        ordered = formset.kept_forms_in_order()
        formset.save(commit=False)
        for rule in formset.deleted_objects:
            rule.delete()
        for number, rule_form in enumerate(ordered, start=1):
            rule = rule_form.instance
            rule.rule_set = rule_set
            rule.position = number
            rule.save()
    return rule_set
