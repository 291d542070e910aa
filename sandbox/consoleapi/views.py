"""The console API's endpoints (docs/decisions.md, "Services, domains and the console API").

Every endpoint but `POST /oauth/tokens` needs a current Bearer token; each answers JSON, and
every refusal is a ConsoleError in the table's shape.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, JsonResponse, QueryDict
from django.views.decorators.csrf import csrf_exempt

from sandbox.console import directory
from sandbox.console.models import Certificate, Domain, Operation, Service
from sandbox.consoleapi import fields, refresh, sections, services, tokens
from sandbox.consoleapi.errors import (
    CONFLICT,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    ConsoleError,
    bad_field,
)
from sandbox.core import clock
from sandbox.core.jsonapi import NotAJsonObject, json_object
from sandbox.delivery import certificates, config
from sandbox.delivery.cache import EDGE_CACHE

Handler = Callable[[HttpRequest], dict[str, Any] | list[dict[str, Any]]]
MIRROR_MIN_CACHE_S = 86400


def endpoint(methods: dict[str, Handler], *, public: bool = False) -> Callable[..., Any]:
    """One path: its handler per method, the token checked first, refusals answered."""

    @csrf_exempt
    def view(request: HttpRequest) -> JsonResponse:
        handler = methods.get(request.method or "GET")
        try:
            if handler is None:
                raise ConsoleError(METHOD_NOT_ALLOWED, f"method {request.method} not allowed; "
                                                       f"allowed: {', '.join(methods)}")
            if not public:
                tokens.require(request)
            answer = handler(request)
        except ConsoleError as error:
            return error.response()
        return JsonResponse(answer, safe=False)

    return view


def body(request: HttpRequest) -> dict[str, Any]:
    """A JSON body, or a form body when the client sent one."""
    content_type = request.content_type or ""
    if content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        return {key: request.POST.get(key) for key in request.POST}
    if not request.body:
        return {}
    try:
        return json_object(request.body)
    except NotAJsonObject as error:
        raise bad_field("body", str(error)) from None


def query(request: HttpRequest) -> QueryDict:
    return request.GET


# --- tokens ---------------------------------------------------------------------------------


def create_token(request: HttpRequest) -> dict[str, Any]:
    form = body(request)
    token, expires = tokens.issue(
        str(form.get("username") or ""), str(form.get("password") or ""),
        str(form.get("code") or ""), str(form.get("name") or ""), str(form.get("scope") or ""))
    return {"access_token": token, "expired_at": expires}


# --- services -------------------------------------------------------------------------------


def list_services(request: HttpRequest) -> dict[str, Any]:
    params = query(request)
    kind = params.get("business_type") or None
    if kind is not None and kind not in Service.BusinessType.values:
        raise bad_field("business_type", "must be file or cdn")
    limit = fields.integer(params, "limit", default=20, minimum=1, maximum=100)
    before = fields.integer(params, "max", default=0, minimum=1) or None
    rows = Service.objects.prefetch_related("domains").order_by("-bucket_id")
    if kind:
        rows = rows.filter(business_type=kind)
    if before is not None:
        rows = rows.filter(bucket_id__lt=before)
    page = list(rows[:limit + 1])
    more = len(page) > limit
    page = page[:limit]
    return {"buckets": [services.service_json(service) for service in page],
            "pager": {"max": page[-1].bucket_id if more and page else None}}


def service_info(request: HttpRequest) -> dict[str, Any]:
    return services.service_json(services.find(fields.service_name(query(request))))


# --- domains --------------------------------------------------------------------------------


def list_domains(request: HttpRequest) -> dict[str, Any]:
    service = services.find(fields.service_name(query(request)))
    return {"domains": [{"domain": domain.name, "status": "normal",
                         "created_at": int(domain.created_at)}
                        for domain in service.domains.all()]}


def bind_domain(request: HttpRequest) -> dict[str, Any]:
    form = body(request)
    service = services.find(fields.service_name(form))
    domain = services.bind(service, fields.domain_name(form.get("domain")))
    return {"domain": domain.name, "status": "normal", "created_at": int(domain.created_at)}


def unbind_domain(request: HttpRequest) -> dict[str, Any]:
    params = query(request)
    service = services.find(fields.service_name(params))
    name = fields.domain_name(params.get("domain"))
    services.unbind(service, name)
    return {"result": True}


# --- origins and mirror storage ------------------------------------------------------------


def get_origins(request: HttpRequest) -> dict[str, Any]:
    return {"origins": services.find_cdn(fields.service_name(query(request))).origins}


def put_origins(request: HttpRequest) -> dict[str, Any]:
    form = body(request)
    service = services.find_cdn(fields.service_name(form))
    service.origins = fields.origins(form.get("origins"))
    service.save(update_fields=["origins"])
    return {"origins": service.origins}


def mirror_json(service: Service) -> dict[str, Any]:
    changed = service.mirror_changed_at
    return {"status": service.mirror_status, "storage_bucket": service.mirror_storage_bucket,
            "cache_seconds": service.mirror_cache_seconds,
            "changed_at": int(changed) if changed is not None else None}


def get_mirror(request: HttpRequest) -> dict[str, Any]:
    return mirror_json(services.find_cdn(fields.service_name(query(request))))


def put_mirror(request: HttpRequest) -> dict[str, Any]:
    form = body(request)
    service = services.find_cdn(fields.service_name(form))
    status = form.get("status")
    if status not in Service.Mirror.values:
        raise bad_field("status", "must be on, paused or off")
    storage = fields.text(form, "storage_bucket", required=status != Service.Mirror.OFF)
    if storage and not directory.is_storage_service(storage):
        raise bad_field("storage_bucket", f"{storage} is not a storage service of the account")
    seconds = fields.integer(form, "cache_seconds", default=service.mirror_cache_seconds,
                             minimum=MIRROR_MIN_CACHE_S + 1)
    service.mirror_status = status
    service.mirror_storage_bucket = storage
    service.mirror_cache_seconds = seconds
    service.mirror_changed_at = clock.now()
    service.save()
    return mirror_json(service)


# --- domain settings -----------------------------------------------------------------------


def bound(name: Any) -> str:
    domain = fields.domain_name(name)
    if not Domain.objects.filter(name=domain).exists():
        raise ConsoleError(NOT_FOUND, f"{domain} is not a domain of this account")
    return domain


def own_origin(domain: str) -> bool:
    return Domain.objects.filter(
        name=domain, service__business_type=Service.BusinessType.CDN).exists()


def get_domain_config(request: HttpRequest) -> dict[str, Any]:
    domain = bound(query(request).get("domain"))
    settings = config.published(domain)
    return {"domain": domain, "sections": sections.answer(settings.data, own_origin(domain)),
            "revision": settings.revision}


def put_domain_config(request: HttpRequest) -> dict[str, Any]:
    form = body(request)
    domain = bound(form.get("domain"))
    section = fields.text(form, "section")
    if "value" not in form:
        raise bad_field("value", "is required")
    sections.refuse_for_storage(section, own_origin(domain))
    changes = sections.changes(section, form["value"], domain)
    revision = config.save(domain, changes)
    EDGE_CACHE.clear_domain(domain)
    value = sections.answer(config.published(domain).data)[section]
    return {"domain": domain, "section": section, "value": value, "revision": revision}


# --- refresh --------------------------------------------------------------------------------


def purge_batch(request: HttpRequest) -> list[dict[str, Any]]:
    return refresh.rule_refresh(body(request).get("source_url"))


def preheat(request: HttpRequest) -> list[dict[str, Any]]:
    return refresh.preheat(body(request).get("url"))


def purge_site(request: HttpRequest) -> dict[str, Any]:
    return refresh.site_refresh(fields.domain_name(body(request).get("domain")))


def purge_records(request: HttpRequest) -> dict[str, Any]:
    params = query(request)
    kind = params.get("type") or None
    if kind is not None and kind not in Operation.Type.values:
        raise bad_field("type", "must be url, rule, preheat or site")
    limit = fields.integer(params, "limit", default=20, minimum=1, maximum=100)
    before = fields.integer(params, "max", default=0, minimum=1) or None
    return refresh.records(kind, limit, before)


# --- certificates --------------------------------------------------------------------------

def upload_certificate(request: HttpRequest) -> dict[str, Any]:
    """A PEM chain (the site's certificate first) and its key, read by certificates.read:
    not PEM, a key of another certificate or a chain out of order is a 10400 naming the
    field."""
    form = body(request)
    certificate = fields.text(form, "certificate")
    private_key = fields.text(form, "private_key")
    try:
        certificates.read(certificate, private_key)
    except certificates.CertificateProblem as problem:
        raise bad_field(problem.field, problem.message) from None
    found = Certificate.objects.create(certificate_id=secrets.token_hex(16),
                                       certificate=certificate, private_key=private_key,
                                       created_at=clock.now())
    return {"result": {"certificate_id": found.certificate_id}}


def list_certificates(request: HttpRequest) -> dict[str, Any]:
    found: list[dict[str, Any]] = []
    for row in Certificate.objects.order_by("created_at"):
        try:
            chain = certificates.read(row.certificate, row.private_key)
        except certificates.CertificateProblem:  # stored before uploads were read: unknown
            found.append({"certificate_id": row.certificate_id, "names": [],
                          "not_after": None})
            continue
        found.append({"certificate_id": row.certificate_id, "names": list(chain.names),
                      "not_after": int(chain.not_after)})
    return {"certificates": found}


def delete_certificate(request: HttpRequest) -> dict[str, Any]:
    identifier = fields.text(query(request), "certificate_id")
    if not Certificate.objects.filter(certificate_id=identifier).exists():
        raise ConsoleError(NOT_FOUND, f"no certificate {identifier}")
    using = config.domains_using_certificate(identifier)
    if using:
        raise ConsoleError(CONFLICT, f"certificate {identifier} is bound to "
                                     f"{', '.join(using)}")
    Certificate.objects.filter(certificate_id=identifier).delete()
    return {"result": True}
