"""The account's first storage service: its bucket and operator are the account's own
(`demo-bucket`, `demo-operator` with the account's storage password), its domain
`demo-bucket.sandbox.localhost`. Created whenever the account is ensured (start, reset)."""

from __future__ import annotations

from sandbox.console.models import Domain, Operator, Service
from sandbox.core import clock
from sandbox.core.models import Account

DEMO_DOMAIN_SUFFIX = ".sandbox.localhost"


def demo_domain(account: Account) -> str:
    return f"{account.storage_bucket}{DEMO_DOMAIN_SUFFIX}"


def ensure_demo_service(account: Account) -> None:
    if Service.objects.filter(name=account.storage_bucket).exists():
        return
    now = clock.now()
    service = Service.objects.create(name=account.storage_bucket,
                                     business_type=Service.BusinessType.FILE, created_at=now)
    Operator.objects.create(service=service, name=account.storage_operator,
                            password=account.storage_password)
    Domain.objects.create(service=service, name=demo_domain(account), created_at=now)
