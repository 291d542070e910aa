"""What each top-up code of sms-and-topup.md's table means to staff, and what to do about it.

Pages show a code with these words instead of the bare number ("514" became "our server's
address is not on the provider's whitelist: ask the provider's business contact to add it").
The codes an operator must act on (our account, address, credentials or balance, not one
order's number or product) are also named on the dashboard and in `/ready`
(`topup.readiness`, `topup.dashboard`, through `attention`): every order fails until someone does.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class CodeHelp:
    code: str
    meaning: Promise
    action: Promise
    operator_must_act: bool = False


_RETRY = _("Nothing to do: the back-office queries the order again on its own.")
_CHECK_ORDER = _("Check the number and the product, then top up again if the customer still "
                 "wants it.")
_CREDENTIALS = _("Check TOPUP_APPKEY and TOPUP_APPSECRET against the provider's console, then "
                 "restart the back-office.")
_CONTACT = _("Ask the provider's business contact; orders fail until it is settled.")

HELP: dict[str, CodeHelp] = {help.code: help for help in (
    CodeHelp("200", _("Top-up succeeded."), _("Nothing to do.")),
    CodeHelp("201", _("Top-up in progress at the provider."), _RETRY),
    CodeHelp("410", _("The carrier did not answer in time."), _RETRY),
    CodeHelp("422", _("The subscriber's line is not in a normal state (suspended, cancelled or "
                      "in arrears)."),
             _("Tell the customer; top up again once the line is in order.")),
    CodeHelp("430", _("The top-up failed."), _CHECK_ORDER),
    CodeHelp("502", _("The provider found our signature wrong."),
             _("Usually our token was replaced meanwhile; if it repeats, check the top-up "
               "credentials (TOPUP_APPKEY, TOPUP_APPSECRET)."), operator_must_act=True),
    CodeHelp("503", _("Our balance at the provider is too low."),
             _("Add funds in the provider's console; until then every order is refused."),
             operator_must_act=True),
    CodeHelp("504", _("The provider refuses our callback address."),
             _("Have the callback address registered with the provider's business contact."),
             operator_must_act=True),
    CodeHelp("505", _("The provider found the mobile number invalid."), _CHECK_ORDER),
    CodeHelp("506", _("This subscriber cannot order this product."),
             _("Choose another product for the number, or tell the customer.")),
    CodeHelp("507", _("The provider found a parameter of the request invalid."),
             _("Check the product's data period and networks, then top up again.")),
    CodeHelp("508", _("The provider did not accept our token."), _RETRY),
    CodeHelp("509", _("Our account is not authorised for this service."), _CONTACT,
             operator_must_act=True),
    CodeHelp("510", _("Too many queries: the provider asks us to slow down."), _RETRY),
    CodeHelp("511", _("The provider had an internal problem: the outcome must be confirmed by "
                      "a person."),
             _("Confirm the outcome with the provider, then record it in the manual queue.")),
    CodeHelp("512", _("The order number was already used."), _RETRY),
    CodeHelp("513", _("The carrier's request timed out."), _RETRY),
    CodeHelp("514", _("Our server's address is not on the provider's whitelist."),
             _("Ask the provider's business contact to add our outgoing address to the "
               "whitelist; until then every call is refused."), operator_must_act=True),
    CodeHelp("515", _("The provider does not know our customer account."), _CONTACT,
             operator_must_act=True),
    CodeHelp("516", _("The provider has no such order."), _RETRY),
    CodeHelp("517", _("The provider does not recognise the mobile number."), _CHECK_ORDER),
    CodeHelp("519", _("Our appkey or appsecret is wrong."), _CREDENTIALS, operator_must_act=True),
    CodeHelp("520", _("The product's promotion does not exist (any more)."),
             _("Choose another product, and update the product list.")),
    CodeHelp("526", _("Our contract with the provider is not valid."), _CONTACT,
             operator_must_act=True),
    CodeHelp("527", _("Our token expired."), _RETRY),
    CodeHelp("530", _("The top-up failed."), _CHECK_ORDER),
    CodeHelp("531", _("The provider could not verify our signature."), _CREDENTIALS,
             operator_must_act=True),
    CodeHelp("532", _("Our order number is too long (30 characters or more)."),
             _("Report it to the back-office's maintainers: our order numbers are shorter.")),
    CodeHelp("533", _("The provider could not decrypt the mobile number (AES)."), _CREDENTIALS,
             operator_must_act=True),
)}


def code_help(code: str) -> CodeHelp | None:
    """The words for a code, None for a code the table does not list (shown as it came)."""
    return HELP.get((code or "").strip())
