"""Which carrier a mainland mobile number belongs to, from its number-segment prefix.

The emulator's own table (longest prefix wins), written from the carriers' published number
segments, including the virtual-operator segments 170x/162/165/167 that ride on each carrier.
A well-formed number in a segment of none of the three (192 China Broadnet, 140-144 data-only,
unassigned ones) is "not recognised" (517), which is different from a malformed one (505).
"""

from __future__ import annotations

import re

CMCC, CUCC, CTCC = "CMCC", "CUCC", "CTCC"

# Same number form as the SMS service (DECISIONS "SMS"): 11 digits, optional +86 / 86 in front.
MOBILE = re.compile(r"(?:\+?86)?(1[3-9]\d{9})")

PREFIXES: dict[str, str] = {
    **dict.fromkeys(
        ("134", "135", "136", "137", "138", "139", "147", "148", "150", "151", "152", "157",
         "158", "159", "165", "172", "178", "182", "183", "184", "187", "188", "195", "197",
         "198", "1703", "1705", "1706"), CMCC),
    **dict.fromkeys(
        ("130", "131", "132", "145", "146", "155", "156", "166", "167", "171", "175", "176",
         "185", "186", "196", "1704", "1707", "1708", "1709"), CUCC),
    **dict.fromkeys(
        ("133", "1349", "149", "153", "162", "173", "1740", "1741", "1742", "1743", "1744",
         "1745", "177", "180", "181", "189", "190", "191", "193", "199", "1700", "1701",
         "1702"), CTCC),
}


def normalise(mobile: str) -> str | None:
    """The 11-digit number, or None when the text is not one mainland mobile number."""
    match = MOBILE.fullmatch(mobile)
    return match.group(1) if match else None


def carrier_of(number: str) -> str | None:
    """CMCC, CUCC or CTCC for an 11-digit number; None when no carrier's segment holds it."""
    for length in (4, 3):
        carrier = PREFIXES.get(number[:length])
        if carrier is not None:
            return carrier
    return None
