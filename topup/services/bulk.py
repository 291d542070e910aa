"""Bulk top-up: a CSV is checked and kept as a batch; nothing is charged until staff confirm."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.annotations import StaffUser
from backoffice.security.audit import audited
from topup import texts
from topup.conf import knob
from topup.models import BatchStatus, BulkBatch, OrderSource, OrderState, Product
from topup.services.balance import latest_snapshot
from topup.services.bulkcsv import BulkFileError, Problem, check_csv
from topup.services.ordering import OrderInputError, OrderRequest, place_order
from topup.texts import field_label, shown_text

__all__ = ["BatchResults", "BulkFileError", "batch_results", "check_upload", "confirm_batch",
           "discard_batch"]


def _products() -> dict[str, Product]:
    return {product.code: product for product in Product.objects.all()}


def check_upload(file_name: str, data: bytes, user: StaffUser) -> BulkBatch:
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
        warnings.insert(0, Problem.of(0, "balance", texts.OVER_BALANCE,
            total=str(total), available=str(snapshot.avail_balance)).as_dict())
    return BulkBatch.objects.create(
        file_name=file_name[:200], uploaded_by=user, rows=checked.rows,
        problems=[p.as_dict() for p in checked.problems], warnings=warnings,
        line_count=checked.line_count, total_price=total,
    )


@audited("topup", "bulk.confirm", lambda batch_id, user: (f"batch {batch_id}", "bulk top-up", user))
def confirm_batch(batch_id: int, user: StaffUser) -> int:
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
                late = Problem(row["line"], error.field,
                    texts.at_confirmation_text(error.message),
                    error.template, error.params, (row["mobile"], row["product"])).as_dict()
                late_problems.append({**late, "at_confirmation": True})
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


@dataclass(frozen=True)
class ShownProblem:
    line: int
    field: str  # the field's label in the reader's language
    text: str
    cells: str  # the line as read, for the reader to find it in the file


@dataclass(frozen=True)
class ResultRow:
    line: int
    mobile: str
    carrier: str
    product: str
    price: str
    custno: str  # "" until the batch is confirmed, or when the row was not placed
    state: str
    state_label: str
    problem: str  # why a valid row was not placed at confirmation


@dataclass(frozen=True)
class BatchResults:
    problems: list[ShownProblem]
    warnings: list[ShownProblem]
    rows: list[ResultRow]
    by_state: list[tuple[str, str, int]]  # (state, label, orders) of the orders placed


def _shown(problem: dict[str, Any]) -> ShownProblem:
    return ShownProblem(int(problem.get("line") or 0), field_label(str(problem.get("field", ""))),
                        shown_text(problem), ",".join(problem.get("cells") or ()))


def batch_results(batch: BulkBatch) -> BatchResults:
    """The batch's page in the reader's language: every line with its problem, or with its
    order and that order's state once confirmed (one query for all the orders)."""
    orders = {
        line: (custno, state)
        for line, custno, state in batch.orders.order_by().values_list(
            "batch_line", "custno", "state")
    }
    labels = dict(OrderState.choices)
    # Shown as "Not placed: <why>" in the line's own row: the "At confirmation" prefix of
    # the stored text would only repeat that.
    late = {int(p["line"]): shown_text({**p, "at_confirmation": False})
            for p in batch.problems if p.get("at_confirmation")}
    rows = []
    for row in batch.rows:
        line = int(row["line"])
        custno, state = orders.get(line, ("", ""))
        rows.append(ResultRow(
            line, str(row["mobile"]), str(row.get("carrier", "")), str(row["product"]),
            str(row["price"]), custno, state, str(labels.get(state, state)),
            late.get(line, "")))
    counts: dict[str, int] = {}
    for _custno, state in orders.values():
        counts[state] = counts.get(state, 0) + 1
    by_state = [(state, str(labels.get(state, state)), count)
                for state, count in sorted(counts.items(), key=lambda item: -item[1])]
    return BatchResults(
        problems=[_shown(p) for p in batch.problems if not p.get("at_confirmation")],
        warnings=[_shown(w) for w in batch.warnings],
        rows=rows,
        by_state=by_state,
    )
