"""Checking an uploaded certificate chain and key with `cryptography`, before anything is stored.

In order: both texts are PEM (the field that is not is named), each certificate of the chain is
issued by the next one (issuer = next subject, and the signature verifies with the next one's
public key), the key is the site's certificate's (the first), the dates hold now, and, when a
domain is named, the certificate's DNS names cover it (`*.example.com` covers one label).
The back-office's own reading: the sandbox console checks uploads with code of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from cryptography import x509
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes
from cryptography.x509.oid import NameOID
from django.utils import formats, timezone
from django.utils.translation import gettext as _

CERTIFICATE_FIELD = "certificate"
KEY_FIELD = "private_key"
_SPKI = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


class CertificateRefused(ValueError):
    """Why an upload or a binding is refused; `field` names the form field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Inspected:
    """What the page shows of a chain: read from its first certificate."""

    chain: str
    key: str
    subject: str
    issuer: str
    names: tuple[str, ...]
    fingerprint: str
    not_before: datetime
    not_after: datetime


def inspect(chain_pem: str, key_pem: str, *, now: datetime | None = None,
            domains: tuple[str, ...] = ()) -> Inspected:
    """The chain and key checked as the module says; CertificateRefused otherwise."""
    chain = _certificates(chain_pem)
    key = _key(key_pem)
    for index, (child, parent) in enumerate(zip(chain, chain[1:], strict=False)):
        if not _signed_by(child, parent):
            raise CertificateRefused(CERTIFICATE_FIELD, _(
                "The chain is out of order: certificate %(child)s is not issued by certificate "
                "%(parent)s. Put the site's certificate first, then each issuer.") % {
                "child": index + 1, "parent": index + 2})
    leaf = chain[0]
    if key.public_key().public_bytes(*_SPKI) != leaf.public_key().public_bytes(*_SPKI):
        raise CertificateRefused(KEY_FIELD, _(
            "The private key does not match the first certificate of the chain."))
    found = Inspected(
        chain=chain_pem.strip() + "\n", key=key_pem.strip() + "\n",
        subject=leaf.subject.rfc4514_string(), issuer=leaf.issuer.rfc4514_string(),
        names=dns_names(leaf),
        fingerprint=leaf.fingerprint(hashes.SHA256()).hex(":").upper(),
        not_before=leaf.not_valid_before_utc, not_after=leaf.not_valid_after_utc)
    check_dates(found.not_before, found.not_after, now or timezone.now())
    for domain in domains:
        check_covers(found.names, domain)
    return found


def _certificates(text: str) -> list[x509.Certificate]:
    try:
        return x509.load_pem_x509_certificates(text.encode())
    except ValueError:
        raise CertificateRefused(CERTIFICATE_FIELD, _(
            "The certificate is not PEM: paste the text from -----BEGIN CERTIFICATE----- to "
            "-----END CERTIFICATE-----, the site's certificate first.")) from None


def _key(text: str) -> PrivateKeyTypes:
    try:
        key = serialization.load_pem_private_key(text.encode(), password=None)
    except TypeError:
        raise CertificateRefused(KEY_FIELD, _(
            "The private key is protected by a password: upload it without one.")) from None
    except (ValueError, UnsupportedAlgorithm):
        raise CertificateRefused(KEY_FIELD, _(
            "The private key is not PEM: paste the text from -----BEGIN PRIVATE KEY----- to "
            "-----END PRIVATE KEY-----.")) from None
    return key


def _signed_by(child: x509.Certificate, parent: x509.Certificate) -> bool:
    """`parent` issued `child`: names and signature, checked by cryptography itself."""
    try:
        child.verify_directly_issued_by(parent)
    except (ValueError, TypeError, InvalidSignature, UnsupportedAlgorithm):
        return False
    return True


def dns_names(leaf: x509.Certificate) -> tuple[str, ...]:
    """The subject alternative names of type DNS; the common name when there are none."""
    try:
        found = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return tuple(str(item.value).lower()
                     for item in leaf.subject.get_attributes_for_oid(NameOID.COMMON_NAME))
    return tuple(name.lower() for name in found.value.get_values_for_type(x509.DNSName))


def covers(names: tuple[str, ...] | list[str], domain: str) -> bool:
    domain = domain.lower().rstrip(".")
    parent = domain.split(".", 1)[1] if "." in domain else ""
    return any(name == domain or (name.startswith("*.") and parent and name[2:] == parent)
               for name in names)


def check_covers(names: tuple[str, ...] | list[str], domain: str) -> None:
    if not covers(names, domain):
        raise CertificateRefused(CERTIFICATE_FIELD, _(
            "The certificate's names (%(names)s) do not cover %(domain)s.") % {
            "names": ", ".join(names) or _("none"), "domain": domain})


def check_dates(not_before: datetime, not_after: datetime, now: datetime) -> None:
    if now > not_after:
        raise CertificateRefused(CERTIFICATE_FIELD, _(
            "The certificate expired on %(date)s.") % {"date": _when(not_after)})
    if now < not_before:
        raise CertificateRefused(CERTIFICATE_FIELD, _(
            "The certificate is not valid before %(date)s.") % {"date": _when(not_before)})


def _when(moment: datetime) -> str:
    return formats.date_format(timezone.localtime(moment), "Y-m-d H:i")
