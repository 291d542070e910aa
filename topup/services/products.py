"""Our product list: saving a product as staff entered it."""

from __future__ import annotations

from topup.models import Product


def save_product(product: Product) -> Product:
    """Store a new or changed product (the form has checked its fields)."""
    product.save()
    return product
