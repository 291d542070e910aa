"""The rule set editor's forms: a rule set, and its rules as an inline formset (pattern, rule,
state and the addresses a rule in test applies to), each rule linted as the edge reads it."""

from __future__ import annotations

import ipaddress
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.forms import BaseInlineFormSet
from django.utils.translation import gettext_lazy as _

from delivery.models import Rule, RuleSet, RuleState
from delivery.texts import diagnostic_dict
from edgerules import lint


class RuleSetForm(forms.ModelForm[RuleSet]):
    """A rule set of the instance's domain (set by the page); names are unique per domain."""

    class Meta:
        model = RuleSet
        fields = ["name", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        taken = RuleSet.objects.filter(domain_id=self.instance.domain_id, name=name).exclude(
            pk=self.instance.pk)
        if taken.exists():
            raise ValidationError(_("This domain already has a rule set of that name."))
        return name


MAX_TEST_ADDRESSES = 20


class RuleForm(forms.ModelForm[Rule]):
    """One rule of the editor. A new rule is in test for the address the editor is used from
    (the public page: "平台会自动获取本地 IP 地址"), which may be changed."""

    class Meta:
        model = Rule
        fields = ["position", "pattern", "rule", "breaks", "state", "test_addresses"]
        widgets = {
            "position": forms.NumberInput(attrs={"class": "dl-position", "min": 1}),
            "pattern": forms.Textarea(attrs={"rows": 1, "class": "dl-code dl-pattern",
                                             "spellcheck": "false"}),
            "rule": forms.Textarea(attrs={"rows": 2, "class": "dl-code dl-rule",
                                          "spellcheck": "false"}),
            "state": forms.Select(attrs={"class": "dl-state"}),
            "test_addresses": forms.Textarea(attrs={"rows": 1, "class": "dl-addresses",
                                                    "spellcheck": "false"}),
        }

    def __init__(self, *args: Any, client_address: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.CharField, self.fields["pattern"]).strip = False
        cast(forms.CharField, self.fields["rule"]).strip = False
        self.fields["position"].required = False
        self.fields["state"].required = False
        if not self.instance.pk:
            self.initial.setdefault("state", RuleState.TEST)
            if client_address:
                self.initial.setdefault("test_addresses", client_address)

    def clean_test_addresses(self) -> str:
        """One address or CIDR network a line, at most 20; stored one a line, normalised."""
        text = str(self.cleaned_data.get("test_addresses") or "")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if len(lines) > MAX_TEST_ADDRESSES:
            raise ValidationError(_("At most %(limit)s test addresses.") % {
                "limit": MAX_TEST_ADDRESSES})
        cleaned = []
        for number, line in enumerate(lines, start=1):
            try:
                network = ipaddress.ip_network(line, strict=False)
            except ValueError:
                raise ValidationError(_("Line %(line)s: “%(value)s” is not an IP address or "
                                        "network (CIDR).") % {"line": number,
                                                              "value": line}) from None
            single = network.num_addresses == 1 and "/" not in line
            cleaned.append(str(network.network_address) if single else str(network))
        return "\n".join(dict.fromkeys(cleaned))

    def has_changed(self) -> bool:
        # The editor renumbers every row, blank ones included, and a new row comes with a
        # state and the editor's address: none of these alone is a rule.
        return any(name not in ("position", "state", "test_addresses")
                   for name in self.changed_data)

    def clean_state(self) -> str:
        """A rule sent without a state is in test, as a new rule is."""
        return str(self.cleaned_data.get("state") or RuleState.TEST)

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        rule, pattern = data.get("rule"), data.get("pattern", "")
        if rule is None:
            return data
        for diagnostic in lint(rule, pattern=pattern or ""):
            if diagnostic.severity != "error":
                continue
            target = "pattern" if diagnostic.field == "pattern" else "rule"
            self.add_error(target, str(diagnostic_dict(diagnostic)["text"]))
        return data


class BaseRuleFormSet(BaseInlineFormSet[Rule, RuleSet, "RuleForm"]):
    def kept_forms_in_order(self) -> list[RuleForm]:
        """Forms whose rule is kept, sorted by their order number (blank last, then as shown).
        Call after `is_valid()`."""
        kept = [(index, form) for index, form in enumerate(self.forms)
                if (form.instance.pk or form.has_changed())
                # Django's own (private) test, which django-stubs does not declare.
                and not self._should_delete_form(form)]  # type: ignore[attr-defined]
        kept.sort(key=lambda pair: (pair[1].cleaned_data.get("position") or 10**9, pair[0]))
        return [form for _index, form in kept]


# The factory builds a subclass of `formset`; its stub forgets which one.
RuleFormSet = cast(type[BaseRuleFormSet], forms.inlineformset_factory(
    RuleSet, Rule, form=RuleForm, formset=BaseRuleFormSet, extra=1, can_delete=True))
