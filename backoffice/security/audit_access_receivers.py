"""Audit records of every change to who may do what, whatever the path (the admin, a page,
a command, the shell): a user's superuser, staff and active flags, a user's and a group's
permissions, second-factor devices (a new set of recovery codes and a used code are recorded by
`backoffice.security.recovery`, which writes them in bulk), and the clearing of failed sign-ins
that lifts a lockout. From Django's model signals (connected by BackofficeConfig.ready).

A bulk `QuerySet.update` or `bulk_create` sends no signal, so the code that changes these
records that way writes its own entry.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db.models import Model, QuerySet
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_save
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice.security.audit import record

APP = "auth"

# --- a user's flags --------------------------------------------------------------------------

FLAGS = {
    # field: (action, when set, when cleared)
    "is_superuser": ("user.superuser", "made superuser", "no longer superuser"),
    "is_staff": ("user.staff", "given staff status", "no longer staff"),
    "is_active": ("user.active", "reactivated", "deactivated"),
}


def _flags_before(sender: type[Model], instance: Any, update_fields: Any = None,
                  **kwargs: object) -> None:
    """pre_save: the flags as stored, to compare with after the save."""
    instance._audit_flags_before = None
    if instance._state.adding or instance.pk is None:
        return
    if update_fields is not None and not set(update_fields) & set(FLAGS):
        return  # e.g. a sign-in's last_login: no flag can change
    instance._audit_flags_before = (
        sender._default_manager.filter(pk=instance.pk).values(*FLAGS).first())


def flags_changed(sender: type[Model], instance: Any, created: bool, **kwargs: object) -> None:
    before: dict[str, Any] | None
    if created:
        # A new account counts as changed from an ordinary, active one.
        before = {"is_superuser": False, "is_staff": False, "is_active": True}
    else:
        before = getattr(instance, "_audit_flags_before", None)
        if before is None:
            return
    name = instance.get_username()
    for field, (action, when_set, when_cleared) in FLAGS.items():
        now = bool(getattr(instance, field))
        if now != bool(before[field]):
            what = when_set if now else when_cleared
            record(APP, action, target=instance,
                   summary=f"{name} {what}" + (" (new account)" if created else ""))


# --- permissions -----------------------------------------------------------------------------

_VERBS = {"post_add": "gains", "post_remove": "loses", "pre_clear": "loses"}


def _permission_names(permissions: QuerySet[Permission]) -> list[str]:
    return sorted(f"{p.content_type.app_label}.{p.codename}"
                  for p in permissions.select_related("content_type"))


def _owner_name(owner: Any) -> str:
    return owner.name if isinstance(owner, Group) else owner.get_username()


def _record_permissions(owner: Any, verb: str, names: list[str]) -> None:
    if not names:
        return
    kind = "group" if isinstance(owner, Group) else "user"
    listed = ", ".join(names)
    record(APP, f"{kind}.permissions", target=owner,
           summary=f"{_owner_name(owner)} {verb} permissions ({len(names)}): {listed}")


def permissions_changed(sender: type[Model], instance: Any, action: str, reverse: bool,
                        pk_set: set[int] | None, **kwargs: object) -> None:
    """m2m_changed of User.user_permissions and Group.permissions, from either side."""
    if action not in _VERBS:
        return
    verb = _VERBS[action]
    owner_model: type[Model] = Group if sender is Group.permissions.through else get_user_model()
    if not reverse:  # owner.permissions changed: pk_set holds permissions
        field = "permissions" if owner_model is Group else "user_permissions"
        permissions = (Permission.objects.filter(pk__in=pk_set) if pk_set is not None
                       else getattr(instance, field).all())
        _record_permissions(instance, verb, _permission_names(permissions))
        return
    # permission.group_set / user_set changed: instance is the permission, pk_set the owners
    related = "group_set" if owner_model is Group else "user_set"
    owners = (owner_model._default_manager.filter(pk__in=pk_set) if pk_set is not None
              else getattr(instance, related).all())
    name = f"{instance.content_type.app_label}.{instance.codename}"
    for owner in owners:
        _record_permissions(owner, verb, [name])


# --- second factors --------------------------------------------------------------------------

def _device_owner(device: Any) -> tuple[Any, str]:
    owner = get_user_model()._default_manager.filter(pk=device.user_id).first()
    return (owner if owner is not None else device.user_id,
            owner.get_username() if owner is not None else f"user #{device.user_id}")


def _kind(device: Any) -> str:
    return "recovery codes" if isinstance(device, StaticDevice) else "authenticator"


def _confirmed_before(sender: type[Model], instance: Any, update_fields: Any = None,
                      **kwargs: object) -> None:
    """pre_save of an authenticator: whether it was confirmed (enrolled) already."""
    instance._audit_was_confirmed = None
    if instance._state.adding or instance.pk is None:
        return
    if update_fields is not None and "confirmed" not in update_fields:
        return
    instance._audit_was_confirmed = (
        sender._default_manager.filter(pk=instance.pk)
        .values_list("confirmed", flat=True).first())


def authenticator_saved(sender: type[Model], instance: Any, created: bool,
                        **kwargs: object) -> None:
    """An authenticator counts once confirmed: a pending enrolment is no second factor yet."""
    was = False if created else getattr(instance, "_audit_was_confirmed", None)
    if instance.confirmed and was is False:
        owner, name = _device_owner(instance)
        record(APP, "2fa.device_add", target=owner,
               summary=f"authenticator {instance.name!r} of {name} added")


def device_deleted(sender: type[Model], instance: Any, **kwargs: object) -> None:
    if not instance.confirmed:
        return  # an enrolment never finished: no second factor is lost
    owner, name = _device_owner(instance)
    record(APP, "2fa.device_remove", target=owner,
           summary=f"{_kind(instance)} {instance.name!r} of {name} removed")


# --- unlocks ---------------------------------------------------------------------------------


def failures_cleared(sender: type[Model], instance: AccessAttempt, **kwargs: object) -> None:
    """A deleted AccessAttempt whose failures still count: an unlock (the admin's delete,
    `axes_reset*`) or a full sign-in clearing its name's earlier failures. Attempts whose
    cool-off has passed hold no lock, so their clean-up is not recorded."""
    cool_off = getattr(settings, "AXES_COOLOFF_TIME", None)
    if isinstance(cool_off, timedelta) and instance.attempt_time < timezone.now() - cool_off:
        return
    limit = getattr(settings, "AXES_FAILURE_LIMIT", 0)
    locked = isinstance(limit, int) and instance.failures_since_start >= limit
    record(APP, "login_failures.clear", target=instance.username or "",
           summary=f"failed sign-ins ({instance.failures_since_start}) of "
                   f"{instance.username or '-'} from {instance.ip_address or '-'} cleared"
                   + (", which lifts its lockout" if locked else ""))


def connect() -> None:
    user = get_user_model()
    pre_save.connect(_flags_before, sender=user, dispatch_uid="audit.user_flags_before")
    post_save.connect(flags_changed, sender=user, dispatch_uid="audit.user_flags")
    for through in (user.user_permissions.through, Group.permissions.through):
        m2m_changed.connect(permissions_changed, sender=through,
                            dispatch_uid=f"audit.permissions.{through._meta.label}")
    pre_save.connect(_confirmed_before, sender=TOTPDevice, dispatch_uid="audit.totp_before")
    post_save.connect(authenticator_saved, sender=TOTPDevice, dispatch_uid="audit.totp_saved")
    for device in (TOTPDevice, StaticDevice):
        post_delete.connect(device_deleted, sender=device,
                            dispatch_uid=f"audit.device_deleted.{device._meta.label}")
    post_delete.connect(failures_cleared, sender=AccessAttempt,
                        dispatch_uid="audit.login_failures_cleared")
