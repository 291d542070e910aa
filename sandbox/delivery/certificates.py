"""Reading an uploaded certificate chain and key, as the console does (`POST /https/certificate/`).

The sandbox's own check, written apart from the back-office's (the two sides never share code):
both texts must be PEM, the key must be the leaf certificate's, and each certificate of the
chain must be issued and signed by the next one. Dates and names are judged when a certificate
is bound to a domain (`covers`, `current`), as a provider keeps an expired certificate on file.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from cryptography import x509
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.x509.oid import NameOID


class CertificateProblem(ValueError):
    """A refusal: `field` is "certificate" or "private_key"."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Chain:
    certificates: tuple[x509.Certificate, ...]
    names: tuple[str, ...]
    not_before: float
    not_after: float


def read(certificate_pem: str, key_pem: str) -> Chain:
    try:
        chain = tuple(x509.load_pem_x509_certificates(certificate_pem.encode()))
    except ValueError:
        raise CertificateProblem("certificate", "must be PEM certificates "
                                                "(-----BEGIN CERTIFICATE-----)") from None
    try:
        key = serialization.load_pem_private_key(key_pem.encode(), password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise CertificateProblem("private_key", "must be an unencrypted PEM private key "
                                                "(-----BEGIN PRIVATE KEY-----)") from None
    for index, (child, parent) in enumerate(zip(chain, chain[1:], strict=False)):
        if not _signed_by(child, parent):
            raise CertificateProblem("certificate", f"certificate {index + 1} is not issued by "
                                                    f"certificate {index + 2}: the chain must "
                                                    "go from the site's up to its issuers")
    leaf = chain[0]
    if key.public_key().public_bytes(*_SPKI) != leaf.public_key().public_bytes(*_SPKI):
        raise CertificateProblem("private_key", "does not belong to the first certificate")
    return Chain(chain, names(leaf), leaf.not_valid_before_utc.timestamp(),
                 leaf.not_valid_after_utc.timestamp())


_SPKI = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def _signed_by(child: x509.Certificate, parent: x509.Certificate) -> bool:
    """`parent` issued `child`: names and signature, checked by cryptography itself."""
    try:
        child.verify_directly_issued_by(parent)
    except (ValueError, TypeError, InvalidSignature, UnsupportedAlgorithm):
        return False
    return True


def names(leaf: x509.Certificate) -> tuple[str, ...]:
    """The DNS names of the subject alternative names, else the common name."""
    try:
        found = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        common = leaf.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
        return tuple(str(item.value).lower() for item in common)
    return tuple(name.lower() for name in found.value.get_values_for_type(x509.DNSName))


def covers(names_: tuple[str, ...], domain: str) -> bool:
    """`*.example.com` covers exactly one label in front of example.com."""
    domain = domain.lower()
    for name in names_:
        if name == domain:
            return True
        if name.startswith("*.") and "." in domain and domain.split(".", 1)[1] == name[2:]:
            return True
    return False


def current(chain: Chain, now: float) -> bool:
    return chain.not_before <= now <= chain.not_after


def utc(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
