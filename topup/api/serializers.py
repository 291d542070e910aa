"""Shapes of the merchant API's requests and answers."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from topup.models import Order, ProdStandardChoice, ProdTimeChoice


class OrderCreateSerializer(serializers.Serializer[dict[str, object]]):
    mobile = serializers.CharField(
        max_length=20, help_text=_("Mainland mobile number, 11 digits, optionally +86."))
    product = serializers.CharField(max_length=40, help_text=_("Product code, e.g. CMCC_10."))
    prodtime = serializers.ChoiceField(
        choices=ProdTimeChoice.choices, required=False,
        help_text=_("0 = off-peak data, 1 = all-time data (default)."))
    prodstandard = serializers.ChoiceField(
        choices=ProdStandardChoice.choices, required=False,
        help_text=_("1 = 2G, 3 = 2G and 3G, 7 = all networks (default)."))
    allow_other_carrier = serializers.BooleanField(
        required=False, default=False,
        help_text=_("Allow a product of another carrier than the number's range (number "
                    "moved to another carrier)."))


class OrderSerializer(serializers.ModelSerializer[Order]):
    product = serializers.CharField(source="prodcode", help_text=_("Product code."))
    final = serializers.BooleanField(source="is_final", help_text=_(
        "True once the state is success or failed; it never changes after that."))

    class Meta:
        model = Order
        fields = [
            "custno", "mobile", "carrier", "product", "price", "prodtime", "prodstandard",
            "state", "final", "orderno", "last_code", "last_info", "source", "created_at",
            "submitted_at", "finished_at",
        ]
        read_only_fields = fields

