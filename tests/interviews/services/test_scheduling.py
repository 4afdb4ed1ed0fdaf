"""Scheduling (issue 14): coaches publish slots entered in their zone and stored in UTC, a
candidate books one for a pending coached round (claiming that coach), double bookings are
refused with specific codes, either side cancels or reschedules, both are mailed an .ics,
reminded once, and a coach who does not come frees the candidate to continue solo."""

import threading
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core import mail
from django.db import IntegrityError, connections, transaction
from django.utils import timezone
from icalendar import Calendar

from interviews.models import Booking, CoachSlot, Stage
from interviews.selectors.scheduling import open_slots, slot_is_booked, upcoming_bookings_for
from interviews.selectors.stages import coach_queue, scripted_interviewer_on
from interviews.services.errors import InvalidInput, NotAllowed, StateConflict
from interviews.services.loops import loop_start
from interviews.services.scheduling import (
    booking_cancel,
    booking_create,
    booking_reschedule,
    bookings_remind,
    local_to_utc,
    slot_delete,
    slot_update,
    slots_publish,
)
from interviews.services.stages import stage_finish, stage_hand_over, stage_release, stage_start

pytestmark = pytest.mark.django_db

NY = "America/New_York"


def _refused(call, error, code: str | None = None) -> None:
    with pytest.raises(error) as caught:
        call()
    if code is not None:
        assert caught.value.code == code


def _local(days: int, hour: int = 9) -> datetime:
    """A wall-clock time `days` from now at `hour`:00, naive (as the coach types it)."""
    day = (timezone.now() + timedelta(days=days)).date()
    return datetime(day.year, day.month, day.day, hour, 0)


def _slot(coach, days: int = 3, hour: int = 9, minutes: int = 60, zone: str = "UTC"):
    return slots_publish(
        coach=coach, starts_local=_local(days, hour), time_zone=zone, minutes=minutes
    )[0]


@pytest.fixture
def waiting(world):
    """The world's values stage: coached, pending, in the queue, nobody has claimed it."""
    stage_finish(stage=world.coding, actor=world.owner)
    world.values.refresh_from_db()
    return world.values


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what the block queues for after commit (the mails) as the block ends."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _invite(message) -> Calendar:
    (name, content, mimetype) = message.attachments[0]
    assert name == "invite.ics" and mimetype.startswith("text/calendar")
    return Calendar.from_ical(content)


# --- time zones and slots -------------------------------------------------------------


def test_nine_in_new_york_is_fourteen_utc_in_winter_and_thirteen_in_summer():
    assert local_to_utc(datetime(2030, 1, 15, 9, 0), NY) == datetime(2030, 1, 15, 14, tzinfo=UTC)
    assert local_to_utc(datetime(2030, 7, 15, 9, 0), NY) == datetime(2030, 7, 15, 13, tzinfo=UTC)


def test_a_slot_is_stored_in_utc_with_the_zone_it_was_entered_in(world):
    winter = slots_publish(
        coach=world.coach, starts_local=datetime(2030, 1, 15, 9), time_zone=NY, minutes=45
    )[0]
    assert winter.starts_at == datetime(2030, 1, 15, 14, tzinfo=UTC)
    assert winter.time_zone == NY and winter.minutes == 45


def test_a_weekly_pattern_keeps_the_wall_clock_time_across_the_dst_change(world):
    # America/New_York goes to summer time on 10 March 2030.
    slots = slots_publish(
        coach=world.coach,
        starts_local=datetime(2030, 3, 3, 9),
        time_zone=NY,
        minutes=60,
        weeks=2,
    )
    assert [s.starts_at.hour for s in slots] == [14, 13]


def test_overlapping_own_slots_are_refused_and_adjacent_ones_are_not(world):
    _slot(world.coach, hour=9, minutes=60)
    _refused(lambda: _slot(world.coach, hour=9, minutes=30), StateConflict, "slot_overlaps")
    _slot(world.coach, hour=10, minutes=60)  # starts as the first ends
    _slot(world.assigned, hour=9, minutes=60)  # another coach's time is theirs
    assert CoachSlot.objects.count() == 3
    # A weekly pattern with one clashing week publishes nothing.
    _slot(world.coach, days=10, hour=12)
    _refused(
        lambda: slots_publish(
            coach=world.coach, starts_local=_local(3, 12), time_zone="UTC", minutes=60, weeks=2
        ),
        StateConflict,
        "slot_overlaps",
    )
    assert CoachSlot.objects.count() == 4


def test_bad_slots_are_refused(world):
    _refused(lambda: _slot(world.coach, days=-1), InvalidInput, "slot_in_past")
    _refused(lambda: _slot(world.coach, zone="Mars/Olympus"), InvalidInput, "invalid")
    _refused(lambda: _slot(world.coach, minutes=5), InvalidInput, "invalid")


def test_only_coaches_publish_and_only_the_slots_coach_edits(world):
    for user in (world.owner, world.admin):
        _refused(lambda user=user: _slot(user), NotAllowed)
    slot = _slot(world.coach)
    _refused(lambda: slot_delete(slot=slot, actor=world.assigned), NotAllowed)
    moved = slot_update(
        slot=slot, actor=world.coach, starts_local=_local(4, 11), time_zone="UTC", minutes=30
    )
    assert moved.starts_at.hour == 11 and moved.minutes == 30
    slot_delete(slot=slot, actor=world.coach)
    assert not CoachSlot.objects.exists()


# --- booking --------------------------------------------------------------------------


def test_booking_claims_the_slots_coach_and_mails_both_an_invite(world, waiting, committed):
    slot = _slot(world.coach, zone=NY)
    with committed():
        booking = booking_create(stage=waiting, slot=slot, actor=world.owner)
    assert len(mail.outbox) == 2
    waiting.refresh_from_db()
    assert waiting.coach == world.coach and waiting not in coach_queue()
    assert slot not in open_slots()
    assert list(upcoming_bookings_for(world.owner)) == [booking]
    assert list(upcoming_bookings_for(world.coach)) == [booking]

    assert sorted(m.to[0] for m in mail.outbox) == ["coach-free@example.com", "owner@example.com"]
    calendar = _invite(mail.outbox[0])
    assert calendar["METHOD"] == "REQUEST"
    event = calendar.walk("VEVENT")[0]
    assert event["UID"] == booking.calendar_uid
    assert event.decoded("DTSTART") == slot.starts_at
    assert event.decoded("DTSTART").utcoffset() == timedelta(0)
    assert event["DTSTART"].to_ical().endswith(b"Z")
    assert int(event["SEQUENCE"]) == 0
    assert f"/stages/{waiting.pk}" in str(event["URL"])
    assert "http://" in mail.outbox[0].body


def test_double_bookings_are_refused_with_specific_codes(world, waiting):
    slot = _slot(world.coach, hour=9)
    booking_create(stage=waiting, slot=slot, actor=world.owner)
    # The stage already has a session.
    _refused(
        lambda: booking_create(stage=waiting, slot=_slot(world.coach, hour=12), actor=world.owner),
        StateConflict,
        "stage_already_booked",
    )
    # The candidate already has a session at that time (review is claimed by `assigned`).
    clash = _slot(world.assigned, hour=9, minutes=30)
    _refused(
        lambda: booking_create(stage=world.review, slot=clash, actor=world.owner),
        StateConflict,
        "booking_overlaps",
    )
    # The slot is taken: another candidate's coached round.
    rival = loop_start(candidate=world.other, template=world.template, coached=True)
    rival_stage = rival.stages.order_by("position").first()
    _refused(
        lambda: booking_create(stage=rival_stage, slot=slot, actor=world.other),
        StateConflict,
        "slot_taken",
    )


def test_a_booking_in_the_past_is_refused(world, waiting):
    slot = _slot(world.coach, days=1)
    later = slot.starts_at + timedelta(minutes=1)
    _refused(
        lambda: booking_create(stage=waiting, slot=slot, actor=world.owner, now=later),
        InvalidInput,
        "booking_in_past",
    )


def test_two_concurrent_bookings_of_one_slot_cannot_both_win(world, waiting):
    """The loser of a race passed the "is it free?" check before the winner committed; the
    partial unique constraint still refuses it (409), and nothing of it is kept."""
    slot = _slot(world.coach)
    booking_create(stage=waiting, slot=slot, actor=world.owner)
    rival = loop_start(candidate=world.other, template=world.template, coached=True)
    rival_stage = rival.stages.order_by("position").first()
    with mock.patch("interviews.services.scheduling.slot_is_booked", return_value=False):
        _refused(
            lambda: booking_create(stage=rival_stage, slot=slot, actor=world.other),
            StateConflict,
            "slot_taken",
        )
    rival_stage.refresh_from_db()
    assert rival_stage.coach_id is None  # the claim rolled back with the booking
    assert Booking.objects.filter(slot=slot).count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        Booking.objects.create(
            slot=slot,
            stage=rival_stage,
            candidate=world.other,
            coach=world.coach,
            starts_at=slot.starts_at,
            minutes=slot.minutes,
        )


def test_only_the_loops_candidate_books(world, waiting):
    slot = _slot(world.coach)
    for user in (world.other, world.coach, world.assigned, world.admin):
        _refused(lambda user=user: booking_create(stage=waiting, slot=slot, actor=user), NotAllowed)
    assert not Booking.objects.exists()


def test_a_stage_another_coach_has_claimed_is_not_booked_with_this_one(world):
    slot = _slot(world.coach)  # review is claimed by `assigned`
    _refused(
        lambda: booking_create(stage=world.review, slot=slot, actor=world.owner),
        StateConflict,
        "stage_taken",
    )


# --- cancel and reschedule ------------------------------------------------------------


def test_cancel_by_either_side_opens_the_slot_and_requeues_the_stage(world, waiting, committed):
    for hour, canceller in ((9, world.owner), (12, world.coach), (15, world.admin)):
        slot = _slot(world.coach, hour=hour)
        booking = booking_create(stage=waiting, slot=slot, actor=world.owner)
        mail.outbox.clear()
        with committed():
            booking_cancel(booking=booking, actor=canceller)
        booking.refresh_from_db()
        waiting.refresh_from_db()
        assert booking.status == "cancelled" and booking.sequence == 1
        assert waiting.coach_id is None and waiting in coach_queue()
        assert slot in open_slots()
        calendar = _invite(mail.outbox[0])
        assert calendar["METHOD"] == "CANCEL"
        assert calendar.walk("VEVENT")[0]["UID"] == booking.calendar_uid
        assert int(calendar.walk("VEVENT")[0]["SEQUENCE"]) == 1
        _refused(
            lambda b=booking: booking_cancel(booking=b, actor=world.owner),
            StateConflict,
            "booking_not_active",
        )


def test_other_candidates_and_coaches_may_not_cancel_or_reschedule(world, waiting):
    booking = booking_create(stage=waiting, slot=_slot(world.coach), actor=world.owner)
    elsewhere = _slot(world.assigned, hour=15)
    for user in (world.other, world.assigned):
        _refused(lambda user=user: booking_cancel(booking=booking, actor=user), NotAllowed)
        _refused(
            lambda user=user: booking_reschedule(booking=booking, slot=elsewhere, actor=user),
            NotAllowed,
        )


def test_reschedule_moves_to_another_slot_with_the_same_uid(world, waiting, committed):
    first = _slot(world.coach, hour=9)
    booking = booking_create(stage=waiting, slot=first, actor=world.owner)
    second = _slot(world.assigned, hour=15)
    mail.outbox.clear()
    with committed():
        moved = booking_reschedule(booking=booking, slot=second, actor=world.owner)
    waiting.refresh_from_db()
    assert moved.pk == booking.pk and moved.starts_at == second.starts_at
    assert moved.coach == world.assigned and waiting.coach == world.assigned
    assert first in open_slots() and second not in open_slots()
    event = _invite(mail.outbox[0]).walk("VEVENT")[0]
    assert event["UID"] == booking.calendar_uid and int(event["SEQUENCE"]) == 1
    assert event.decoded("DTSTART") == second.starts_at
    # A coach moves a session only to their own slots; a taken slot is refused.
    _refused(
        lambda: booking_reschedule(booking=moved, slot=first, actor=world.assigned),
        StateConflict,
        "slot_not_yours",
    )
    other_loop = loop_start(candidate=world.other, template=world.template, coached=True)
    taken = _slot(world.coach, hour=18)
    booking_create(stage=other_loop.stages.first(), slot=taken, actor=world.other)
    _refused(
        lambda: booking_reschedule(booking=moved, slot=taken, actor=world.owner),
        StateConflict,
        "slot_taken",
    )


def test_a_booked_slot_is_neither_moved_nor_deleted(world, waiting):
    slot = _slot(world.coach)
    booking_create(stage=waiting, slot=slot, actor=world.owner)
    _refused(lambda: slot_delete(slot=slot, actor=world.coach), StateConflict, "slot_booked")
    _refused(
        lambda: slot_update(
            slot=slot, actor=world.coach, starts_local=_local(5), time_zone="UTC", minutes=60
        ),
        StateConflict,
        "slot_booked",
    )


# --- reminders ------------------------------------------------------------------------


def test_the_reminder_goes_out_once_before_the_session(world, waiting, settings):
    settings.BOOKING_REMINDER_MINUTES = 30
    slot = _slot(world.coach, days=2)
    booking_create(stage=waiting, slot=slot, actor=world.owner)
    mail.outbox.clear()
    assert bookings_remind(now=slot.starts_at - timedelta(minutes=45)) == 0
    assert bookings_remind(now=slot.starts_at - timedelta(minutes=20)) == 1
    assert bookings_remind(now=slot.starts_at - timedelta(minutes=19)) == 0
    assert len(mail.outbox) == 2 and all("Starting soon" in m.subject for m in mail.outbox)
    assert _invite(mail.outbox[0])["METHOD"] == "REQUEST"


# --- the no-show rule -----------------------------------------------------------------


def test_the_candidate_does_not_start_a_booked_stage_before_its_time(world, waiting):
    slot = _slot(world.coach, days=1)
    booking_create(stage=waiting, slot=slot, actor=world.owner)
    early = slot.starts_at - timedelta(minutes=5)
    for solo in (False, True):
        _refused(
            lambda solo=solo: stage_start(stage=waiting, actor=world.owner, solo=solo, now=early),
            StateConflict,
            "booking_not_started",
        )
    # Its coach may start it early.
    started = stage_start(stage=waiting, actor=world.coach, now=early)
    assert started.status == Stage.Status.LIVE


def test_a_coach_who_does_not_come_frees_the_candidate_to_go_solo(world, waiting, settings):
    settings.BOOKING_NO_SHOW_MINUTES = 10
    slot = _slot(world.coach, days=1)
    booking = booking_create(stage=waiting, slot=slot, actor=world.owner)
    soon = slot.starts_at + timedelta(minutes=9)
    _refused(
        lambda: stage_start(stage=waiting, actor=world.owner, solo=True, now=soon),
        StateConflict,
        "coach_claimed",
    )
    late = slot.starts_at + timedelta(minutes=10)
    started = stage_start(stage=waiting, actor=world.owner, solo=True, now=late)
    booking.refresh_from_db()
    assert started.status == Stage.Status.LIVE and started.started_at == late
    assert started.coach_id is None and not started.coach_requested
    assert booking.status == Booking.Status.MISSED
    assert started not in coach_queue() and scripted_interviewer_on(started)


def test_with_a_booking_the_candidate_starts_with_the_coach_at_the_booked_time(world, waiting):
    slot = _slot(world.coach, days=1)
    booking_create(stage=waiting, slot=slot, actor=world.owner)
    started = stage_start(stage=waiting, actor=world.owner, now=slot.starts_at)
    assert started.status == Stage.Status.LIVE and started.coach == world.coach


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("check", ["service check", "constraint alone"])
def test_two_threads_booking_one_slot_at_once_one_wins(world, waiting, check):
    """Two candidates press "Book" on the same slot at the same moment, each in its own
    connection: exactly one booking is made, the other gets 409 `slot_taken` — also with
    the service's "is it free?" check out of the way (the database's constraint holds)."""
    slot = _slot(world.coach)
    rival = loop_start(candidate=world.other, template=world.template, coached=True)
    rival_stage = rival.stages.order_by("position").first()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def book(stage, candidate) -> None:
        try:
            barrier.wait()
            booking_create(stage=stage, slot=slot, actor=candidate)
            outcomes.append("booked")
        except StateConflict as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=book, args=(waiting, world.owner)),
        threading.Thread(target=book, args=(rival_stage, world.other)),
    ]
    bypass = mock.patch(
        "interviews.services.scheduling.slot_is_booked",
        side_effect=lambda slot: False if check == "constraint alone" else slot_is_booked(slot),
    )
    with bypass:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert sorted(outcomes) == ["booked", "slot_taken"]
    assert Booking.objects.filter(slot=slot, status="booked").count() == 1


def test_beat_runs_the_reminders_every_minute(world, waiting, settings):
    from django.conf import settings as django_settings

    from interviews.tasks import bookings_remind as task

    entry = next(
        e
        for e in django_settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "interviews.bookings_remind"
    )
    assert entry["schedule"] == 60.0
    settings.BOOKING_REMINDER_MINUTES = 24 * 60 * 7
    booking_create(stage=waiting, slot=_slot(world.coach), actor=world.owner)
    assert task.apply().get() == 1
    assert task.apply().get() == 0


def test_a_mail_server_that_is_down_does_not_undo_the_booking(world, waiting, committed, caplog):
    with (
        mock.patch("django.core.mail.EmailMessage.send", side_effect=OSError("refused")),
        committed(),
    ):
        booking = booking_create(stage=waiting, slot=_slot(world.coach), actor=world.owner)
    assert Booking.objects.get(pk=booking.pk).status == "booked"
    assert "the booked mail failed" in caplog.text


def test_a_released_stage_cancels_its_booking_and_mails_both(world, waiting, committed):
    booking = booking_create(stage=waiting, slot=_slot(world.coach), actor=world.owner)
    mail.outbox.clear()
    with committed():
        stage_release(stage=waiting, actor=world.coach)
    booking.refresh_from_db()
    assert (booking.status, booking.sequence) == ("cancelled", 1)
    assert booking not in upcoming_bookings_for(world.owner)
    assert booking not in upcoming_bookings_for(world.coach)
    assert {m.to[0] for m in mail.outbox} == {world.owner.email, world.coach.email}
    assert all(_invite(m)["METHOD"] == "CANCEL" for m in mail.outbox)


def test_a_handed_over_stage_takes_its_booking_to_the_new_coach(world, waiting, committed):
    booking = booking_create(stage=waiting, slot=_slot(world.coach), actor=world.owner)
    mail.outbox.clear()
    with committed():
        stage_hand_over(stage=waiting, actor=world.coach, to=world.assigned)
    booking.refresh_from_db()
    assert (booking.status, booking.coach_id, booking.sequence) == ("booked", world.assigned.pk, 1)
    assert {m.to[0] for m in mail.outbox} == {world.owner.email, world.assigned.email}
    event = _invite(mail.outbox[0]).walk("VEVENT")[0]
    assert event["UID"] == booking.calendar_uid and int(event["SEQUENCE"]) == 1
