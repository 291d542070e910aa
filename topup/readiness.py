"""The top-up check of `/ready` (hook: `attention()`, read by
backoffice.operations.readiness as `topup.attention`): a provider code an operator must act on
(514, 519, 503, ...). Named under `degraded`, not `failed`: the host works, the provider
refuses our account, and taking hosts out of the load balancer would not help."""

from __future__ import annotations

from django.utils.translation import gettext

from topup.services import operator_attention


def attention() -> tuple[bool, str]:
    found = operator_attention()
    if found is None:
        return True, ""
    return False, gettext("code %(code)s on order %(custno)s: %(meaning)s %(action)s") % {
        "code": found.help.code, "custno": found.order.custno,
        "meaning": found.help.meaning, "action": found.help.action}
