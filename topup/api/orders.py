"""The merchant API: place an order (idempotent) and read one."""

from __future__ import annotations

import re

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backoffice.annotations import StaffApiRequest
from topup import services
from topup.api.authentication import HasScope, MerchantTokenAuthentication, PerTokenRateThrottle
from topup.api.permissions import HasViewPermission
from topup.api.serializers import OrderCreateSerializer, OrderSerializer
from topup.models import Order

IDEMPOTENCY_HEADER = "Idempotency-Key"
KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,100}")  # printable ASCII without spaces


# Merchant tokens first (their 401 carries the Bearer challenge); staff sessions for the
# browsable use. DRF's Token scheme is retired (see topup.api.authentication).
AUTHENTICATION = [MerchantTokenAuthentication, SessionAuthentication]


class OrderCreateView(APIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticated, HasScope, HasViewPermission]
    throttle_classes = [PerTokenRateThrottle]
    required_permission = "topup.charge_topup"
    required_scope = "orders:write"

    @extend_schema(
        summary=gettext_lazy("Place a top-up order"),
        description=gettext_lazy(
            "Stores the order and queues its chargeOrder. Send a unique `Idempotency-Key` per "
            "intended top-up: repeating a request with the same key returns the order already "
            "placed (200) instead of placing another; the same key with a different body is "
            "refused (409). Follow the order with `GET /api/topup/orders/{custno}/`."
        ),
        parameters=[OpenApiParameter(
            IDEMPOTENCY_HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, required=True,
            description=gettext_lazy(
                "1 to 100 printable ASCII characters, unique per intended top-up."))],
        request=OrderCreateSerializer,
        responses={
            201: OpenApiResponse(OrderSerializer, description=gettext_lazy("Order placed.")),
            200: OpenApiResponse(OrderSerializer, description=gettext_lazy(
                "Repeated request: the order placed earlier under this key.")),
            400: OpenApiResponse(description=gettext_lazy(
                "Invalid request: each field with its messages.")),
            409: OpenApiResponse(description=gettext_lazy(
                "The key was used for a different request.")),
        },
    )
    def post(self, request: StaffApiRequest) -> Response:
        key = request.headers.get(IDEMPOTENCY_HEADER, "")
        if not KEY_PATTERN.fullmatch(key):
            return Response({IDEMPOTENCY_HEADER: [_(
                "Required: 1 to 100 printable ASCII characters without spaces.")]},
                status=status.HTTP_400_BAD_REQUEST)
        incoming = OrderCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        order_request = services.OrderRequest(
            mobile=data["mobile"], product_code=data["product"],
            prodtime=data.get("prodtime"), prodstandard=data.get("prodstandard"),
            allow_other_carrier=data["allow_other_carrier"])
        try:
            order, placed = services.place_api_order(
                order_request, requested_by=request.user, idempotency_key=key)
        except services.OrderInputError as error:
            return Response({error.field: [error.message]}, status=status.HTTP_400_BAD_REQUEST)
        except services.IdempotencyConflict as conflict:
            return Response({IDEMPOTENCY_HEADER: [_(
                "This key was already used for a different request (order %(custno)s).")
                % {"custno": conflict.order.custno}]}, status=status.HTTP_409_CONFLICT)
        return Response(OrderSerializer(order).data,
                        status=status.HTTP_201_CREATED if placed else status.HTTP_200_OK)


class OrderDetailView(APIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticated, HasScope, HasViewPermission]
    throttle_classes = [PerTokenRateThrottle]
    required_permission = "topup.view_order"
    required_scope = "orders:read"

    @extend_schema(summary=gettext_lazy("Read one top-up order"), responses={
        200: OpenApiResponse(OrderSerializer, description=gettext_lazy("The order.")),
        404: OpenApiResponse(description=gettext_lazy("No order has this number.")),
    })
    def get(self, request: StaffApiRequest, custno: str) -> Response:
        order = get_object_or_404(Order, custno=custno)
        return Response(OrderSerializer(order).data)
