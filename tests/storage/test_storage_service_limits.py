"""Permissions limited per service: a service limited to some groups is open only to their
members (and superusers). Others neither see it in the switcher nor open it by its name, and
its uploads and files stay out of their reach; an unlimited service is open to every group
with access to the pages."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from console.models import Service
from console.services import visible_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def videos(provider) -> Service:
    """A second service, limited to the videos team."""
    team = Group.objects.create(name="Videos team")
    service = Service.objects.create(name="videos-bucket", operator="o", operator_password="p")
    service.groups.set([team])
    return service


def test_a_limited_service_is_neither_listed_nor_opened_by_others(videos, manager_client,
                                                                   manager):
    assert [s.name for s in visible_services(manager, kind="file")] == []
    answer = manager_client.get(reverse("storage:index"), {"service": "videos-bucket"})
    assert answer.status_code == 403


def test_a_member_of_the_group_sees_and_opens_it(videos, manager_client, manager, provider):
    manager.groups.add(Group.objects.get(name="Videos team"))
    manager_client.get(reverse("storage:index"))  # the environment's bucket, unlimited
    names = [s.name for s in visible_services(manager, kind="file")]
    assert names == sorted([provider.info["storage"]["bucket"], "videos-bucket"])
    page = manager_client.get(reverse("storage:index"), {"service": "videos-bucket"})
    assert page.status_code == 200
    # Two services open to them: the switcher offers both, the page's own one chosen.
    assert '<option value="videos-bucket" selected>' in page.content.decode()


def test_an_unknown_service_name_is_a_staff_404(manager_client, provider):
    answer = manager_client.get(reverse("storage:index"), {"service": "no-such-bucket"})
    assert answer.status_code == 404
    assert "There is no storage service named" in answer.content.decode()


def test_a_change_posted_for_a_limited_service_is_refused(videos, manager_client):
    answer = manager_client.post(reverse("storage:create_folder"),
                                 {"service": "videos-bucket", "parent": "/", "name": "x"})
    assert answer.status_code == 403
