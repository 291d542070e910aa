"""A test certificate authority made with `cryptography`: a root, an intermediate, and leaf
certificates for any names and dates (nothing downloaded, nothing kept between runs)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

Key = ec.EllipticCurvePrivateKey


def _pem(certificate: x509.Certificate) -> str:
    return certificate.public_bytes(serialization.Encoding.PEM).decode()


def key_pem(key: Key) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Test CA Ltd"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _issue(subject: x509.Name, key: Key, issuer: x509.Name, issuer_key: Key, *,
           ca: bool, names: tuple[str, ...] = (), start: datetime, end: datetime,
           ) -> x509.Certificate:
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(start).not_valid_after(end)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if names:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.DNSName(name) for name in names]), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


@dataclass(frozen=True)
class Leaf:
    chain: str  # the leaf, then the intermediate
    key: str
    leaf: x509.Certificate
    intermediate: str

    @property
    def out_of_order(self) -> str:
        """The intermediate first: the chain in the wrong order."""
        return self.intermediate + _pem(self.leaf)


class TestCA:
    """A root that signs an intermediate that signs the leaves."""

    __test__ = False  # not a test class for pytest

    def __init__(self) -> None:
        now = datetime.now(UTC)
        self.root_key = ec.generate_private_key(ec.SECP256R1())
        self.root = _issue(_name("Test Root CA"), self.root_key, _name("Test Root CA"),
                           self.root_key, ca=True, start=now - timedelta(days=1),
                           end=now + timedelta(days=3650))
        self.intermediate_key = ec.generate_private_key(ec.SECP256R1())
        self.intermediate = _issue(_name("Test Intermediate CA"), self.intermediate_key,
                                   self.root.subject, self.root_key, ca=True,
                                   start=now - timedelta(days=1), end=now + timedelta(days=3650))

    @property
    def root_pem(self) -> str:
        return _pem(self.root)

    def write_root(self, folder: Path) -> Path:
        path = folder / "test-root-ca.pem"
        path.write_text(self.root_pem)
        return path

    def leaf(self, *names: str, days: float = 90, started_days_ago: float = 1) -> Leaf:
        now = datetime.now(UTC)
        key = ec.generate_private_key(ec.SECP256R1())
        start = now - timedelta(days=started_days_ago)
        certificate = _issue(_name(names[0]), key, self.intermediate.subject,
                             self.intermediate_key, ca=False, names=names, start=start,
                             end=now + timedelta(days=days))
        return Leaf(_pem(certificate) + _pem(self.intermediate), key_pem(key), certificate,
                    _pem(self.intermediate))

    def other_key(self) -> str:
        return key_pem(ec.generate_private_key(ec.SECP256R1()))
