"""One confirmation step for every destructive or irreversible action.

An action view calls `confirmed(request)` first; until the request carries the confirmation
field it answers `confirmation_page(...)` instead of acting. The page says what will happen and
how many items it touches, and posts the same fields back to the same address with
`confirmed=1`. A plain form (an old button, a bookmarked page, a double click on the first
button) therefore lands on the question and never acts. The page is server-rendered, so it
works without JavaScript and under the Content-Security-Policy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext

CONFIRMED_FIELD = "confirmed"
# A long selection is named in part: the count in the question says how many there are.
ITEMS_SHOWN = 50


@dataclass(frozen=True)
class Confirmation:
    """What the confirmation page says and carries.

    `question` states the action with its count ("Cancel the 1,785 numbers not yet sent of
    campaign #12?"); `consequences` the sentences that follow (what is not affected, that it
    cannot be undone); `button` the danger button's label; `back_url` where "Go back" leads;
    `fields` the form values posted again with the confirmation (a list repeats the field);
    `items` names of what is touched, of which the first ITEMS_SHOWN are listed;
    `back_restores`: "Go back" leads to the form the question came from, which gets what was
    typed back (static/js/formkeep.js, from the tab's own storage).
    """

    question: str
    consequences: Sequence[str]
    button: str
    back_url: str
    fields: Mapping[str, str | Sequence[str]] = field(default_factory=dict)
    items: Sequence[str] = ()
    back_restores: bool = False


def confirmed(request: HttpRequest) -> bool:
    """Whether this request is the answer to the confirmation page."""
    return request.method == "POST" and request.POST.get(CONFIRMED_FIELD) == "1"


def confirmation_page(
    request: HttpRequest, confirmation: Confirmation, *, action_url: str | None = None
) -> HttpResponse:
    """The question, posting back to `action_url` (default: the address asked)."""
    hidden = [
        (name, value)
        for name, values in confirmation.fields.items()
        for value in ([values] if isinstance(values, str) else values)
    ]
    return render(request, "confirm.html", {
        "confirmation": confirmation,
        "action_url": action_url or request.path,
        "hidden": hidden,
        "items": confirmation.items[:ITEMS_SHOWN],
        "more_items": max(0, len(confirmation.items) - ITEMS_SHOWN),
    })


def confirmation_json(confirmation: Confirmation) -> dict[str, object]:
    """The same question for a page's script, where leaving the page would stop work it holds
    (files being sent from the browser): it shows it in place, in the `.confirm-card` look
    and with the same words, and sends the request again with `confirmed=1`."""
    more = max(0, len(confirmation.items) - ITEMS_SHOWN)
    return {
        "question": confirmation.question,
        "consequences": list(confirmation.consequences),
        "button": confirmation.button,
        "back": gettext("Go back: do nothing"),
        "items": list(confirmation.items[:ITEMS_SHOWN]),
        "more": ngettext("and %(n)s more", "and %(n)s more", more) % {"n": more} if more else "",
    }
