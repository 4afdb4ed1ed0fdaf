"""Reads for scheduling: a coach's slots, the open slots a candidate may book, upcoming
sessions, and the booking rules the stage clock asks (`booking_coach_missed`)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from interviews.models import Booking, CoachSlot, Stage
from interviews.selectors.access import is_admin
from interviews.services.errors import NotFound

if TYPE_CHECKING:
    from interviews.selectors.access import AnyUser


def _booked() -> Exists:
    return Exists(Booking.objects.filter(slot=OuterRef("pk"), status=Booking.Status.BOOKED))


def slots_of_coach(coach: AnyUser, now: datetime | None = None) -> QuerySet[CoachSlot]:
    """The coach's slots from the last day on (a session just held stays in view), each
    annotated `is_booked`."""
    now = now or timezone.now()
    return (
        CoachSlot.objects.filter(coach=coach, starts_at__gte=now - timedelta(hours=24))
        .select_related("coach")
        .annotate(is_booked=_booked())
        .order_by("starts_at", "id")
    )


def open_slots(now: datetime | None = None) -> QuerySet[CoachSlot]:
    """Slots in the future that nobody has booked, soonest first."""
    now = now or timezone.now()
    return (
        CoachSlot.objects.filter(starts_at__gt=now, coach__is_active=True)
        .annotate(is_booked=_booked())
        .filter(is_booked=False)
        .select_related("coach")
        .order_by("starts_at", "id")
    )


def slot_is_booked(slot: CoachSlot) -> bool:
    return Booking.objects.filter(slot=slot, status=Booking.Status.BOOKED).exists()


def slot_for(user: AnyUser, slot_id: int) -> CoachSlot:
    """A slot by id for a signed-in user. Slots are not secret (a coach's name and a time):
    booking a taken or past one says so (409/400) rather than 404; changing one is its
    coach's (`access_slot_edit`)."""
    slot = CoachSlot.objects.select_related("coach").filter(pk=slot_id).first()
    if slot is None or not user.is_authenticated:
        raise NotFound(_("Slot not found."))
    return slot


def bookings_visible_to(user: AnyUser) -> QuerySet[Booking]:
    """A booking is its candidate's and its coach's (and every admin's)."""
    if not user.is_authenticated:
        return Booking.objects.none()
    if is_admin(user):
        return Booking.objects.all()
    return Booking.objects.filter(Q(candidate=user) | Q(coach=user))


def booking_for(user: AnyUser, booking_id: int) -> Booking:
    booking = (
        bookings_visible_to(user)
        .select_related("stage", "stage__loop", "candidate", "coach", "slot")
        .filter(pk=booking_id)
        .first()
    )
    if booking is None:
        raise NotFound(_("Booking not found."))
    return booking


def upcoming_bookings_for(user: AnyUser, now: datetime | None = None) -> QuerySet[Booking]:
    """The user's own booked sessions (as candidate or as coach) that have not ended, with
    what the home pages show loaded; an admin's own, not everyone's."""
    now = now or timezone.now()
    if not user.is_authenticated:
        return Booking.objects.none()
    return (
        Booking.objects.filter(Q(candidate=user) | Q(coach=user), status=Booking.Status.BOOKED)
        .filter(stage__status__in=[Stage.Status.PENDING, Stage.Status.LIVE])
        .select_related("stage", "stage__loop", "candidate", "coach")
        .order_by("starts_at", "id")
        .filter(pk__in=_not_ended(now))
    )


def _not_ended(now: datetime) -> list[int]:
    # ends_at is not a column; a session lasts at most a day, so filter coarsely in SQL
    # and exactly in Python.
    rows = Booking.objects.filter(
        status=Booking.Status.BOOKED, starts_at__gte=now - timedelta(days=1)
    ).values_list("pk", "starts_at", "minutes")
    return [pk for pk, starts_at, minutes in rows if starts_at + timedelta(minutes=minutes) > now]


def stage_active_booking(stage: Stage) -> Booking | None:
    """The stage's booked session, if it has one (at most one: a unique constraint)."""
    return Booking.objects.filter(stage=stage, status=Booking.Status.BOOKED).first()


def booking_overlaps_for_candidate(
    candidate: AnyUser, starts_at: datetime, ends_at: datetime, exclude: int | None = None
) -> bool:
    """Whether the candidate already has a session booked that overlaps [starts_at, ends_at)."""
    rows = Booking.objects.filter(
        candidate=candidate,
        status=Booking.Status.BOOKED,
        starts_at__lt=ends_at,
        starts_at__gte=starts_at - timedelta(days=1),
    ).exclude(pk=exclude)
    return any(b.ends_at > starts_at for b in rows)


def slot_overlaps_for_coach(
    coach: AnyUser, starts_at: datetime, ends_at: datetime, exclude: int | None = None
) -> bool:
    """Whether one of the coach's own slots overlaps [starts_at, ends_at)."""
    rows = CoachSlot.objects.filter(
        coach=coach, starts_at__lt=ends_at, starts_at__gte=starts_at - timedelta(days=1)
    ).exclude(pk=exclude)
    return any(slot.ends_at > starts_at for slot in rows)


def booking_solo_from(booking: Booking) -> datetime:
    """The booked time + BOOKING_NO_SHOW_MINUTES: when a coach who has not come is missed."""
    return booking.starts_at + timedelta(minutes=settings.BOOKING_NO_SHOW_MINUTES)


def booking_coach_missed(booking: Booking, stage: Stage, now: datetime | None = None) -> bool:
    """The no-show rule (issue 14): the coach has not started the booked stage by the booked
    time + BOOKING_NO_SHOW_MINUTES, so its candidate may continue solo."""
    now = now or timezone.now()
    return stage.status == Stage.Status.PENDING and now >= booking_solo_from(booking)
