"""The tasks through a real Celery worker and broker: orders placed by the API of the services
are sent by the worker after commit, and the beat task's queries settle them."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER, CUCC_NUMBER
from topup import services
from topup.models import FINAL_STATES, Order, OrderSource, OrderState

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def wait_for(condition, timeout_s: float = 60) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_a_worker_sends_queued_orders_and_the_beat_task_settles_them(
        redis_url, postgres, topup_sandbox, products):
    from backoffice.celery import app
    from topup.tasks import poll_orders_task

    topup_sandbox.fault(path="/chargeOrder", action="drop", when="after", times=1)
    with start_worker(app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
        orders = [services.place_order(services.OrderRequest(mobile=m, product_code=c),
                                       requested_by=None, source=OrderSource.SINGLE)
                  for m, c in ((CMCC_NUMBER, "CMCC_10"), (CUCC_NUMBER, "CUCC_20"),
                               (CTCC_NUMBER, "CTCC_10"))]
        ids = [o.pk for o in orders]
        assert wait_for(lambda: not Order.objects.filter(
            pk__in=ids, state__in=(OrderState.CREATED, OrderState.SUBMITTED)).exists())
        states = sorted(Order.objects.filter(pk__in=ids).values_list("state", flat=True))
        assert states == [OrderState.PENDING, OrderState.PENDING, OrderState.UNKNOWN]
        topup_sandbox.advance(10)
        Order.objects.filter(pk__in=ids).update(next_check_at=None)
        poll_orders_task.delay()
        assert wait_for(lambda: Order.objects.filter(pk__in=ids,
                                                     state__in=FINAL_STATES).count() == 3)
    assert set(Order.objects.filter(pk__in=ids).values_list("state", flat=True)) == {
        OrderState.SUCCESS}
    assert len(topup_sandbox.orders()) == 3
