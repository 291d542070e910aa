"""Our product list: saving a product as staff entered it, audited (its price is what each
top-up costs)."""

from __future__ import annotations

from django.db import transaction

from backoffice.security.audit import record
from topup.models import Product


def _on_sale(active: bool) -> str:
    return "on sale" if active else "taken off sale"


def save_product(product: Product) -> Product:
    """Store a new or changed product (the form has checked its fields), with an audit entry:
    `product.create`, `product.price` when the price changes, `product.change` otherwise."""
    with transaction.atomic():
        before = (Product.objects.select_for_update().filter(pk=product.pk).first()
                  if product.pk is not None else None)
        product.save()
        if before is None:
            record("topup", "product.create", target=product,
                   summary=f"{product.code}: price {product.price}, {_on_sale(product.active)}")
            return product
        changes = [f"{field} {getattr(before, field)} -> {getattr(product, field)}"
                   for field in ("code", "carrier", "size_mb")
                   if getattr(before, field) != getattr(product, field)]
        if before.active != product.active:
            changes.append(_on_sale(product.active))
        if before.price != product.price:
            changes.insert(0, f"price {before.price} -> {product.price}")
            record("topup", "product.price", target=product,
                   summary=f"{product.code}: {', '.join(changes)}")
        elif changes:
            record("topup", "product.change", target=product,
                   summary=f"{product.code}: {', '.join(changes)}")
    return product
