"""The products the emulated provider sells: carrier + megabytes, at a merchant price.

The provider publishes no catalogue (DECISIONS "Top-up"); the sandbox's prices are the
carriers' retail prices less a 5 % merchant discount, which also gives amounts in odd fen so
that two-decimal arithmetic is exercised.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.topup.carriers import CMCC, CTCC, CUCC


@dataclass(frozen=True)
class Product:
    code: str
    carrier: str
    megabytes: int
    price_fen: int


PRODUCTS: dict[str, Product] = {
    product.code: product
    for product in (
        Product("CMCC_10", CMCC, 10, 285),     # retail 3 yuan
        Product("CMCC_30", CMCC, 30, 475),     # retail 5 yuan
        Product("CMCC_100", CMCC, 100, 950),   # retail 10 yuan
        Product("CUCC_20", CUCC, 20, 285),     # retail 3 yuan
        Product("CUCC_50", CUCC, 50, 570),     # retail 6 yuan
        Product("CTCC_10", CTCC, 10, 190),     # retail 2 yuan
        Product("CTCC_30", CTCC, 30, 475),     # retail 5 yuan
    )
}
