"""Demo data for `make run` (hook: `load(stdout)`): idempotent, talks to the sandbox.

- the sandbox's products with its prices (kept as they are when they already exist, so that
  staff edits survive a restart);
- the sandbox's callback address pointed at this back-office (WEB_PORT, default 8000);
- a balance snapshot, so that the balance page and the tile have a figure;
- three demo orders the first time only, so the order pages are not empty.
"""

from __future__ import annotations

import os
from decimal import Decimal
from typing import TextIO

import requests
from django.conf import settings
from django.contrib.auth import get_user_model

from backoffice.operations.provider import ProviderNotConfigured
from topup.models import Order, OrderSource, Product, SnapshotSource
from topup.rules import parse_product_code
from topup.services import OrderRequest, TopupError, place_order, take_snapshot

# The sandbox's catalogue (DECISIONS "Top-up"): code -> price in yuan.
SANDBOX_PRODUCTS: dict[str, Decimal] = {
    "CMCC_10": Decimal("2.85"),
    "CMCC_30": Decimal("4.75"),
    "CMCC_100": Decimal("9.50"),
    "CUCC_20": Decimal("2.85"),
    "CUCC_50": Decimal("5.70"),
    "CTCC_10": Decimal("1.90"),
    "CTCC_30": Decimal("4.75"),
}
DEMO_ORDERS = (("13800138000", "CMCC_10"), ("13012345678", "CUCC_20"),
               ("13312345678", "CTCC_30"))


def callback_url() -> str:
    port = os.environ.get("WEB_PORT", "8000")
    return f"http://127.0.0.1:{port}/api/topup/callback/"


def load_products() -> int:
    created = 0
    for code, price in SANDBOX_PRODUCTS.items():
        parsed = parse_product_code(code)
        _product, was_created = Product.objects.get_or_create(
            code=code, defaults={"carrier": parsed.carrier.value, "size_mb": parsed.megabytes,
                                 "price": price, "active": True})
        created += was_created
    return created


def point_callbacks_here(control_url: str) -> None:
    response = requests.post(f"{control_url}/topup/settings",
                             json={"callback_url": callback_url()}, timeout=10)
    response.raise_for_status()


def load(stdout: TextIO) -> None:
    created = load_products()
    stdout.write(f"  top-up: {created} products added, {len(SANDBOX_PRODUCTS) - created} kept\n")
    control_url = settings.PROVIDER.get("sandbox_control_url")
    if not control_url:
        stdout.write("  top-up: SANDBOX_CONTROL_URL not set; callback address left as is\n")
    else:
        try:
            point_callbacks_here(control_url)
            stdout.write(f"  top-up: sandbox callbacks go to {callback_url()}\n")
        except requests.RequestException as error:
            stdout.write(f"  top-up: could not set the callback address: {error}\n")
    try:
        snapshot = take_snapshot(SnapshotSource.SCHEDULE)
        stdout.write(f"  top-up: available balance {snapshot.avail_balance} yuan\n")
    except (TopupError, ProviderNotConfigured) as error:
        stdout.write(f"  top-up: balance not recorded: {error}\n")
        return
    if not Order.objects.exists():
        user = get_user_model().objects.filter(username="demo").first()
        for mobile, code in DEMO_ORDERS:
            place_order(OrderRequest(mobile=mobile, product_code=code), requested_by=user,
                        source=OrderSource.SINGLE)
        stdout.write(f"  top-up: {len(DEMO_ORDERS)} demo orders placed\n")
