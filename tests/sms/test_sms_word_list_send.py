"""Variable values are checked against the merchant's word list before anything is sent:
shared values and the values written after each number, named at the field; in English and
Chinese."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sms.models import BlockedWord, Campaign

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "said"), [
    ("en", "“违禁词” is on the merchant's word list: it may not be sent."),
    ("zh-hans", "“违禁词”在商户禁用词列表中：不得发送。"),
])
@pytest.mark.parametrize("where", ["shared", "per line"])
def test_a_listed_word_in_a_variable_value_is_refused_at_the_field(
        operator_client, sms_template, language, said, where):
    template = sms_template()
    BlockedWord.objects.create(word="违禁词")
    fields = {"template": template.pk, "recipients": "13800138000", "var1": "违禁词",
              "preview": "1"}
    if where == "per line":
        fields.update(recipients="13800138000,违禁词", var1="")
    operator_client.cookies["django_language"] = language

    response = operator_client.post(reverse("sms:send"), fields)

    field = "var1" if where == "shared" else "recipients"
    assert said in " ".join(response.context["form"].errors[field])
    assert not Campaign.objects.exists()
