"""`GET /api/v1/ops/queue/`: the judging queue for staff (counts, broker, workers)."""

import pytest

from interviews import models as m
from interviews.api import ops
from tests.interviews.world import World

URL = "/api/v1/ops/queue/"
KEYS = {"queued", "running", "broker_depth", "unacked", "workers", "worker_names", "errors"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "status"),
    [("admin", 200), ("owner", 403), ("coach", 403), ("anonymous", 401)],
)
def test_only_staff_see_the_queue(world: World, as_user, role, status, monkeypatch):
    monkeypatch.setattr(ops, "_workers", lambda: ["w1@host"])
    response = as_user(world.user(role)).get(URL)
    assert response.status_code == status
    if status == 200:
        assert set(response.json()) == KEYS
    if status == 401:
        assert response.has_header("WWW-Authenticate")


@pytest.mark.django_db
def test_counts_come_from_the_database(world: World, as_user, settings, monkeypatch):
    settings.REDIS_URL = None  # no broker: those numbers are unknown, not errors
    world.submission.status = m.Submission.Status.QUEUED
    world.submission.save(update_fields=["status"])
    for status in ("queued", "running", "running", "done"):
        m.Submission.objects.create(
            stage=world.coding,
            question=world.coding_q,
            part=1,
            author=world.owner,
            language="python",
            code="print(1)",
            mode="run",
            status=status,
        )
    data = as_user(world.admin).get(URL).json()
    assert (data["queued"], data["running"]) == (2, 2)
    assert data["broker_depth"] is None and data["workers"] is None
    assert data["errors"] == {}


@pytest.mark.django_db
def test_an_unreachable_broker_is_reported_not_raised(world: World, as_user, settings):
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens on the discard port
    response = as_user(world.admin).get(URL)
    assert response.status_code == 200
    data = response.json()
    assert data["broker_depth"] is None and data["workers"] is None
    assert "broker" in data["errors"]


def test_the_admin_index_links_the_queue(admin_client):
    response = admin_client.get("/admin/")
    assert response.status_code == 200
    assert URL.encode() in response.content
