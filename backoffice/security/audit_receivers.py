"""Audit records of sign-ins and group membership, from Django's and django-axes's signals
(connected by BackofficeConfig.ready)."""

from __future__ import annotations

from typing import Any

from axes.signals import user_locked_out
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.db.models.signals import m2m_changed
from django.http import HttpRequest

from backoffice.annotations import StaffUser
from backoffice.models import AuditOutcome
from backoffice.security.audit import client_address, record

APP = "auth"


def _address(request: HttpRequest | None) -> str | None:
    return client_address(request) if request is not None else None


def logged_in(sender: object, request: HttpRequest | None, user: StaffUser,
              **kwargs: object) -> None:
    record(APP, "login", target=user, user=user, address=_address(request))


def login_failed(sender: object, credentials: dict[str, object],
                 request: HttpRequest | None = None, **kwargs: object) -> None:
    during_lockout = bool(getattr(request, "axes_locked_out", False))
    record(APP, "login_failed", username=str(credentials.get("username") or ""),
           address=_address(request), outcome=AuditOutcome.REFUSED,
           summary="refused during a lockout" if during_lockout
           else "wrong second-factor code" if credentials.get("otp") else "wrong credentials")


def locked_out(sender: object, request: HttpRequest | None, username: str | None,
               ip_address: str | None, **kwargs: object) -> None:
    record(APP, "lockout", username=username or "", address=ip_address,
           outcome=AuditOutcome.REFUSED, summary="too many failed sign-ins")


def membership_changed(sender: object, instance: Any, action: str, reverse: bool,
                       pk_set: set[int] | None, **kwargs: object) -> None:
    # `instance` is a Group when `reverse` (group.user_set changed), else a User.
    if action not in ("post_add", "post_remove", "pre_clear"):
        return
    verb = {"post_add": "added to", "post_remove": "removed from", "pre_clear": "removed from"}
    if reverse:  # group.user_set changed: instance is the group, pk_set the users
        users = get_user_model().objects.filter(pk__in=pk_set or ())
        for user in users:
            record(APP, "group_membership", target=user,
                   summary=f"{user.get_username()} {verb[action]} {instance.name}")
        return
    groups = (Group.objects.filter(pk__in=pk_set) if pk_set is not None
              else instance.groups.all())
    names = ", ".join(sorted(group.name for group in groups))
    if names:
        record(APP, "group_membership", target=instance,
               summary=f"{instance.get_username()} {verb[action]} {names}")


def connect() -> None:
    user_logged_in.connect(logged_in, dispatch_uid="audit.logged_in")
    user_login_failed.connect(login_failed, dispatch_uid="audit.login_failed")
    user_locked_out.connect(locked_out, dispatch_uid="audit.locked_out")
    m2m_changed.connect(membership_changed, sender=get_user_model().groups.through,
                        dispatch_uid="audit.group_membership")
