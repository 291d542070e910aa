"""The console port's endpoints (docs/decisions.md, "Services, domains and the console API")."""

from django.urls import URLPattern, re_path

from sandbox.consoleapi import views
from sandbox.consoleapi.views import endpoint

urlpatterns: list[URLPattern] = [
    re_path(r"^oauth/tokens/?$", endpoint({"POST": views.create_token}, public=True)),
    re_path(r"^buckets/?$", endpoint({"GET": views.list_services})),
    re_path(r"^buckets/info/?$", endpoint({"GET": views.service_info})),
    re_path(r"^buckets/domains/?$", endpoint({"GET": views.list_domains,
                                              "PUT": views.bind_domain,
                                              "DELETE": views.unbind_domain})),
    re_path(r"^buckets/domains/config/?$", endpoint({"GET": views.get_domain_config,
                                                     "PUT": views.put_domain_config})),
    re_path(r"^buckets/origins/?$", endpoint({"GET": views.get_origins,
                                              "PUT": views.put_origins})),
    re_path(r"^buckets/mirror/?$", endpoint({"GET": views.get_mirror, "PUT": views.put_mirror})),
    re_path(r"^buckets/purge/batch/?$", endpoint({"POST": views.purge_batch})),
    re_path(r"^buckets/purge/site/?$", endpoint({"POST": views.purge_site})),
    re_path(r"^buckets/purge/records/?$", endpoint({"GET": views.purge_records})),
    re_path(r"^preheat/?$", endpoint({"POST": views.preheat})),
    re_path(r"^https/certificate/?$", endpoint({"POST": views.upload_certificate,
                                                      "GET": views.list_certificates,
                                                      "DELETE": views.delete_certificate})),
]

# Unknown paths and crashes answer in the console's own error shape.
handler404 = "sandbox.consoleapi.errors.not_found"
handler500 = "sandbox.consoleapi.errors.server_error"
