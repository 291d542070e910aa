"""The services pages: the list, refresh from the provider, a storage service's form, and a
service's page with its origins and domains. Reading needs `access_services`; every change
needs `manage_services`. Every change goes through `console.services` (audited there)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.humanize.templatetags.humanize import intcomma
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from backoffice.annotations import StaffRequest
from backoffice.security.access import staff_user
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from console import services
from console.forms import DomainForm, MirrorForm, OriginForm, StorageServiceForm
from console.models import Domain, MirrorStatus, Origin, Service, ServiceKind
from console.texts import console_error_text, references_text
from console.views.access import MANAGE, abilities, needs


@needs()
def service_list(request: StaffRequest) -> HttpResponse:
    listed = Service.objects.prefetch_related("domains").order_by("kind", "name")
    return render(request, "console/services.html", {
        "services": listed, "storage_kind": ServiceKind.STORAGE, **abilities(request.user)})


@needs(MANAGE)
@require_POST
def refresh(request: StaffRequest) -> HttpResponse:
    try:
        found = services.refresh_from_provider(staff_user(request))
    except services.FAILURES as error:
        messages.error(request, console_error_text(error))
    else:
        messages.success(request, gettext(
            "Read from the provider: %(new)d new services, %(known)d known, %(domains)d new "
            "domains.") % {"new": found.new, "known": found.known, "domains": found.domains})
    return redirect("console:index")


def _service_page(request: StaffRequest, service: Service, *, status: int = 200,
                  **forms: Any) -> HttpResponse:
    context: dict[str, Any] = {
        "service": service,
        "origins": service.origins.order_by("position", "pk"),
        "domains": service.domains.order_by("name"),
        "origin_form": forms.get("origin_form") or OriginForm(service=service),
        "domain_form": forms.get("domain_form") or DomainForm(),
        "references": services.references(service),
        **_mirror_context(service, forms.get("mirror_form")),
        **abilities(request.user),
    }
    return render(request, "console/service.html", context, status=status)


@needs()
def service_detail(request: StaffRequest, pk: int) -> HttpResponse:
    return _service_page(request, get_object_or_404(Service, pk=pk))


@needs(MANAGE)
def service_form(request: StaffRequest, pk: int | None = None) -> HttpResponse:
    """Add (no pk) or change a storage service; the operator is checked on save."""
    service = get_object_or_404(Service, pk=pk, kind=ServiceKind.STORAGE) if pk else None
    form = StorageServiceForm(request.POST or None, instance=service)
    if request.method == "POST" and form.is_valid():
        # The stored record, not the form's instance: validation wrote the new values on it,
        # and the service compares them with the stored ones to know what to check.
        stored = Service.objects.get(pk=service.pk) if service is not None else None
        try:
            saved = services.save_storage_service(stored, form.changed_values(),
                                                  staff_user(request))
        except services.OperatorRefused as refused:
            form.add_error(refused.field if refused.field in form.fields else None,
                           refused.message)
        else:
            messages.success(request, gettext("Service %(name)s saved.") % {"name": saved.name})
            return redirect("console:service", saved.pk)
    if service is not None:
        service.refresh_from_db()  # the form's instance took the refused values
    status = 400 if request.method == "POST" else 200
    return render(request, "console/service_form.html",
                  {"form": form, "service": service, **abilities(request.user)}, status=status)


@needs(MANAGE)
@require_POST
def service_remove(request: StaffRequest, pk: int) -> HttpResponse:
    service = get_object_or_404(Service, pk=pk)
    try:
        services.remove_service(service, staff_user(request))
    except services.InUse as in_use:
        messages.error(request, references_text(in_use.found) if in_use.found else gettext(
            "A service set by the environment cannot be removed here."))
        return redirect("console:service", service.pk)
    messages.success(request, gettext("Service %(name)s removed from the back-office (the "
                                      "provider keeps it).") % {"name": service.name})
    return redirect("console:index")


# --- origins ------------------------------------------------------------------------------------


def _published(request: StaffRequest, ok: bool, done: str, answer: str) -> None:
    if ok:
        messages.success(request, done)
    else:
        messages.error(request, gettext(
            "Saved here but not published: the console answered “%(answer)s”. Retry from this "
            "page.") % {"answer": answer})


@needs(MANAGE)
@require_POST
def origin_add(request: StaffRequest, pk: int) -> HttpResponse:
    service = get_object_or_404(Service, pk=pk, kind=ServiceKind.CDN)
    form = OriginForm(request.POST, service=service)
    if not form.is_valid():
        return _service_page(request, service, status=400, origin_form=form)
    data = form.cleaned_data
    ok = services.add_origin(service, data["address"], data["weight"], data["backup"],
                             staff_user(request))
    service.refresh_from_db()
    _published(request, ok, gettext("Origin added and published."), service.origins_error)
    return redirect("console:service", service.pk)


@needs(MANAGE)
@require_POST
def origin_remove(request: StaffRequest, pk: int, origin_pk: int) -> HttpResponse:
    origin = get_object_or_404(Origin, pk=origin_pk, service_id=pk)
    try:
        ok = services.remove_origin(origin, staff_user(request))
    except services.LastOrigin:
        messages.error(request, gettext(
            "A CDN service keeps at least one origin that is not a backup."))
        return redirect("console:service", pk)
    service = Service.objects.get(pk=pk)
    _published(request, ok, gettext("Origin removed and published."), service.origins_error)
    return redirect("console:service", pk)


@needs(MANAGE)
@require_POST
def origins_publish(request: StaffRequest, pk: int) -> HttpResponse:
    service = get_object_or_404(Service, pk=pk, kind=ServiceKind.CDN)
    ok = services.publish_origins(service, staff_user(request))
    _published(request, ok, gettext("Origins published."), service.origins_error)
    return redirect("console:service", pk)


# --- domains ------------------------------------------------------------------------------------


@needs(MANAGE)
@require_POST
def domain_add(request: StaffRequest, pk: int) -> HttpResponse:
    service = get_object_or_404(Service, pk=pk)
    form = DomainForm(request.POST)
    if not form.is_valid():
        return _service_page(request, service, status=400, domain_form=form)
    domain, ok = services.add_domain(service, form.cleaned_data["name"], staff_user(request))
    _published(request, ok, gettext("Domain %(name)s added and bound.") % {"name": domain.name},
               domain.publish_error)
    return redirect("console:service", pk)


@needs(MANAGE)
@require_POST
def domain_remove(request: StaffRequest, pk: int, domain_pk: int) -> HttpResponse:
    domain = get_object_or_404(Domain, pk=domain_pk, service_id=pk)
    try:
        services.remove_domain(domain, staff_user(request))
    except services.InUse as in_use:
        messages.error(request, references_text(in_use.found) if in_use.found else gettext(
            "A domain set by the environment cannot be removed here."))
    except services.UnbindFailed:
        domain.refresh_from_db()
        messages.error(request, gettext("The console did not unbind the domain: “%(answer)s”.")
                       % {"answer": domain.publish_error})
    else:
        messages.success(request, gettext("Domain %(name)s removed.") % {"name": domain.name})
    return redirect("console:service", pk)


@needs(MANAGE)
@require_POST
def domain_publish(request: StaffRequest, pk: int, domain_pk: int) -> HttpResponse:
    domain = get_object_or_404(Domain, pk=domain_pk, service_id=pk)
    ok = services.publish_domain(domain, staff_user(request))
    _published(request, ok, gettext("Domain %(name)s bound.") % {"name": domain.name},
               domain.publish_error)
    return redirect(reverse("console:service", args=[pk]))


# --- mirror storage -----------------------------------------------------------------------------

MOVE_BUTTONS = {
    MirrorStatus.ON: _("Switch mirror storage on"),
    MirrorStatus.PAUSED: _("Pause mirror storage"),
    MirrorStatus.OFF: _("Switch mirror storage off"),
}


def _mirror_context(service: Service, form: MirrorForm | None) -> dict[str, Any]:
    if not service.is_cdn:
        return {}
    moves = [{"to": to, "button": MOVE_BUTTONS[MirrorStatus(to)],
              "form": form if form is not None and to == MirrorStatus.ON
              else MirrorForm(service=service, to=to)}
             for to in services.moves(service)]
    return {"mirror_moves": moves, "migrated_files": services.migrated_files(service)}


def _mirror_question(service: Service, to: str, form: MirrorForm) -> Confirmation:
    data = form.cleaned_data
    if to == MirrorStatus.ON:
        question = gettext("Switch mirror storage on for %(service)s, copying into "
                           "%(bucket)s?") % {"service": service.name,
                                             "bucket": data["storage_bucket"].name}
        consequences = [
            gettext("A file the edge does not hold is looked up in the storage service first; "
                    "one it does not have is fetched from the origin, served, and copied into "
                    "the storage service."),
            gettext("Mirrored files stay cached %(seconds)s seconds.") % {
                "seconds": intcomma(data["cache_seconds"])},
        ]
        fields = {"storage_bucket": str(data["storage_bucket"].pk),
                  "cache_seconds": str(data["cache_seconds"])}
    elif to == MirrorStatus.PAUSED:
        question = gettext("Pause mirror storage for %(service)s?") % {"service": service.name}
        consequences = [gettext("No new files are copied; files already copied are still "
                                "served from the storage service before the origin is asked.")]
        fields = {}
    else:
        question = gettext("Switch mirror storage off for %(service)s?") % {
            "service": service.name}
        consequences = [gettext("Every miss goes to the origin again: the files copied stay in "
                                "the storage service but are no longer served from it.")]
        fields = {}
    return Confirmation(question=question, consequences=consequences,
                        button=str(MOVE_BUTTONS[MirrorStatus(to)]),
                        back_url=reverse("console:service", args=[service.pk]), fields=fields)


@needs(MANAGE)
@require_POST
def mirror_move(request: StaffRequest, pk: int, to: str) -> HttpResponse:
    """Move mirror storage to `to` after a confirmation; the cache time and the bucket are
    checked at their fields first (for "on")."""
    service = get_object_or_404(Service, pk=pk, kind=ServiceKind.CDN)
    if to not in services.moves(service):
        messages.error(request, gettext("Mirror storage cannot go from %(now)s to %(to)s; "
                                        "on is left through paused.") % {
            "now": service.get_mirror_status_display(),
            "to": MirrorStatus(to).label if to in MirrorStatus.values else to})
        return redirect("console:service", pk)
    form = MirrorForm(request.POST, service=service, to=to)
    if not form.is_valid():
        return _service_page(request, service, status=400, mirror_form=form)
    if not confirmed(request):
        return confirmation_page(request, _mirror_question(service, to, form))
    data = form.cleaned_data
    ok = services.move_mirror(service, to, data.get("storage_bucket"), data.get("cache_seconds"),
                              staff_user(request))
    service.refresh_from_db()
    _published(request, ok, gettext("Mirror storage is now %(state)s.") % {
        "state": service.get_mirror_status_display()}, service.mirror_error)
    return redirect("console:service", pk)


@needs(MANAGE)
@require_POST
def mirror_publish(request: StaffRequest, pk: int) -> HttpResponse:
    service = get_object_or_404(Service, pk=pk, kind=ServiceKind.CDN)
    ok = services.publish_mirror(service, staff_user(request))
    _published(request, ok, gettext("Mirror storage published."), service.mirror_error)
    return redirect("console:service", pk)
