"""The rule editor's JSON endpoints (lint, tester) answer a body nested 100,000 deep with a
400 and a JSON error naming the problem, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

DEEP = '{"rule": ' + "[" * 100_000 + "]" * 100_000 + "}"


@pytest.mark.parametrize("endpoint", ["delivery:lint", "delivery:test"])
def test_a_deep_body_is_a_400_naming_the_depth(manager_client: Any, endpoint: str) -> None:
    response = manager_client.post(reverse(endpoint), DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"error": "The JSON is nested deeper than 64 levels."}
