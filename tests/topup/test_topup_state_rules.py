"""The order state machine and the timeline: final states have no way out, every change is a
conditional update logged once, and the timeline cannot be rewritten."""

from __future__ import annotations

import pytest

from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import FINAL_STATES, Order, OrderEvent, OrderSource, OrderState
from topup.services.statemachine import ALLOWED_SOURCES, can_move, move

S = OrderState


def test_no_transition_leaves_a_final_state():
    for target in S:
        for final in FINAL_STATES:
            assert not can_move(final, target)


def test_the_documented_path_is_allowed():
    path = [S.CREATED, S.SUBMITTED, S.PENDING, S.SUCCESS]
    assert all(can_move(a, b) for a, b in zip(path, path[1:], strict=False))
    assert can_move(S.SUBMITTED, S.UNKNOWN) and can_move(S.UNKNOWN, S.MANUAL)
    assert not can_move(S.PENDING, S.SUBMITTED)  # a created order is never sent again
    assert not can_move(S.CREATED, S.SUCCESS)    # nothing succeeds without being sent
    assert S.CREATED not in ALLOWED_SOURCES


@pytest.mark.django_db
def test_only_one_of_two_competing_moves_wins(products):
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    Order.objects.filter(pk=order.pk).update(state=S.PENDING)
    assert move(order.pk, S.SUCCESS, message="callback") == S.PENDING
    assert move(order.pk, S.FAILED, message="late query") is None
    order.refresh_from_db()
    assert order.state == S.SUCCESS and order.finished_at is not None
    assert order.events.filter(to_state__in=FINAL_STATES).count() == 1


@pytest.mark.django_db
def test_the_timeline_is_append_only(products):
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    event = order.events.get()
    event.message = "rewritten"
    with pytest.raises(TypeError):
        event.save()
    with pytest.raises(TypeError):
        event.delete()
    with pytest.raises(TypeError):
        OrderEvent.objects.filter(pk=event.pk).update(message="rewritten")
    with pytest.raises(TypeError):
        OrderEvent.objects.all().delete()
    assert OrderEvent.objects.get(pk=event.pk).message == "Order placed."


@pytest.mark.django_db
def test_a_translation_that_lost_a_placeholder_still_shows_what_happened(products):
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    event = OrderEvent.objects.create(order=order, kind="note", message="Code %(code)s.",
                                      params={"other": "x"})
    assert event.text == "Code %(code)s. {'other': 'x'}"
    fine = OrderEvent.objects.create(order=order, kind="note", message="Code %(code)s.",
                                     params={"code": "200"})
    assert fine.text == "Code 200."
