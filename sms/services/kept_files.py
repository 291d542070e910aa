"""Moving files kept before kept files were private (issue 27) to the private form.

Migration 0008 marks every such row `file_is_private=False`. Each run here takes a batch of
them and, with `FILE_STORAGE=bucket`, has the storage copy the file to a random name with a
content secret (`BucketStorage.make_private`: the old object gets a secret first, so its plain
URL is refused from the start), points the row at the new name with a conditional update, and
only then deletes the old object, so no step loses the file. Idempotent: a run that stops half
way leaves at worst an unreferenced copy that carries a secret, and the row is taken again.
With local storage nothing is served by the CDN, so the rows are only marked.
"""

from __future__ import annotations

import logging

from django.core.files.storage import Storage
from django.db import models

from sms.models import Campaign, SuppressionImport
from storage.services import BucketStorage, NotFound

logger = logging.getLogger(__name__)

KEPT_MODELS: tuple[type[models.Model], ...] = (Campaign, SuppressionImport)
BATCH = 100


def _storage(model: type[models.Model]) -> Storage:
    field = model._meta.get_field("source_file")
    assert isinstance(field, models.FileField)
    return field.storage


def secure_kept_files(limit: int = BATCH) -> int:
    """Make up to `limit` kept files of each model private; how many rows were settled (a
    file copied, or found gone)."""
    copied = 0
    for model in KEPT_MODELS:
        waiting = model._default_manager.filter(file_is_private=False)
        storage = _storage(model)
        if not isinstance(storage, BucketStorage):
            waiting.update(file_is_private=True)
            continue
        waiting.filter(source_file="").update(file_is_private=True)
        for pk, old in waiting.order_by("pk").values_list("pk", "source_file")[:limit]:
            copied += _secure(model, pk, old, storage)
    return copied


def _secure(model: type[models.Model], pk: int, old: str, storage: BucketStorage) -> int:
    try:
        new = storage.make_private(old)
    except NotFound:
        # Nothing is there to expose (deleted with its draft meanwhile): the row is done.
        return model._default_manager.filter(pk=pk, source_file=old).update(file_is_private=True)
    moved = model._default_manager.filter(pk=pk, source_file=old, file_is_private=False).update(
        source_file=new, file_is_private=True
    )
    # The copy nobody points at goes: the old file once the row names the new one, else the
    # new copy (the row changed or went meanwhile).
    storage.delete(old if moved else new)
    logger.info("kept file of %s %s made private", model._meta.model_name, pk)
    return 1 if moved else 0
