"""Use cases of the top-up app: the only code that combines the provider client and the models.

Views, API views, tasks and commands import from here; each use case lives in its own module.
"""

from topup.client import TopupError
from topup.services.again import top_up_again, topped_up_again_as
from topup.services.apitokens import (
    TokenInputError,
    TokenRefused,
    TokenThrottled,
    create_token,
    refuse_scope,
    refuse_unknown,
    report_unknown_tokens,
    revoke_token,
    token_for_key,
)
from topup.services.attention import Attention, operator_attention
from topup.services.balance import (
    daily_balance,
    history,
    latest_snapshot,
    take_snapshot,
)
from topup.services.bulk import (
    BatchResults,
    BulkFileError,
    batch_results,
    check_upload,
    confirm_batch,
    discard_batch,
)
from topup.services.callbacks import (
    MAX_CALLBACK_BYTES,
    CallbackReply,
    drain_receipts,
    judge_receipts_again,
    process_pending_receipts,
    process_receipt,
    receive_callback,
    replay_receipts,
    request_headers,
    unprocessed_receipt_ids,
)
from topup.services.checking import DueOrders, check_order, due_orders, seek_paused_until
from topup.services.codes import HELP as CODE_HELP
from topup.services.codes import CodeHelp, code_help
from topup.services.connection import build_client
from topup.services.counts import (
    callbacks_by_verdict,
    orders_by_state,
    today_and_waiting,
)
from topup.services.manual import MIN_REASON_LENGTH, confirm_manual, manual_queue
from topup.services.order_export import order_csv_lines
from topup.services.ordering import (
    CheckedRequest,
    IdempotencyConflict,
    OrderInputError,
    OrderRequest,
    check_mobile,
    check_request,
    place_api_order,
    place_order,
    submit_order,
)
from topup.services.products import save_product
from topup.services.reports import build_report

__all__ = [
    "Attention", "operator_attention", "CODE_HELP", "CodeHelp", "code_help",
    "save_product",
    "callbacks_by_verdict", "MIN_REASON_LENGTH",
    "orders_by_state",
    "today_and_waiting",
    "drain_receipts", "judge_receipts_again", "process_pending_receipts", "MAX_CALLBACK_BYTES",
    "BulkFileError", "TopupError",
    "CallbackReply", "CheckedRequest", "DueOrders", "IdempotencyConflict", "OrderInputError",
    "OrderRequest", "build_client", "build_report", "check_mobile", "check_order",
    "check_request", "check_upload", "confirm_batch", "confirm_manual", "discard_batch",
    "daily_balance", "due_orders", "history", "latest_snapshot", "manual_queue",
    "place_api_order", "place_order",
    "process_receipt", "receive_callback", "replay_receipts", "request_headers",
    "seek_paused_until", "submit_order", "take_snapshot", "unprocessed_receipt_ids",
    "TokenInputError", "TokenRefused", "create_token", "refuse_scope",
    "TokenThrottled", "refuse_unknown", "report_unknown_tokens",
    "revoke_token", "token_for_key",
    "order_csv_lines", "top_up_again", "topped_up_again_as", "BatchResults", "batch_results",
]
