"""A product's price is what money moves on: every change is audited with the old and the new
price, from the product page or the admin; a new product is audited with its price."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.models import AuditEntry
from topup.models import Product

pytestmark = pytest.mark.django_db


def form(product: Product, **changes: object) -> dict[str, object]:
    data = {"code": product.code, "carrier": product.carrier, "size_mb": product.size_mb,
            "price": product.price, "active": "on" if product.active else ""}
    data.update(changes)
    return data


def test_a_price_change_on_the_product_page_names_old_and_new(operator, products):
    product = next(iter(products.values()))
    old = product.price
    client = Client()
    client.force_login(operator)
    response = client.post(reverse("topup:product_edit", args=[product.pk]),
                           form(product, price="99.50"))
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="product.price")
    assert (entry.actor_name, entry.object_id, entry.summary) == (
        "operator", str(product.pk), f"{product.code}: price {old} -> 99.50")


def test_a_change_that_keeps_the_price_is_audited_as_a_change(operator, products):
    product = next(iter(products.values()))
    client = Client()
    client.force_login(operator)
    client.post(reverse("topup:product_edit", args=[product.pk]), form(product, active=""))
    assert not AuditEntry.objects.filter(action="product.price").exists()
    assert AuditEntry.objects.get(action="product.change").summary == (
        f"{product.code}: taken off sale")


def test_a_new_product_is_audited_with_its_price(operator):
    client = Client()
    client.force_login(operator)
    response = client.post(reverse("topup:product_new"), {
        "code": "CMCC_7", "carrier": "CMCC", "size_mb": 7, "price": "3.10", "active": "on"})
    assert response.status_code == 302
    assert AuditEntry.objects.get(action="product.create").summary == (
        "CMCC_7: price 3.10, on sale")


def test_a_price_changed_in_the_admin_is_audited(django_user_model, products):
    product = next(iter(products.values()))
    root = django_user_model.objects.create_superuser("root", password=None)
    client = Client()
    client.force_login(root)
    response = client.post(f"/admin/topup/product/{product.pk}/change/",
                           form(product, price="12.00"))
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="product.price")
    assert entry.actor_name == "root"
    assert Product.objects.get(pk=product.pk).price == Decimal("12.00")
