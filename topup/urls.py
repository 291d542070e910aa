from django.urls import path

from topup.views import apitokens, balance, bulk, home, manual, orders, products, reports

app_name = "topup"

urlpatterns = [
    path("", home.TopupHomeView.as_view(), name="index"),
    path("orders/", orders.order_list, name="order_list"),
    path("orders/new/", orders.order_new, name="order_new"),
    path("orders/carrier/", orders.carrier_lookup, name="carrier_lookup"),
    path("orders/export.csv", orders.order_csv, name="order_csv"),
    path("orders/<str:custno>/", orders.order_detail, name="order_detail"),
    path("orders/<str:custno>/check/", orders.order_check, name="order_check"),
    path("orders/<str:custno>/again/", orders.order_again, name="order_again"),
    path("orders/<str:custno>/confirm/", manual.manual_confirm, name="manual_confirm"),
    path("manual/", manual.manual_queue, name="manual_queue"),
    path("bulk/", bulk.bulk_index, name="bulk_index"),
    path("bulk/<int:pk>/", bulk.bulk_detail, name="bulk_detail"),
    path("bulk/<int:pk>/confirm/", bulk.bulk_confirm, name="bulk_confirm"),
    path("bulk/<int:pk>/discard/", bulk.bulk_discard, name="bulk_discard"),
    path("balance/", balance.balance_page, name="balance"),
    path("balance/refresh/", balance.balance_refresh, name="balance_refresh"),
    path("reports/", reports.report_list, name="report_list"),
    path("reports/run/", reports.report_run, name="report_run"),
    path("reports/<str:day>/", reports.report_detail, name="report_detail"),
    path("products/", products.product_list, name="product_list"),
    path("products/new/", products.product_new, name="product_new"),
    path("products/<int:pk>/", products.product_edit, name="product_edit"),
    path("api-tokens/", apitokens.token_list, name="api_tokens"),
    path("api-tokens/<int:pk>/revoke/", apitokens.token_revoke, name="api_token_revoke"),
]
