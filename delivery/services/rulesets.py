"""Rule sets from their editor: saving the set with its rules renumbered 1..n in the chosen
order, and deleting a set with its rules."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from backoffice.annotations import StaffUser
from backoffice.security.audit import audited
from delivery.models import Rule, RuleSet


@audited("delivery", "ruleset.save", lambda rule_set, kept, deleted, user: (
    rule_set, f"rule set {rule_set.name!r}: {len(kept)} rules kept, {len(deleted)} removed"))
def save_rule_set(
    rule_set: RuleSet, kept: Sequence[Rule], deleted: Sequence[Rule], user: StaffUser
) -> RuleSet:
    """Save the set and its rules in one transaction.

    `kept` are the rules to keep, new or changed, in the order chosen in the editor: they are
    stored with positions 1..n. `deleted` are stored rules the editor removed. The caller has
    validated everything; `user` (anonymous allowed) is recorded as the last editor.
    """
    with transaction.atomic():
        rule_set.updated_by = user if getattr(user, "pk", None) else None
        rule_set.save()
        for rule in deleted:
            if rule.pk is not None:
                rule.delete()
        for number, rule in enumerate(kept, start=1):
            rule.rule_set = rule_set
            rule.position = number
            rule.save()
    return rule_set


def delete_rule_set(rule_set: RuleSet) -> None:
    """Delete the set and its rules; the edge keeps what was last published until the next
    publish."""
    rule_set.delete()
