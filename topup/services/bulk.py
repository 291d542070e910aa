"""Bulk top-up: a CSV is checked and kept as a batch; nothing is charged until staff confirm."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.audit import audited
from topup.conf import knob
from topup.models import BatchStatus, BulkBatch, OrderSource, Product
from topup.services.balance import latest_snapshot
from topup.services.bulkcsv import BulkFileError, Problem, check_csv
from topup.services.ordering import OrderInputError, OrderRequest, place_order

__all__ = ["BulkFileError", "check_upload", "confirm_batch", "discard_batch"]


def _products() -> dict[str, Product]:
    return {product.code: product for product in Product.objects.all()}


def check_upload(file_name: str, data: bytes, user: Any) -> BulkBatch:
    """Check a CSV and store the result as a batch waiting for confirmation.

    Raises BulkFileError when the file as a whole is unusable; line problems are kept on the
    batch for the validation report.
    """
    checked = check_csv(data, _products(), knob("TOPUP_BULK_MAX_ROWS"),
                        knob("TOPUP_BULK_MAX_BYTES"))
    warnings = [w.as_dict() for w in checked.warnings]
    snapshot = latest_snapshot()
    total = checked.total_price
    if snapshot is not None and total > snapshot.avail_balance:
        warnings.insert(0, Problem(0, "balance", _(
            "The valid rows cost %(total)s yuan but only %(available)s yuan was available at "
            "the last balance check; the provider will refuse orders once it runs out (503).")
            % {"total": total, "available": snapshot.avail_balance}).as_dict())
    return BulkBatch.objects.create(
        file_name=file_name[:200], uploaded_by=user, rows=checked.rows,
        problems=[p.as_dict() for p in checked.problems], warnings=warnings,
        line_count=checked.line_count, total_price=total,
    )


@audited("topup", "bulk.confirm", lambda batch_id, user: (f"batch {batch_id}", "bulk top-up", user))
def confirm_batch(batch_id: int, user: Any) -> int:
    """Place one order per valid row; returns how many. A batch is confirmed at most once.

    Rows are checked again, because a product may have been taken off sale since the upload;
    a row that no longer passes is skipped and added to the batch's problems.
    """
    with transaction.atomic():
        claimed = BulkBatch.objects.filter(pk=batch_id, status=BatchStatus.VALIDATED).update(
            status=BatchStatus.CONFIRMED, confirmed_by=user, confirmed_at=timezone.now())
        if not claimed:
            raise OrderInputError("batch", _("This batch was already confirmed or discarded."))
        batch = BulkBatch.objects.get(pk=batch_id)
        products = _products()
        placed = 0
        late_problems = []
        for row in batch.rows:
            request = OrderRequest(mobile=row["mobile"], product_code=row["product"])
            try:
                place_order(request, requested_by=user, source=OrderSource.BULK, batch=batch,
                            batch_line=row["line"], products=products)
            except OrderInputError as error:
                late_problems.append(Problem(row["line"], error.field, _(
                    "At confirmation: %(message)s") % {"message": error.message}).as_dict())
                continue
            placed += 1
        if late_problems:
            batch.problems = [*batch.problems, *late_problems]
            batch.save(update_fields=["problems"])
    return placed


def discard_batch(batch_id: int) -> None:
    if not BulkBatch.objects.filter(pk=batch_id, status=BatchStatus.VALIDATED).update(
            status=BatchStatus.DISCARDED):
        raise OrderInputError("batch", _("Only a batch waiting for confirmation can be "
                                         "discarded."))
