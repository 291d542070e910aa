"""The top-up codes (field `code`, always a string) and the standard wording of each.

Only the codes that some input or rule of the emulator can produce are named here; the spec's
table lists others (422, 504, 508, 509, 513, 515, 520, 526, 531) that no request can cause.
"""

from __future__ import annotations

SUCCESS = "200"
IN_PROGRESS = "201"
CARRIER_TIMEOUT = "410"
ORDER_FAILED = "430"
SIGN_WRONG = "502"
BALANCE_INSUFFICIENT = "503"
MOBILE_ILLEGAL = "505"
PRODUCT_NOT_ALLOWED = "506"
PARAMETER_ABNORMAL = "507"
TOO_FREQUENT = "510"
MANUAL_CONFIRMATION = "511"
CUSTNO_DUPLICATED = "512"
IP_NOT_WHITELISTED = "514"
NO_SUCH_ORDER = "516"
MOBILE_UNRECOGNISED = "517"
CREDENTIALS_WRONG = "519"
TOKEN_INVALID = "527"
TOPUP_FAILED = "530"
CUSTNO_TOO_LONG = "532"
AES_WRONG = "533"

FAILURES = (ORDER_FAILED, TOPUP_FAILED)

# The `info` of an order's query answer and callback, by the order's code.
ORDER_INFO = {
    SUCCESS: "top-up succeeded",
    IN_PROGRESS: "top-up in progress",
    ORDER_FAILED: "order failed",
    TOPUP_FAILED: "top-up failed",
    MANUAL_CONFIRMATION: "internal exception; contact the provider to confirm the order",
}

# The `info` of a chargeOrder answer that created the order, by the code answered.
CHARGE_INFO = {
    SUCCESS: "order created",
    CARRIER_TIMEOUT: "carrier returned timeout; query the order to confirm",
    MANUAL_CONFIRMATION: "internal exception; query the order to confirm",
}
