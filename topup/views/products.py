"""Our product list: what can be ordered and what the provider charges for it."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from backoffice.annotations import StaffRequest
from topup import services
from topup.forms import ProductForm
from topup.models import Product
from topup.views.access import ADD_PRODUCT, CHANGE_PRODUCT, abilities, needs


@require_GET
@needs()
def product_list(request: StaffRequest) -> HttpResponse:
    return render(request, "topup/product_list.html", {
        "products": Product.objects.all(), **abilities(request.user)})


@needs(ADD_PRODUCT)
def product_new(request: StaffRequest) -> HttpResponse:
    return _edit(request, Product())


@needs(CHANGE_PRODUCT)
def product_edit(request: StaffRequest, pk: int) -> HttpResponse:
    return _edit(request, get_object_or_404(Product, pk=pk))


def _edit(request: StaffRequest, product: Product) -> HttpResponse:
    form = ProductForm(request.POST or None, instance=product)
    if request.method == "POST" and form.is_valid():
        saved = services.save_product(form.save(commit=False))  # the form writes nothing
        messages.success(request, _("Product %(code)s saved.") % {"code": saved.code})
        return redirect("topup:product_list")
    return render(request, "topup/product_form.html", {"form": form, "product": product})
