"""Permission checks shared by the media pages.

Every page needs `media.access_media` (Auditors have it); acting needs the permission named at
each view as well, so an Auditor can read every page and change nothing. Names: an app
permission by its action, a model permission as Django's verb and the model.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from backoffice.annotations import RequestUser, StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.access import access_guard
from backoffice.ui.errors import NotFoundForStaff
from console.models import Service, ServiceKind
from console.services import UnknownService, service_for, visible_services
from media.models import ACCESS_PERMISSION, RUN_PERMISSION

# The two app permissions are named in models.py, where the storage file actions find them too.
ACCESS = ACCESS_PERMISSION
RUN = RUN_PERMISSION
VIEW_PROCESSING_JOB = "media.view_processingjob"

needs = access_guard(ACCESS)


def abilities(user: RequestUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_run": user.has_perms((ACCESS, RUN)),
        "can_view_jobs": user.has_perms((ACCESS, VIEW_PROCESSING_JOB)),
    }


def page_service(request: StaffRequest) -> Service | None:
    """The storage service a media page works on: the `service` its form or link names (the
    file browser's links name it), remembered on a page view; else the person's choice. None
    when the account has none yet: the forms still show, and running a job says why not.
    The staff 404 page for an unknown name."""
    posted = request.method == "POST"
    name = (request.POST.get("service") if posted else None) or request.GET.get("service")
    try:
        return service_for(request.user, name, remember=not posted)
    except UnknownService:
        raise NotFoundForStaff(
            _("There is no storage service named “%(name)s”.") % {"name": name}) from None
    except ProviderNotConfigured:
        return None


def required(service: Service | None) -> Service:
    """The page's service, for running a job: ProviderNotConfigured when there is none."""
    if service is None:
        raise ProviderNotConfigured(
            "storage: set STORAGE_BUCKET in the environment or add a storage service")
    return service


def service_context(
    request: StaffRequest, service: Service | None, page: str
) -> dict[str, object]:
    """The service a page shows, and the switcher's choices."""
    if service is None:
        return {"service": None, "switcher": None}
    return {"service": service, "switcher": {
        "services": visible_services(request.user, kind=ServiceKind.STORAGE),
        "chosen": service, "url": reverse(page)}}
