"""Scheduling: coaches publish availability (slots), a candidate books a slot for a pending
live stage of their coached loop (which claims that coach for the stage), either side
cancels or reschedules, both get an .ics invite by mail, and a reminder before it starts.

Times come in as the coach typed them (a local date-time and an IANA zone) and are stored
in UTC. Double booking is refused by the checks here and, for two concurrent bookings of
one slot or one stage, by the database's partial unique constraints (models/scheduling.py)."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from interviews.access import (
    access_booking_change,
    access_booking_create,
    access_slot_edit,
    access_slot_publish,
)
from interviews.models import Booking, CoachSlot, Stage
from interviews.realtime.events import emit
from interviews.selectors.scheduling import (
    booking_overlaps_for_candidate,
    slot_is_booked,
    slot_overlaps_for_coach,
)

from .booking_mail import booking_mail_send
from .errors import InvalidInput, StateConflict
from .stages import stage_claim

SLOT_MINUTES_MIN = 15
SLOT_MINUTES_MAX = 240
WEEKS_MAX = 12


def local_to_utc(starts_local: datetime, time_zone: str) -> datetime:
    """A wall-clock time in an IANA zone as a UTC instant (09:00 America/New_York is 14:00Z
    in January, 13:00Z in July). A time the zone skips or repeats at a DST change takes
    zoneinfo's `fold=0` reading."""
    try:
        zone = ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError, TypeError) as error:
        raise InvalidInput(errors={"time_zone": [_("Unknown time zone.")]}) from error
    return starts_local.replace(tzinfo=None).replace(tzinfo=zone).astimezone(UTC)


def _lock_user(user: AbstractBaseUser) -> None:
    """Serialise one person's scheduling writes (their own overlap checks) on their row."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def _check_slot_times(
    coach: AbstractBaseUser, starts_at: datetime, minutes: int, now: datetime, exclude=None
) -> None:
    if not SLOT_MINUTES_MIN <= minutes <= SLOT_MINUTES_MAX:
        raise InvalidInput(
            errors={
                "minutes": [
                    _("Between %(min)s and %(max)s minutes.")
                    % {"min": SLOT_MINUTES_MIN, "max": SLOT_MINUTES_MAX}
                ]
            }
        )
    if starts_at <= now:
        raise InvalidInput(_("A slot must start in the future."), code="slot_in_past")
    if slot_overlaps_for_coach(
        coach, starts_at, starts_at + timedelta(minutes=minutes), exclude=exclude
    ):
        raise StateConflict(
            _("This overlaps one of your slots."),
            errors={"starts_at": starts_at.isoformat()},
            code="slot_overlaps",
        )


@transaction.atomic
def slots_publish(
    *,
    coach: AbstractBaseUser,
    starts_local: datetime,
    time_zone: str,
    minutes: int,
    weeks: int = 1,
    now: datetime | None = None,
) -> list[CoachSlot]:
    """Publish a slot, or the same local time on `weeks` consecutive weeks (a weekly
    pattern; each week keeps the wall-clock time across DST changes). All or nothing: one
    overlapping week refuses the lot."""
    access_slot_publish(coach)
    now = now or timezone.now()
    if not 1 <= weeks <= WEEKS_MAX:
        raise InvalidInput(errors={"weeks": [_("Between 1 and %(max)s.") % {"max": WEEKS_MAX}]})
    _lock_user(coach)
    slots = []
    for week in range(weeks):
        starts_at = local_to_utc(starts_local + timedelta(weeks=week), time_zone)
        _check_slot_times(coach, starts_at, minutes, now)
        slots.append(
            CoachSlot.objects.create(
                coach=coach, starts_at=starts_at, minutes=minutes, time_zone=time_zone
            )
        )
    return slots


@transaction.atomic
def slot_update(
    *,
    slot: CoachSlot,
    actor: AbstractBaseUser,
    starts_local: datetime,
    time_zone: str,
    minutes: int,
    now: datetime | None = None,
) -> CoachSlot:
    """Move or resize an open slot; a booked one is moved by rescheduling its booking."""
    access_slot_edit(actor, slot)
    _lock_user(slot.coach)
    slot = CoachSlot.objects.select_for_update().get(pk=slot.pk)
    if slot_is_booked(slot):
        raise StateConflict(
            _("This slot is booked: reschedule or cancel the session instead."), code="slot_booked"
        )
    starts_at = local_to_utc(starts_local, time_zone)
    _check_slot_times(slot.coach, starts_at, minutes, now or timezone.now(), exclude=slot.pk)
    slot.starts_at, slot.minutes, slot.time_zone = starts_at, minutes, time_zone
    slot.save(update_fields=["starts_at", "minutes", "time_zone"])
    return slot


@transaction.atomic
def slot_delete(*, slot: CoachSlot, actor: AbstractBaseUser) -> None:
    """Withdraw an open slot. Past bookings keep theirs (PROTECT); a booked one is refused."""
    access_slot_edit(actor, slot)
    slot = CoachSlot.objects.select_for_update().get(pk=slot.pk)
    if slot_is_booked(slot):
        raise StateConflict(_("This slot is booked: cancel the session first."), code="slot_booked")
    if slot.bookings.exists():
        raise StateConflict(_("This slot has a past session on record."), code="slot_has_history")
    slot.delete()


def _check_bookable(slot: CoachSlot, candidate, now: datetime, exclude=None) -> None:
    """The slot is in the future and free, and the candidate has nothing else then."""
    if slot.starts_at <= now:
        raise InvalidInput(_("This slot has already started."), code="booking_in_past")
    if slot_is_booked(slot):
        raise StateConflict(_("Somebody has just booked this slot."), code="slot_taken")
    if booking_overlaps_for_candidate(candidate, slot.starts_at, slot.ends_at, exclude=exclude):
        raise StateConflict(
            _("You already have a session booked at that time."), code="booking_overlaps"
        )


def _save_or_taken(booking: Booking, **kwargs) -> None:
    """Insert/update the booking; if a concurrent one won the slot or stage meanwhile, the
    partial unique constraint refuses this one and the caller gets a 409."""
    try:
        with transaction.atomic():
            booking.save(**kwargs)
    except IntegrityError as error:
        raise StateConflict(_("Somebody has just booked this slot."), code="slot_taken") from error


def _unassign(stage: Stage, coach, actor) -> None:
    """Give a pending stage that its booking had claimed back to the coach queue."""
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if stage.status == Stage.Status.PENDING and stage.coach_id == coach.pk:
        stage.coach = None
        stage.coach_requested = True
        stage.save(update_fields=["coach", "coach_requested"])
        emit(stage, "stage.released", {"coach": coach.get_username()}, actor=actor)


@transaction.atomic
def booking_create(
    *, stage: Stage, slot: CoachSlot, actor: AbstractBaseUser, now: datetime | None = None
) -> Booking:
    """The candidate books the slot for a pending live stage of their coached loop; the
    slot's coach claims the stage (`stage_claim`, so the queue's rules hold: not taken by
    another coach, not solo, not finished)."""
    access_booking_create(actor, stage)
    now = now or timezone.now()
    stage = Stage.objects.select_for_update().select_related("loop").get(pk=stage.pk)
    if not (stage.loop.coached and stage.is_live_kind):
        raise StateConflict(
            _("Only a coached loop's live rounds are booked."), code="stage_not_coached"
        )
    if stage.status != Stage.Status.PENDING:
        raise StateConflict(_("This stage has already started."), code="stage_not_pending")
    _lock_user(actor)
    slot = CoachSlot.objects.select_for_update().select_related("coach").get(pk=slot.pk)
    if Booking.objects.filter(stage=stage, status=Booking.Status.BOOKED).exists():
        raise StateConflict(
            _("This stage is booked already: reschedule that session instead."),
            code="stage_already_booked",
        )
    _check_bookable(slot, actor, now)
    stage_claim(stage=stage, coach=slot.coach)
    booking = Booking(
        slot=slot,
        stage=stage,
        candidate=actor,
        coach=slot.coach,
        starts_at=slot.starts_at,
        minutes=slot.minutes,
    )
    _save_or_taken(booking)
    transaction.on_commit(lambda: booking_mail_send(booking, "booked"))
    return booking


def _locked_booking(booking: Booking) -> Booking:
    booking = (
        Booking.objects.select_for_update()
        .select_related("stage", "candidate", "coach", "slot")
        .get(pk=booking.pk)
    )
    if booking.status != Booking.Status.BOOKED:
        raise StateConflict(_("This session is not booked any more."), code="booking_not_active")
    return booking


@transaction.atomic
def booking_cancel(*, booking: Booking, actor: AbstractBaseUser) -> Booking:
    """Either side (or an admin) cancels: the slot opens again, the stage goes back to the
    coach queue if it has not started, and both get a METHOD:CANCEL invite."""
    access_booking_change(
        actor, booking, refusal=_("Only the booking's candidate, its coach or an admin cancels it.")
    )
    booking = _locked_booking(booking)
    booking.status = Booking.Status.CANCELLED
    booking.sequence += 1
    booking.save(update_fields=["status", "sequence", "updated_at"])
    _unassign(booking.stage, booking.coach, actor)
    transaction.on_commit(lambda: booking_mail_send(booking, "cancelled"))
    return booking


@transaction.atomic
def booking_reschedule(
    *, booking: Booking, slot: CoachSlot, actor: AbstractBaseUser, now: datetime | None = None
) -> Booking:
    """Move the session to another open slot in one transaction: the old slot opens, the
    new one is taken, and the slot's coach claims the stage (a coach moves a session only
    to one of their own slots). Same calendar UID, SEQUENCE + 1."""
    access_booking_change(
        actor,
        booking,
        refusal=_("Only the booking's candidate, its coach or an admin reschedules it."),
    )
    now = now or timezone.now()
    booking = _locked_booking(booking)
    slot = CoachSlot.objects.select_for_update().select_related("coach").get(pk=slot.pk)
    if actor.pk == booking.coach_id and slot.coach_id != actor.pk:
        raise StateConflict(_("Move the session to one of your own slots."), code="slot_not_yours")
    if slot.pk == booking.slot_id:
        return booking
    stage = Stage.objects.select_for_update().get(pk=booking.stage_id)
    if stage.status != Stage.Status.PENDING:
        raise StateConflict(_("This stage has already started."), code="stage_not_pending")
    _lock_user(booking.candidate)
    _check_bookable(slot, booking.candidate, now, exclude=booking.pk)
    if slot.coach_id != booking.coach_id:
        _unassign(stage, booking.coach, actor)
        stage_claim(stage=stage, coach=slot.coach)
    booking.slot = slot
    booking.coach = slot.coach
    booking.starts_at = slot.starts_at
    booking.minutes = slot.minutes
    booking.sequence += 1
    booking.reminded_at = None
    _save_or_taken(booking)
    transaction.on_commit(lambda: booking_mail_send(booking, "rescheduled"))
    return booking


def bookings_remind(*, now: datetime | None = None) -> int:
    """Mail both sides of each session starting within BOOKING_REMINDER_MINUTES, once:
    `reminded_at` is claimed by one conditional UPDATE, so two beats (or two workers)
    never send the same reminder twice. Returns how many bookings were reminded."""
    now = now or timezone.now()
    soon = now + timedelta(minutes=settings.BOOKING_REMINDER_MINUTES)
    due = Booking.objects.filter(
        status=Booking.Status.BOOKED,
        reminded_at__isnull=True,
        starts_at__gt=now,
        starts_at__lte=soon,
    ).values_list("pk", flat=True)
    reminded = 0
    for booking_id in list(due):
        claimed = Booking.objects.filter(
            pk=booking_id, reminded_at__isnull=True, status=Booking.Status.BOOKED
        ).update(reminded_at=now)
        if not claimed:
            continue
        booking = Booking.objects.select_related("stage", "candidate", "coach").get(pk=booking_id)
        booking_mail_send(booking, "reminder")
        reminded += 1
    return reminded
