"""The ops queue view against the real broker and the real Celery worker."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from interviews.api.ops import WORKERS_CACHE_KEY
from tests.factories import AdminFactory

pytestmark = pytest.mark.integration


def test_staff_see_the_live_workers_and_the_broker_depth(celery_worker):
    cache.delete(WORKERS_CACHE_KEY)
    client = APIClient()
    client.force_authenticate(AdminFactory())
    data = client.get("/api/v1/ops/queue/").json()
    assert data["errors"] == {}
    assert isinstance(data["broker_depth"], int) and data["broker_depth"] >= 0
    assert isinstance(data["unacked"], int)
    assert data["workers"] >= 1
    assert any(name.startswith("test") for name in data["worker_names"]), data
