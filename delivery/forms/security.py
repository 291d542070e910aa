"""The security page's form (own-origin domains): WAF, request size limit, IP access limit
rules. Every problem is named at its field; a rule's by its line number."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from delivery.models import SecuritySettings
from delivery.services import MAX_BODY_MB, MIN_BODY_MB, LimitRulesError, parse_limit_rules


class SecurityForm(forms.ModelForm):  # type: ignore[type-arg]
    max_body_mb = forms.IntegerField(
        label=gettext_lazy("Request size limit (MB)"), min_value=MIN_BODY_MB,
        max_value=MAX_BODY_MB,
        help_text=gettext_lazy("A request whose body is larger is refused with 413 before its "
                               "body is read; 1 to 10240 MB (default 512)."))

    class Meta:
        model = SecuritySettings
        fields = ("waf_enabled", "max_body_mb", "ip_limit_rules")
        widgets = {"ip_limit_rules": forms.Textarea(attrs={"rows": 6, "spellcheck": "false"})}

    def clean_ip_limit_rules(self) -> str:
        text: str = self.cleaned_data.get("ip_limit_rules", "")
        try:
            parse_limit_rules(text)
        except LimitRulesError as error:
            raise ValidationError([
                _("Line %(line)s: %(problem)s") % {"line": line, "problem": problem}
                if line else problem
                for line, problem in error.problems]) from None
        return "\n".join(line.strip() for line in text.splitlines() if line.strip())
