"""The console's `https` section of a domain: `{"access", "force", "certificate_id"}`.

- `force` (required): plain HTTP is answered 301 to https:// (views.py);
- `access`: the edge's HTTPS port completes TLS for the domain's name (tls.py); off, it
  refuses the handshake. On needs a certificate (given here or already bound);
- `certificate_id`: an uploaded certificate (`POST /https/certificate/`) whose names cover the
  domain and whose dates are valid now; null unbinds.

`access` and `certificate_id` left out keep what the domain has (older clients send only
`{"force"}`, as behind a TLS terminator of their own). `access: false` with `force: true` is
refused (10400 `value.force`): it would send every visitor to a refused handshake.
"""

from __future__ import annotations

from typing import Any

from sandbox.console.models import Certificate
from sandbox.consoleapi.errors import bad_field
from sandbox.core import clock
from sandbox.delivery import certificates, config

KEYS = ("access", "force", "certificate_id")


def changes(value: Any, domain: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad_field("value", "must be a JSON object")
    unknown = sorted(set(value) - set(KEYS))
    if unknown:
        raise bad_field(f"value.{unknown[0]}", f"is not known here; known: {', '.join(KEYS)}")
    force = _flag(value, "force")
    found: dict[str, Any] = {"force_https": force}
    if "certificate_id" in value:
        found["https_certificate"] = _certificate(value["certificate_id"], domain)
    if "access" in value:
        access = _flag(value, "access")
        if force and not access:
            raise bad_field("value.force", "forced HTTPS needs HTTPS access on: visitors "
                                           "sent to https:// would be refused")
        bound = found.get("https_certificate",
                          config.published(domain).data["https_certificate"] if domain else "")
        if access and not bound:
            raise bad_field("value.access", "HTTPS access needs a certificate bound to the "
                                             "domain (value.certificate_id)")
        found["https_access"] = access
    return found


def answer(data: dict[str, Any]) -> dict[str, Any]:
    return {"access": bool(data["https_access"]), "force": bool(data["force_https"]),
            "certificate_id": data["https_certificate"] or None}


def _flag(value: dict[str, Any], key: str) -> bool:
    if not isinstance(value.get(key), bool):
        raise bad_field(f"value.{key}", "must be true or false")
    return bool(value[key])


def _certificate(identifier: Any, domain: str) -> str:
    field = "value.certificate_id"
    if identifier is None:
        return ""
    if not isinstance(identifier, str) or not identifier:
        raise bad_field(field, "must be a certificate id (a string) or null")
    row = Certificate.objects.filter(certificate_id=identifier).first()
    if row is None:
        raise bad_field(field, f"no uploaded certificate {identifier}")
    try:
        chain = certificates.read(row.certificate, row.private_key)
    except certificates.CertificateProblem as problem:  # stored before uploads were read
        raise bad_field(field, f"certificate {identifier} is unreadable: "
                               f"{problem.message}") from None
    if domain and not certificates.covers(chain.names, domain):
        raise bad_field(field, f"the certificate's names ({', '.join(chain.names)}) do not "
                               f"cover {domain}")
    if not certificates.current(chain, clock.now()):
        raise bad_field(field, f"the certificate is valid from "
                               f"{certificates.utc(chain.not_before)} to "
                               f"{certificates.utc(chain.not_after)}, not now")
    return identifier
