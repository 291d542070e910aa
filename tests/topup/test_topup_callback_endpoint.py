"""POST /api/topup/callback/: stored raw first, sign verified in constant time against the
current token (and the previous one during the grace period), acknowledged only when stored
and genuine, applied idempotently, and a final state never moves back."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from topup.models import (
    CallbackReceipt,
    EventKind,
    Order,
    OrderSource,
    OrderState,
    ReceiptOutcome,
    TokenState,
)

pytestmark = pytest.mark.django_db

URL = "/api/topup/callback/"
TOKEN = "CurrentToken0001"
OLD_TOKEN = "PreviousToken002"


def sign(code: str, custno: str, info: str, orderno: str, token: str = TOKEN) -> str:
    # Written out from DECISIONS, not taken from the code under test.
    text = f"code{code}custno{custno}info{info}orderno{orderno}token{token}"
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def body(code: str, custno: str, orderno: str = "P0001", info: str = "done",
         token: str = TOKEN) -> dict[str, str]:
    return {"code": code, "orderno": orderno, "custno": custno, "info": info,
            "sign": sign(code, custno, info, orderno, token)}


@pytest.fixture
def tokens(db) -> TokenState:
    now = timezone.now()
    return TokenState.objects.create(
        pk=1, token=TOKEN, obtained_at=now, expires_at=now + timedelta(hours=24),
        previous_token=OLD_TOKEN, previous_until=now + timedelta(minutes=10))


@pytest.fixture
def client() -> Client:
    # CSRF checks on, as in production: the provider has no CSRF token.
    return Client(enforce_csrf_checks=True)


@pytest.fixture
def order(products) -> Order:
    product = products["CMCC_10"]
    return Order.objects.create(
        custno="20261121000000000000abcdef01", mobile="13800138000", carrier="CMCC",
        product=product, prodcode=product.code, price=product.price, source=OrderSource.SINGLE,
        state=OrderState.PENDING, orderno="P0001", submitted_at=timezone.now())


def send(client: Client, payload: object, **extra: Any):
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return client.post(URL, data=raw, content_type="application/json", **extra)


@pytest.fixture
def post(eager_tasks, django_capture_on_commit_callbacks):
    """Send a callback and let what the endpoint queues after its commit run at once."""

    def post_and_apply(client: Client, payload: object, **extra: str):
        with django_capture_on_commit_callbacks(execute=True):
            return send(client, payload, **extra)

    return post_and_apply


def test_a_genuine_callback_is_stored_applied_and_acknowledged(client, post, tokens, order):
    response = post(client, body("200", order.custno), HTTP_X_FORWARDED_FOR="10.0.0.9")
    assert response.status_code == 200
    assert response.json() == {"info": "1"}
    receipt = CallbackReceipt.objects.get()
    assert json.loads(bytes(receipt.body)) == body("200", order.custno)
    assert receipt.headers["X-Forwarded-For"] == "10.0.0.9"
    assert receipt.remote_addr == "127.0.0.1"
    assert receipt.sign_valid is True and receipt.signed_with == "current"
    assert receipt.outcome == ReceiptOutcome.APPLIED and receipt.processed
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS
    event = order.events.get(kind=EventKind.CALLBACK)
    assert event.receipt == receipt and event.to_state == OrderState.SUCCESS


def test_a_forged_callback_is_refused_with_403_and_kept_as_invalid(client, post, tokens, order):
    forged = body("200", order.custno)
    forged["sign"] = sign("200", order.custno, "done", "P0001", token="GuessedToken0000")
    response = post(client, forged)
    assert response.status_code == 403
    assert response.json()["info"] != "1"
    receipt = CallbackReceipt.objects.get()
    assert receipt.sign_valid is False and receipt.outcome == ReceiptOutcome.INVALID_SIGN
    assert receipt.custno == order.custno  # kept, readable, for the report
    order.refresh_from_db()
    assert order.state == OrderState.PENDING and not order.events.exists()


@pytest.mark.parametrize("tamper", [
    lambda b: b.update(code="430"),          # a signed field changed after signing
    lambda b: b.update(sign=b["sign"].upper()),  # the sign is lowercase hex
    lambda b: b.pop("info"),                 # a signed field missing
    lambda b: b.update(info=None),           # not a string
])
def test_a_tampered_callback_does_not_verify(client, post, tokens, order, tamper):
    payload = body("200", order.custno)
    tamper(payload)
    assert post(client, payload).status_code == 403
    assert CallbackReceipt.objects.get().outcome == ReceiptOutcome.INVALID_SIGN


def test_a_sign_built_with_the_uppercase_token_name_is_refused(client, post, tokens, order):
    payload = body("200", order.custno)
    text = f"code200custno{order.custno}infodoneordernoP0001TOKEN{TOKEN}"
    payload["sign"] = hashlib.sha1(text.encode()).hexdigest()
    assert post(client, payload).status_code == 403


def test_an_unreadable_body_is_kept_and_refused(client, post, tokens):
    response = post(client, b"code=200&custno=x")
    assert response.status_code == 400
    receipt = CallbackReceipt.objects.get()
    assert bytes(receipt.body) == b"code=200&custno=x"
    assert receipt.outcome == ReceiptOutcome.MALFORMED and "not JSON" in receipt.error
    assert post(client, [1, 2]).status_code == 400


def test_a_duplicate_is_acknowledged_again_without_change(client, post, tokens, order):
    assert post(client, body("200", order.custno)).status_code == 200
    order.refresh_from_db()
    finished = order.finished_at
    response = post(client, body("200", order.custno))
    assert response.status_code == 200 and response.json() == {"info": "1"}
    assert list(CallbackReceipt.objects.order_by("id").values_list("outcome", flat=True)) == [
        ReceiptOutcome.APPLIED, ReceiptOutcome.DUPLICATE]
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS and order.finished_at == finished
    assert order.events.filter(kind=EventKind.CALLBACK).count() == 2
    assert order.events.filter(to_state=OrderState.SUCCESS).count() == 1


def test_a_late_in_progress_callback_never_moves_a_final_state_back(client, post, tokens, order):
    post(client, body("200", order.custno))
    assert post(client, body("201", order.custno, info="in progress")).status_code == 200
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS and not order.conflict
    assert CallbackReceipt.objects.order_by("-id")[0].outcome == ReceiptOutcome.STALE


def test_a_contradicting_final_callback_is_flagged_not_applied(client, post, tokens, order):
    post(client, body("200", order.custno))
    assert post(client, body("430", order.custno, info="failed")).status_code == 200
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS and order.conflict
    assert CallbackReceipt.objects.order_by("-id")[0].outcome == ReceiptOutcome.CONFLICT


def test_out_of_order_callbacks_end_in_the_final_state(client, post, tokens, order):
    post(client, body("430", order.custno, info="failed"))
    post(client, body("201", order.custno, info="in progress"))
    order.refresh_from_db()
    assert order.state == OrderState.FAILED


def test_an_in_progress_callback_moves_an_uncertain_order_to_pending(client, post, tokens, order):
    Order.objects.filter(pk=order.pk).update(state=OrderState.UNKNOWN, orderno="")
    post(client, body("201", order.custno, orderno="P0777", info="in progress"))
    order.refresh_from_db()
    assert order.state == OrderState.PENDING and order.orderno == "P0777"
    assert order.next_check_at is not None  # still queried if no final callback comes


def test_a_511_callback_sends_the_order_to_the_manual_queue(client, post, tokens, order):
    post(client, body("511", order.custno, info="confirm"))
    order.refresh_from_db()
    assert order.state == OrderState.MANUAL


def test_an_unknown_custno_is_kept_flagged_and_acknowledged(client, post, tokens):
    response = post(client, body("200", "NOTOURS123"))
    assert response.status_code == 200 and response.json() == {"info": "1"}
    receipt = CallbackReceipt.objects.get()
    assert receipt.unknown_custno and receipt.outcome == ReceiptOutcome.UNKNOWN_CUSTNO
    assert receipt.order is None


def test_a_callback_naming_another_provider_order_is_flagged(client, post, tokens, order):
    post(client, body("200", order.custno, orderno="P9999"))
    order.refresh_from_db()
    assert order.state == OrderState.PENDING and order.conflict
    assert CallbackReceipt.objects.get().outcome == ReceiptOutcome.CONFLICT


def test_the_previous_token_is_accepted_during_the_grace_period(client, post, tokens, order):
    response = post(client, body("200", order.custno, token=OLD_TOKEN))
    assert response.status_code == 200
    assert CallbackReceipt.objects.get().signed_with == "previous"


def test_the_previous_token_is_refused_after_the_grace_period(client, post, tokens, order):
    TokenState.objects.filter(pk=1).update(previous_until=timezone.now() - timedelta(seconds=1))
    assert post(client, body("200", order.custno, token=OLD_TOKEN)).status_code == 403


def test_credentials_in_headers_are_not_stored(client, post, tokens, order):
    client.cookies["sessionid"] = "secret-session"
    post(client, body("200", order.custno), HTTP_AUTHORIZATION="Bearer abc")
    headers = CallbackReceipt.objects.get().headers
    assert headers["Authorization"] == "[redacted]" and headers["Cookie"] == "[redacted]"


def test_a_processing_failure_keeps_the_receipt_for_a_replay(client, post, tokens, order,
                                                              monkeypatch):
    from topup import services
    from topup.services import callbacks

    def broken(*args, **kwargs):
        raise RuntimeError("database hiccup")

    monkeypatch.setattr(callbacks, "_apply", broken)
    response = post(client, body("200", order.custno))
    assert response.status_code == 200  # stored and genuine: the provider may stop sending
    receipt = CallbackReceipt.objects.get()
    assert receipt.outcome == ReceiptOutcome.ERROR and not receipt.processed
    assert "database hiccup" in receipt.error
    order.refresh_from_db()
    assert order.state == OrderState.PENDING and not order.events.exists()
    monkeypatch.undo()
    assert services.unprocessed_receipt_ids() == [receipt.pk]
    assert services.process_pending_receipts() == 1  # what the beat job does
    receipt.refresh_from_db()
    order.refresh_from_db()
    assert receipt.outcome == ReceiptOutcome.APPLIED and receipt.processed
    assert order.state == OrderState.SUCCESS


def test_an_admin_replay_applies_a_receipt_again_idempotently(client, post, tokens, order):
    from topup import services

    post(client, body("200", order.custno))
    receipt = CallbackReceipt.objects.get()
    summary = services.replay_receipts([receipt.pk])
    assert summary.replayed == 1
    receipt.refresh_from_db()
    assert receipt.replays == 1 and receipt.outcome == ReceiptOutcome.DUPLICATE
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS
    assert order.events.filter(to_state=OrderState.SUCCESS).count() == 1


def test_the_answer_does_not_wait_for_the_order_update(client, tokens, order):
    from topup import services

    response = send(client, body("200", order.custno))  # nothing queued is run
    assert response.status_code == 200 and response.json() == {"info": "1"}
    receipt = CallbackReceipt.objects.get()
    assert receipt.sign_valid and receipt.outcome == ReceiptOutcome.RECEIVED
    assert not receipt.processed
    assert services.process_pending_receipts() == 1
    assert services.process_pending_receipts() == 0  # a second run finds nothing to do
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS


def test_a_burst_of_callbacks_queues_one_processing_task(client, tokens, order, monkeypatch,
                                                         django_capture_on_commit_callbacks):
    from topup.tasks import process_callbacks_task

    queued = []
    monkeypatch.setattr(process_callbacks_task, "apply_async",
                        lambda *args, **options: queued.append(1))
    with django_capture_on_commit_callbacks(execute=True):
        for code in ("201", "201", "200"):
            send(client, body(code, order.custno))
    assert len(queued) == 1
    process_callbacks_task()  # the queued task: applies all three in order, clears the mark
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS
    assert [r.outcome for r in CallbackReceipt.objects.order_by("id")] == [
        ReceiptOutcome.DUPLICATE, ReceiptOutcome.DUPLICATE, ReceiptOutcome.APPLIED]
    with django_capture_on_commit_callbacks(execute=True):
        send(client, body("200", order.custno))
    assert len(queued) == 2  # once the task has finished, a new callback queues a new run


def test_a_callback_stored_while_the_task_runs_is_not_left_behind(client, tokens, order,
                                                                  monkeypatch):
    from django.core.cache import cache

    from topup import services
    from topup.services import callbacks
    from topup.tasks import process_callbacks_task

    queued = []
    monkeypatch.setattr(process_callbacks_task, "apply_async",
                        lambda *args, **options: queued.append(1))
    cache.add(callbacks.DRAIN_KEY, 1)  # a task is running: new callbacks queue nothing
    original = callbacks.process_pending_receipts
    late: list[object] = []

    def while_draining():
        done = original()
        if not late:  # a callback lands after the task's last look, before it lets go
            late.append(send(client, body("200", order.custno)))
        return done

    monkeypatch.setattr(callbacks, "process_pending_receipts", while_draining)
    send(client, body("201", order.custno))
    assert services.drain_receipts() == 2
    assert queued == []
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS
    assert cache.get(callbacks.DRAIN_KEY) is None


def test_a_processing_task_the_broker_refused_does_not_hold_back_the_next_callback(
        client, tokens, order, monkeypatch, django_capture_on_commit_callbacks):
    # The key said "queued" for five minutes with nothing queued: every later callback waited
    # for the beat job (issue 28's outage test).
    from django.core.cache import cache

    from topup.services import callbacks
    from topup.tasks import process_callbacks_task

    cache.delete(callbacks.DRAIN_KEY)
    attempts: list[int] = []

    def broker_down(*args: object, **options: object) -> None:
        attempts.append(1)
        raise ConnectionError("broker down")

    monkeypatch.setattr(process_callbacks_task, "apply_async", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        assert send(client, body("201", order.custno)).status_code == 200
        assert send(client, body("200", order.custno)).status_code == 200
    assert len(attempts) == 2  # the second callback tried again
    assert cache.get(callbacks.DRAIN_KEY) is None


def test_a_processing_run_that_fails_lets_the_next_callback_queue_one(client, tokens, order,
                                                                      monkeypatch):
    from django.core.cache import cache
    from django.db import OperationalError

    from topup import services
    from topup.services import callbacks

    send(client, body("200", order.custno))
    cache.set(callbacks.DRAIN_KEY, 1)  # this run's mark

    def database_gone() -> int:
        raise OperationalError("the database went away")

    monkeypatch.setattr(callbacks, "process_pending_receipts", database_gone)
    with pytest.raises(OperationalError):
        services.drain_receipts()
    assert cache.get(callbacks.DRAIN_KEY) is None


def test_a_forged_receipt_is_never_applied_by_a_replay(client, post, tokens, order):
    forged = body("200", order.custno, token="GuessedToken0000")
    post(client, forged)
    from topup import services

    summary = services.replay_receipts(list(CallbackReceipt.objects.values_list("pk", flat=True)))
    assert summary.replayed == 0 and summary.skipped_invalid == 1
    order.refresh_from_db()
    assert order.state == OrderState.PENDING


def test_only_post_is_accepted(client, post, tokens):
    assert client.get(URL).status_code == 405


def test_a_refusal_tells_the_caller_its_kind_but_no_parser_or_exception_text(
        client, post, tokens, monkeypatch):
    from topup.services import callbacks

    unreadable = post(client, b"\xff\xfe not json")
    assert unreadable.json() == {"info": "0", "error": "malformed"}

    def broken(*args, **kwargs):
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(callbacks, "_fields", broken)
    failed = post(client, body("200", "anything"))
    # Our own failure to judge it: 503 with Retry-After, never a 4xx the sender would drop.
    assert failed.status_code == 503 and failed["Retry-After"] == "30"
    assert failed.json() == {"info": "0", "error": "unavailable"}
    assert "secret internal detail" in CallbackReceipt.objects.latest("pk").error


def test_a_receipt_whose_judging_failed_is_applied_by_a_replay_once_the_cause_is_gone(
        client, post, tokens, order, monkeypatch):
    from topup import services
    from topup.services import callbacks

    def broken(*args, **kwargs):
        raise RuntimeError("codec bug")

    monkeypatch.setattr(callbacks, "_verify", broken)
    post(client, body("200", order.custno))
    receipt = CallbackReceipt.objects.get()
    assert receipt.sign_valid is None and receipt.outcome == ReceiptOutcome.ERROR
    assert services.replay_receipts([receipt.pk]).skipped_invalid == 1  # the bug is still there
    monkeypatch.undo()
    assert services.replay_receipts([receipt.pk]).replayed == 1
    receipt.refresh_from_db()
    order.refresh_from_db()
    assert receipt.sign_valid is True and receipt.outcome == ReceiptOutcome.APPLIED
    assert order.state == OrderState.SUCCESS


def test_a_forged_receipt_whose_judging_failed_stays_refused_after_a_replay(
        client, post, tokens, order, monkeypatch):
    from topup import services
    from topup.services import callbacks

    monkeypatch.setattr(callbacks, "_verify", lambda payload: 1 / 0)
    post(client, body("200", order.custno, token="NotTheToken00000"))
    monkeypatch.undo()
    receipt = CallbackReceipt.objects.get()
    assert services.replay_receipts([receipt.pk]).skipped_invalid == 1
    receipt.refresh_from_db()
    order.refresh_from_db()
    assert receipt.sign_valid is False and order.state == OrderState.PENDING


def test_a_receipt_whose_judging_failed_is_judged_again_and_applied_by_the_beat_job(
        client, post, tokens, order, monkeypatch):
    from topup import services
    from topup.services import callbacks

    monkeypatch.setattr(callbacks, "_verify", lambda payload: 1 / 0)  # as in an outage
    answer = post(client, body("200", order.custno))
    forged = post(client, body("200", order.custno, token="NotTheToken00000"))
    assert (answer.status_code, forged.status_code) == (503, 503)
    assert services.judge_receipts_again() == 0  # still failing: kept for the next run
    monkeypatch.undo()
    assert services.judge_receipts_again() == 1  # the genuine one; the forged one refused
    order.refresh_from_db()
    assert order.state == OrderState.SUCCESS
    outcomes = sorted(CallbackReceipt.objects.values_list("outcome", flat=True))
    assert outcomes == sorted([ReceiptOutcome.APPLIED, ReceiptOutcome.INVALID_SIGN])
    assert services.judge_receipts_again() == 0  # nothing left unjudged


def test_callbacks_unjudged_while_the_database_is_away_log_one_line_a_minute(
        client, post, tokens, order, monkeypatch, caplog):
    # Issue 28: one line a minute in an outage, not a traceback per request.
    from django.db import OperationalError

    from backoffice.operations import once_a_minute
    from topup.services import callbacks

    def unreachable() -> None:
        raise OperationalError("connection refused")

    once_a_minute.forget()
    monkeypatch.setattr(callbacks, "read_row", unreachable)
    for _ in range(3):  # signed with another token: the row must be read to judge them
        failed = post(client, body("200", order.custno, token="NotTheToken00000"))
        assert failed.status_code == 503 and failed["Retry-After"] == "30"
    lines = [record for record in caplog.records if "could not be judged" in record.getMessage()]
    assert len(lines) == 1 and lines[0].levelname == "WARNING" and not lines[0].exc_info
    assert CallbackReceipt.objects.filter(outcome=ReceiptOutcome.ERROR).count() == 3
