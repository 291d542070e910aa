"""The delivery settings page's save: the settings row and the image versions together."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from backoffice.annotations import StaffUser
from delivery.models import DeliverySettings, ImageVersion


def save_delivery_settings(row: DeliverySettings, changed: Sequence[ImageVersion],
                           deleted: Sequence[ImageVersion], user: StaffUser) -> DeliverySettings:
    """Store the settings and the versions' changes in one transaction, so a publish never
    reads settings from one save and versions from another. The form and formset have
    checked everything; `user` is recorded as the last editor. Nothing reaches the edge until
    the next publish."""
    with transaction.atomic():
        row.updated_by = user
        row.save()
        for version in deleted:
            version.delete()
        for version in changed:
            version.save()
    return row
