"""The merchant API tokens page: list, create (the key shown once) and revoke; the old DRF
keys still accepted are listed for the administrators.

Creation is POST/redirect/GET: the new key rides to the next page view in the session, which
pops it, so a reload (or the browser's back and forward) shows the list without the key and
never makes a second token."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from backoffice.annotations import StaffRequest
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from topup import services
from topup.forms import ApiTokenForm
from topup.models import ApiToken
from topup.views.access import ADD_API_TOKEN, CHANGE_API_TOKEN, VIEW_API_TOKEN, abilities, needs

# The one-time value: the new key, from the creation's redirect to the GET that shows it.
NEW_KEY = "topup_new_api_token"


def _page(request: StaffRequest, form: ApiTokenForm, new_key: str = "",
          status: int = 200) -> HttpResponse:
    return render(request, "topup/api_tokens.html", {
        "form": form, "tokens": ApiToken.objects.select_related("user", "revoked_by"),
        "new_key": new_key,
        **abilities(request.user),
    }, status=status)


@needs(VIEW_API_TOKEN)
def token_list(request: StaffRequest) -> HttpResponse:
    if request.method != "POST":
        new_key = request.session.pop(NEW_KEY, "")
        response = _page(request, ApiTokenForm(), new_key=new_key if isinstance(new_key, str)
                         else "")
        if new_key:
            response["Cache-Control"] = "no-store"  # the key in no cache, nor in the history
        return response
    if not request.user.has_perm(ADD_API_TOKEN):
        return _page(request, ApiTokenForm(), status=403)
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        _token, key = services.create_token(
            user=request.user, name=form.cleaned_data["name"],
            scopes=form.cleaned_data["scopes"], days=form.cleaned_data["days"])
    except services.TokenInputError as error:
        form.add_error(error.field, error.message)
        return _page(request, form, status=400)
    # Kept only until the page it redirects to has shown it (the session pops it there).
    request.session[NEW_KEY] = key
    return redirect("topup:api_tokens")


@require_http_methods(["GET", "POST"])
@needs(CHANGE_API_TOKEN)
def token_revoke(request: StaffRequest, pk: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=pk)
    if token.revoked_at is not None:
        messages.info(request, _("Token %(name)s was already revoked.") % {"name": token.name})
        return redirect("topup:api_tokens")
    if not confirmed(request):
        return confirmation_page(request, Confirmation(
            question=_("Revoke the API token %(name)s (%(prefix)s…)?") % {
                "name": token.name, "prefix": token.prefix},
            consequences=[
                _("Every request made with it is refused from now on, including orders a "
                  "client is about to send."),
                _("This cannot be undone: the client needs a new token."),
            ],
            button=_("Revoke the token"),
            back_url=reverse("topup:api_tokens"),
        ))
    services.revoke_token(token, by=request.user)
    messages.success(request, _("Token %(name)s revoked.") % {"name": token.name})
    return redirect("topup:api_tokens")
