"""Recovery codes: ten single-use codes per person, kept as digests (`otp_keys.code_digest`)
under django-otp's recovery-code device (StaticDevice), whose own tokens stay empty."""

from __future__ import annotations

from django.db import transaction
from django_otp.plugins.otp_static.models import StaticDevice

from backoffice.annotations import StaffUser
from backoffice.models import RecoveryCode
from backoffice.otp_keys import code_digest, new_recovery_code
from backoffice.security.audit import record

RECOVERY_CODES = 10
AUDIT_APP = "auth"  # as the other second-factor entries (audit_access_receivers)


def issue_codes(user: StaffUser) -> list[str]:
    """A new set for `user`, replacing any earlier one: the codes are returned to be shown
    once, and only their digests kept."""
    codes = [new_recovery_code() for _ in range(RECOVERY_CODES)]
    with transaction.atomic():
        device = StaticDevice.objects.filter(user=user).order_by("pk").first()
        if device is None:
            device = StaticDevice.objects.create(user=user, name="recovery codes")
        RecoveryCode.objects.filter(device__user=user).delete()
        RecoveryCode.objects.bulk_create(
            [RecoveryCode(device=device, digest=code_digest(code)) for code in codes])
        # Recorded here: bulk_create and the replaced set's delete send no signal worth one.
        record(AUDIT_APP, "2fa.recovery_codes", target=user,
               summary=f"a new set of recovery codes for {user.get_username()}")
    return codes


def use_code(user: StaffUser, code: str) -> StaticDevice | None:
    """Spends one recovery code of `user`: its device, or None when it is not one of theirs.

    The row is deleted by one DELETE whose count says whether this request spent it, so that
    two requests at once cannot both use the same code."""
    if not code.strip():
        return None
    matching = RecoveryCode.objects.filter(device__user=user, device__confirmed=True,
                                           digest=code_digest(code))
    device = StaticDevice.objects.filter(recovery_codes__in=matching).first()
    if device is None:
        return None
    spent, _ = RecoveryCode.objects.filter(device=device, digest=code_digest(code)).delete()
    if not spent:
        return None
    record(AUDIT_APP, "2fa.recovery_code_used", target=user,
           summary=f"a recovery code of {user.get_username()} used; {codes_left(user)} left")
    return device


def codes_left(user: StaffUser) -> int:
    return RecoveryCode.objects.filter(device__user=user, device__confirmed=True).count()
