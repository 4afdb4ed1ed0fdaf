"""Scheduling through the API: a coach publishes a slot in their zone (stored UTC), the
candidate books it for a coached round, both list it as upcoming, either cancels or
reschedules it; double booking is 409 with a specific code, a past booking 400, and every
other role is refused."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from interviews.services.stages import stage_finish
from tests.interviews.world import World

API = "/api/v1"
pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(world: World):
    stage_finish(stage=world.coding, actor=world.owner)
    world.values.refresh_from_db()
    return world.values


def _publish(client, starts_local: str, zone: str = "UTC", minutes: int = 60, weeks: int = 1):
    return client.post(
        f"{API}/slots/",
        {"starts_local": starts_local, "time_zone": zone, "minutes": minutes, "weeks": weeks},
        format="json",
    )


def _soon(days: int = 3, hour: int = 9) -> str:
    day = (timezone.now() + timedelta(days=days)).date()
    return datetime(day.year, day.month, day.day, hour).isoformat(timespec="minutes")


def test_a_slot_entered_in_new_york_is_stored_in_utc_winter_and_summer(world: World, as_user):
    coach = as_user(world.coach)
    winter = _publish(coach, "2030-01-15T09:00", "America/New_York")
    summer = _publish(coach, "2030-07-15T09:00", "America/New_York")
    assert winter.status_code == 201, winter.json()
    assert winter.json()[0]["starts_at"] == "2030-01-15T14:00:00Z"
    assert summer.json()[0]["starts_at"] == "2030-07-15T13:00:00Z"
    assert summer.json()[0]["starts_local"] == "2030-07-15T09:00"
    mine = coach.get(f"{API}/slots/").json()
    assert [s["starts_at"] for s in mine] == ["2030-01-15T14:00:00Z", "2030-07-15T13:00:00Z"]
    overlap = _publish(coach, "2030-01-15T09:30", "America/New_York")
    assert overlap.status_code == 409 and overlap.json()["code"] == "slot_overlaps"
    past = _publish(coach, "2020-01-15T09:00")
    assert past.status_code == 400 and past.json()["code"] == "slot_in_past"
    bad_zone = _publish(coach, "2030-01-15T09:00", "Nowhere/Else")
    assert bad_zone.status_code == 400 and "time_zone" in bad_zone.json()["errors"]


def test_only_coaches_publish_and_edit_their_own_slots(world: World, as_user):
    assert _publish(as_user(world.owner), _soon()).status_code == 403
    assert _publish(as_user(world.admin), _soon()).status_code == 403
    assert as_user(world.owner).get(f"{API}/slots/").status_code == 403
    assert _publish(as_user(None), _soon()).status_code in (401, 403)
    slot = _publish(as_user(world.coach), _soon()).json()[0]
    other_coach = as_user(world.assigned)
    moved = {"starts_local": _soon(4), "time_zone": "UTC", "minutes": 30}
    assert other_coach.put(f"{API}/slots/{slot['id']}/", moved, format="json").status_code == 403
    assert other_coach.delete(f"{API}/slots/{slot['id']}/").status_code == 403
    coach = as_user(world.coach)
    assert coach.put(f"{API}/slots/{slot['id']}/", moved, format="json").json()["minutes"] == 30
    assert coach.delete(f"{API}/slots/{slot['id']}/").status_code == 204
    assert coach.get(f"{API}/slots/").json() == []


def test_book_list_reschedule_and_cancel(world: World, as_user, waiting):
    coach = as_user(world.coach)
    first = _publish(coach, _soon(hour=9)).json()[0]
    second = _publish(coach, _soon(hour=15)).json()[0]
    owner = as_user(world.owner)
    assert {s["id"] for s in owner.get(f"{API}/slots/open/").json()} >= {first["id"], second["id"]}

    booked = owner.post(
        f"{API}/bookings/", {"stage": waiting.pk, "slot": first["id"]}, format="json"
    )
    assert booked.status_code == 201, booked.json()
    booking = booked.json()
    assert booking["coach"] == "coach-free" and booking["room_path"] == f"/stages/{waiting.pk}"
    assert first["id"] not in [s["id"] for s in owner.get(f"{API}/slots/open/").json()]
    stage = owner.get(f"{API}/stages/{waiting.pk}/").json()
    assert stage["coach"] == "coach-free"

    coach_view = coach.get(f"{API}/bookings/").json()
    assert [(b["id"], b["room_path"]) for b in coach_view] == [
        (booking["id"], f"/coach/stages/{waiting.pk}")
    ]
    assert [b["id"] for b in owner.get(f"{API}/bookings/").json()] == [booking["id"]]
    assert as_user(world.other).get(f"{API}/bookings/").json() == []

    moved = coach.post(
        f"{API}/bookings/{booking['id']}/reschedule/", {"slot": second["id"]}, format="json"
    )
    assert moved.status_code == 200 and moved.json()["starts_at"] == second["starts_at"]
    assert moved.json()["sequence"] == 1

    cancelled = owner.post(f"{API}/bookings/{booking['id']}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert owner.get(f"{API}/bookings/").json() == []
    again = owner.post(f"{API}/bookings/{booking['id']}/cancel/")
    assert again.status_code == 409 and again.json()["code"] == "booking_not_active"


def test_double_booking_is_409_and_the_past_400(world: World, as_user, waiting):
    coach = as_user(world.coach)
    slot = _publish(coach, _soon(hour=9)).json()[0]
    later = _publish(coach, _soon(hour=12)).json()[0]
    owner = as_user(world.owner)
    book = owner.post(f"{API}/bookings/", {"stage": waiting.pk, "slot": slot["id"]}, format="json")
    assert book.status_code == 201
    twice = owner.post(
        f"{API}/bookings/", {"stage": waiting.pk, "slot": later["id"]}, format="json"
    )
    assert twice.status_code == 409 and twice.json()["code"] == "stage_already_booked"
    clash = _publish(as_user(world.assigned), _soon(hour=9), minutes=30).json()[0]
    overlapping = owner.post(
        f"{API}/bookings/", {"stage": world.review.pk, "slot": clash["id"]}, format="json"
    )
    assert overlapping.status_code == 409
    assert overlapping.json()["code"] == "booking_overlaps"
    # A taken slot is no longer offered, and booking it anyway is 409.
    other = as_user(world.other)
    assert slot["id"] not in [s["id"] for s in other.get(f"{API}/slots/open/").json()]
    rival = other.post(
        f"{API}/loops/", {"template": world.template.slug, "coached": True}, format="json"
    ).json()["stages"][0]
    taken = other.post(
        f"{API}/bookings/", {"stage": rival["id"], "slot": slot["id"]}, format="json"
    )
    assert taken.status_code == 409 and taken.json()["code"] == "slot_taken"


def test_a_slot_that_has_started_is_not_booked(world: World, as_user, waiting):
    from interviews.models import CoachSlot

    slot = _publish(as_user(world.coach), _soon()).json()[0]
    CoachSlot.objects.filter(pk=slot["id"]).update(starts_at=timezone.now() - timedelta(minutes=1))
    past = as_user(world.owner).post(
        f"{API}/bookings/", {"stage": waiting.pk, "slot": slot["id"]}, format="json"
    )
    assert past.status_code == 400 and past.json()["code"] == "booking_in_past"


def test_refused_roles_for_booking_and_cancelling(world: World, as_user, waiting):
    slot = _publish(as_user(world.coach), _soon()).json()[0]
    body = {"stage": waiting.pk, "slot": slot["id"]}
    # Another candidate does not see the stage; a coach not assigned neither; an admin sees
    # it but only its candidate books.
    assert as_user(world.other).post(f"{API}/bookings/", body, format="json").status_code == 404
    assert as_user(world.coach).post(f"{API}/bookings/", body, format="json").status_code == 404
    assert as_user(world.admin).post(f"{API}/bookings/", body, format="json").status_code == 403
    assert as_user(None).post(f"{API}/bookings/", body, format="json").status_code in (401, 403)
    booking = as_user(world.owner).post(f"{API}/bookings/", body, format="json").json()
    for user in (world.other, world.assigned):
        client = as_user(user)
        assert client.post(f"{API}/bookings/{booking['id']}/cancel/").status_code == 404
        assert (
            client.post(
                f"{API}/bookings/{booking['id']}/reschedule/", {"slot": 1}, format="json"
            ).status_code
            == 404
        )
    assert as_user(world.admin).post(f"{API}/bookings/{booking['id']}/cancel/").status_code == 200


def test_the_lists_run_a_bounded_number_of_queries(
    world: World, as_user, waiting, django_assert_max_num_queries
):
    """Upcoming sessions, open slots and a coach's slots: the same few queries for 1 or 6."""
    from interviews.services.loops import loop_start

    coach = as_user(world.coach)
    slots = [_publish(coach, _soon(days=2 + n)).json()[0] for n in range(8)]
    owner = as_user(world.owner)
    owner.post(f"{API}/bookings/", {"stage": waiting.pk, "slot": slots[0]["id"]}, format="json")
    for n, slot in enumerate(slots[1:6]):
        loop = loop_start(candidate=world.owner, template=world.template, coached=True)
        stage = loop.stages.order_by("position")[n % 3]
        booked = owner.post(
            f"{API}/bookings/", {"stage": stage.pk, "slot": slot["id"]}, format="json"
        )
        assert booked.status_code == 201, booked.json()
    for client, path, rows in (
        (owner, "bookings/", 6),
        (coach, "bookings/", 6),
        (owner, "slots/open/", 2),
        (coach, "slots/", 8),
    ):
        with django_assert_max_num_queries(5):
            response = client.get(f"{API}/{path}")
        assert len(response.json()) == rows, path


def test_the_candidate_starting_a_booked_stage_early_is_409(world: World, as_user, waiting):
    slot = _publish(as_user(world.coach), _soon()).json()[0]
    owner = as_user(world.owner)
    owner.post(f"{API}/bookings/", {"stage": waiting.pk, "slot": slot["id"]}, format="json")
    early = owner.post(f"{API}/stages/{waiting.pk}/start/", {}, format="json")
    assert early.status_code == 409 and early.json()["code"] == "booking_not_started"
    assert early.json()["errors"]["starts_at"] == slot["starts_at"].replace("Z", "+00:00")
    solo = owner.post(f"{API}/stages/{waiting.pk}/start/", {"solo": True}, format="json")
    assert solo.status_code == 409 and solo.json()["code"] == "booking_not_started"
    # Its coach starts it whenever they like.
    started = as_user(world.coach).post(f"{API}/stages/{waiting.pk}/start/", {}, format="json")
    assert started.status_code == 200 and started.json()["status"] == "live"
