"""seekOrder: an order's current code, found by custno within the time window."""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.topup import codes, progress, shanghai_time, throttle
from sandbox.topup.charging import CUSTNO_MAX
from sandbox.topup.models import Order
from sandbox.topup.protocol import Body, TopupError, optional_text, required_text
from sandbox.topup.signing import Pairs

AROUND_REQUESTTIME_S = 3600  # one hour either side of requesttime
DEFAULT_LOOKBACK_S = 7 * 24 * 3600  # without requesttime: the last week


@dataclass(frozen=True)
class SeekRequest:
    appkey: str
    custno: str
    sign: str
    requesttime: str | None

    @classmethod
    def read(cls, body: Body) -> SeekRequest:
        return cls(appkey=required_text(body, "appkey"), custno=required_text(body, "custno"),
                   sign=required_text(body, "sign"),
                   requesttime=optional_text(body, "requesttime"))

    def signed_pairs(self) -> Pairs:
        """seekOrder's sign: appkey custno [requesttime], then `TOKEN` (uppercase)."""
        pairs = [("appkey", self.appkey), ("custno", self.custno)]
        if self.requesttime is not None:
            pairs.append(("requesttime", self.requesttime))
        return pairs


def window(requesttime: str | None, now: float) -> tuple[float, float]:
    if requesttime is None:
        return now - DEFAULT_LOOKBACK_S, now
    try:
        moment = shanghai_time.parse(requesttime)
    except ValueError as error:
        raise TopupError(codes.PARAMETER_ABNORMAL, f"requesttime: {error}") from None
    return moment - AROUND_REQUESTTIME_S, moment + AROUND_REQUESTTIME_S


def seek(request: SeekRequest, now: float) -> Order:
    if len(request.custno) > CUSTNO_MAX:
        raise TopupError(codes.CUSTNO_TOO_LONG,
                         f"custno is {len(request.custno)} characters; it must be shorter "
                         "than 30")
    start, end = window(request.requesttime, now)
    if not throttle.admit_seek(request.custno, now):
        raise TopupError(codes.TOO_FREQUENT,
                         f"more than {throttle.SEEK_LIMIT} queries for {request.custno} in "
                         f"{throttle.SEEK_WINDOW_S:g} s")
    progress.settle_due(now, request.custno)  # a query never shows 201 after the due time
    order = Order.objects.filter(custno=request.custno, created_at__gte=start,
                                 created_at__lte=end).first()
    if order is None:
        raise TopupError(codes.NO_SUCH_ORDER, f"no order {request.custno} in the time searched")
    return order
