"""The coached clock through the API: the queue lists pending rounds from the loop's
start, the candidate's start waits for a claim (or `solo`), and who is refused how."""

import pytest

from interviews.models import Stage
from tests.interviews.world import World

API = "/api/v1"
pytestmark = pytest.mark.django_db


def _start(client, stage: Stage, body: dict | None = None):
    return client.post(f"{API}/stages/{stage.pk}/start/", body or {}, format="json")


def test_a_new_coached_loop_is_in_the_queue_at_once(world: World, as_user):
    candidate = as_user(world.other)
    loop = candidate.post(
        f"{API}/loops/", {"template": world.template.slug, "coached": True}, format="json"
    ).json()
    assert [s["coach_requested"] for s in loop["stages"]] == [True, True, True, False]
    queue = as_user(world.coach).get(f"{API}/coach/queue/").json()
    mine = [e for e in queue if e["loop"] == loop["id"]]
    assert [(e["kind"], e["status"]) for e in mine] == [
        ("coding", "pending"),
        ("review", "pending"),
        ("values", "pending"),
    ]
    assert all(e["loop_started_at"] == loop["created_at"] for e in mine)
    assert all(e["candidate"] == "other" and e["deadline"] is None for e in mine)


def test_the_candidate_waits_for_a_claim_or_goes_solo(world: World, as_user):
    owner = as_user(world.owner)
    owner.post(f"{API}/stages/{world.coding.pk}/finish/")
    response = _start(owner, world.values)
    assert response.status_code == 409 and response.json()["code"] == "coach_not_claimed"
    assert "continue solo" in response.json()["detail"]
    assert _start(owner, world.values, {"solo": "yes"}).status_code == 400

    started = _start(owner, world.values, {"solo": True})
    assert started.status_code == 200
    assert started.json()["status"] == "live" and started.json()["coach_requested"] is False
    queue = as_user(world.coach).get(f"{API}/coach/queue/").json()
    assert world.values.pk not in [e["id"] for e in queue]


def test_claimed_while_pending_then_started_by_the_coach(world: World, as_user):
    as_user(world.owner).post(f"{API}/stages/{world.coding.pk}/finish/")
    coach = as_user(world.coach)
    claimed = coach.post(f"{API}/stages/{world.values.pk}/claim/").json()
    assert claimed["status"] == "pending" and claimed["coach"] == "coach-free"
    started = _start(coach, world.values)
    assert started.status_code == 200 and started.json()["deadline"]


def test_refused_roles(world: World, as_user):
    as_user(world.owner).post(f"{API}/stages/{world.coding.pk}/finish/")
    # A coach before claiming: the stage is not theirs to see (404), nor to start.
    assert _start(as_user(world.coach), world.values).status_code == 404
    # The candidate of another loop sees nothing of it.
    assert _start(as_user(world.other), world.values).status_code == 404
    assert _start(as_user(world.other), world.values, {"solo": True}).status_code == 404
    # Once claimed, another coach is refused too, and the stage stays pending.
    as_user(world.coach).post(f"{API}/stages/{world.values.pk}/claim/")
    assert _start(as_user(world.assigned), world.values).status_code == 404
    taken = as_user(world.assigned).post(f"{API}/stages/{world.values.pk}/claim/")
    assert taken.status_code == 409 and taken.json()["code"] == "stage_taken"
    world.values.refresh_from_db()
    assert world.values.status == "pending"
