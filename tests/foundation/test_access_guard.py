"""The shared page guard: the app's access permission plus the view's own, or 403."""

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.test import RequestFactory

from backoffice.security.access import access_guard

pytestmark = pytest.mark.django_db

needs = access_guard("sms.access_sms")


@needs("sms.send_sms")
def send_page(request):
    return HttpResponse("sent")


def request_by(django_user_model, *codenames):
    user = django_user_model.objects.create_user("guarded", password="pw-123456!")
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    request = RequestFactory().post("/sms/send/")
    request.user = django_user_model.objects.get(pk=user.pk)  # fresh permission cache
    return request


def test_it_lets_through_a_user_with_access_and_the_action(django_user_model):
    response = send_page(request_by(django_user_model, "access_sms", "send_sms"))
    assert isinstance(response, HttpResponse) and response.content == b"sent"


@pytest.mark.parametrize("codenames", [(), ("access_sms",), ("send_sms",)])
def test_it_refuses_without_either_permission(django_user_model, codenames):
    with pytest.raises(PermissionDenied):
        send_page(request_by(django_user_model, *codenames))
