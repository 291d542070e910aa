"""Recovery codes: ten single-use codes per person, kept as digests (`otp_keys.code_digest`)
under django-otp's recovery-code device (StaticDevice), whose own tokens stay empty."""

from __future__ import annotations

from django.db import transaction
from django_otp.plugins.otp_static.models import StaticDevice

from backoffice.annotations import StaffUser
from backoffice.models import RecoveryCode
from backoffice.otp_keys import code_digest, new_recovery_code

RECOVERY_CODES = 10


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
    return device if spent else None


def codes_left(user: StaffUser) -> int:
    return RecoveryCode.objects.filter(device__user=user, device__confirmed=True).count()
