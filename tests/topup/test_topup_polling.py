"""The beat job's queries: which orders are due, the back-off per order, the pause for every
query after a 510, and the tasks that carry it out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER
from topup import services
from topup.models import EventKind, Order, OrderSource, OrderState
from topup.services.checking import PAUSE_KEY, backoff_delay

pytestmark = pytest.mark.django_db

TOO_FREQUENT = {"code": "510", "custno": "", "info": "queries too frequent"}


def place(mobile: str = CMCC_NUMBER, code: str = "CMCC_10") -> Order:
    return services.place_order(services.OrderRequest(mobile=mobile, product_code=code),
                                requested_by=None, source=OrderSource.SINGLE)


def test_only_due_open_orders_are_picked_and_then_leased(products):
    now = timezone.now()
    due = place()
    later = place()
    final = place()
    stale_created = place()
    fresh_created = place()
    Order.objects.filter(pk=due.pk).update(state=OrderState.PENDING,
                                           next_check_at=now - timedelta(seconds=1))
    Order.objects.filter(pk=later.pk).update(state=OrderState.PENDING,
                                             next_check_at=now + timedelta(minutes=1))
    Order.objects.filter(pk=final.pk).update(state=OrderState.SUCCESS, next_check_at=None)
    Order.objects.filter(pk=stale_created.pk).update(created_at=now - timedelta(minutes=5))
    picked = services.due_orders()
    assert picked.to_check == [due.pk]
    assert picked.to_submit == [stale_created.pk]
    assert fresh_created.pk not in picked.to_submit
    # Leased: the next beat run does not hand the same order out again.
    assert services.due_orders().to_check == []
    next_check_at = Order.objects.get(pk=due.pk).next_check_at
    assert next_check_at is not None and next_check_at > now + timedelta(minutes=4)


def test_the_wait_between_queries_doubles_up_to_the_cap(settings):
    settings.TOPUP_FIRST_CHECK_S = 30
    settings.TOPUP_CHECK_MAX_INTERVAL_S = 600
    waits = [backoff_delay(n).total_seconds() for n in range(7)]
    assert waits == [30, 60, 120, 240, 480, 600, 600]


def test_an_order_in_progress_is_asked_again_later_each_time(topup_sandbox, products, settings):
    settings.TOPUP_FIRST_CHECK_S = 30
    topup_sandbox.settings(progress_delay_s=3600)
    order = place()
    services.submit_order(order.pk)
    gaps = []
    for _ in range(3):
        before = timezone.now()
        assert services.check_order(order.pk) == OrderState.PENDING
        next_check_at = Order.objects.get(pk=order.pk).next_check_at
        assert next_check_at is not None
        gaps.append((next_check_at - before).total_seconds())
    assert gaps[0] < gaps[1] < gaps[2]


def test_a_510_pauses_every_query_and_repeats_double_the_pause(topup_sandbox, products,
                                                               settings):
    settings.TOPUP_BACK_OFF_S = 60
    first, second = place(), place(CTCC_NUMBER, "CTCC_10")
    for order in (first, second):
        services.submit_order(order.pk)
    topup_sandbox.fault(path="/seekOrder", action="status", status=200, body=TOO_FREQUENT,
                        times=1)
    assert services.check_order(first.pk) == OrderState.PENDING
    paused = services.seek_paused_until()
    assert paused is not None and paused > timezone.now() + timedelta(seconds=55)
    # The other order is not asked at all while the pause lasts.
    assert services.check_order(second.pk) == OrderState.PENDING
    assert not Order.objects.get(pk=second.pk).events.filter(kind=EventKind.SEEK).exists()
    assert Order.objects.get(pk=second.pk).next_check_at == paused
    # The pause ends; the provider still says 510: the next pause is twice as long.
    cache.set(PAUSE_KEY, {**cache.get(PAUSE_KEY), "until": timezone.now()}, timeout=600)
    topup_sandbox.fault(path="/seekOrder", action="status", status=200, body=TOO_FREQUENT,
                        times=1)
    services.check_order(second.pk)
    assert cache.get(PAUSE_KEY)["streak"] == 2
    paused = services.seek_paused_until()
    assert paused is not None and paused > timezone.now() + timedelta(seconds=115)
    # An answer that is not 510 ends the streak.
    cache.set(PAUSE_KEY, {**cache.get(PAUSE_KEY), "until": timezone.now()}, timeout=600)
    topup_sandbox.advance(10)
    assert services.check_order(second.pk) == OrderState.SUCCESS
    assert cache.get(PAUSE_KEY) is None


def test_a_seek_without_a_usable_answer_is_retried_later(topup_sandbox, products):
    order = place()
    services.submit_order(order.pk)
    topup_sandbox.fault(path="/seekOrder", action="drop", times=1)
    assert services.check_order(order.pk) == OrderState.PENDING
    order.refresh_from_db()
    assert order.next_check_at is not None and order.next_check_at > timezone.now()
    seek = order.events.filter(kind=EventKind.SEEK).last()
    assert seek is not None and "no usable answer" in seek.text


@pytest.mark.django_db(transaction=True)
def test_the_beat_task_queues_queries_that_settle_the_orders(topup_sandbox, products,
                                                             eager_tasks):
    from topup.tasks import poll_orders_task

    orders = [place(), place(CTCC_NUMBER, "CTCC_30")]  # eager: sent at once, after commit
    assert {o.state for o in Order.objects.all()} == {OrderState.PENDING}
    topup_sandbox.advance(10)
    Order.objects.update(next_check_at=timezone.now())
    assert poll_orders_task.delay().get() == {"checked": 2, "submitted": 0}
    assert {o.state for o in Order.objects.filter(pk__in=[o.pk for o in orders])} == {
        OrderState.SUCCESS}


@pytest.mark.django_db(transaction=True)
def test_the_beat_task_sends_an_order_whose_task_was_lost(topup_sandbox, products, eager_tasks,
                                                          monkeypatch):
    from topup.services import ordering
    from topup.tasks import poll_orders_task

    with monkeypatch.context() as patch:
        patch.setattr(ordering, "enqueue_submission", lambda order_id: None)  # broker lost it
        order = place()
    Order.objects.filter(pk=order.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    assert poll_orders_task.delay().get()["submitted"] == 1
    assert Order.objects.get(pk=order.pk).state == OrderState.PENDING
    assert len(topup_sandbox.orders()) == 1
