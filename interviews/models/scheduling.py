"""Scheduling: a coach's published availability (slots) and a candidate's booking of one
for a live stage. Times are stored in UTC; the zone a slot was entered in is kept so the
coach sees it back as they typed it."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q

from .practice import Stage


class CoachSlot(models.Model):
    """A time a coach is available for one session."""

    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coach_slots"
    )
    starts_at = models.DateTimeField(help_text="UTC.")
    minutes = models.PositiveIntegerField()
    time_zone = models.CharField(max_length=64, help_text="IANA zone the coach entered it in.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "id"]
        indexes = [models.Index(fields=["coach", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.coach} at {self.starts_at:%Y-%m-%d %H:%M}Z ({self.minutes} min)"

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)


class Booking(models.Model):
    """A candidate's session with a coach for one stage, in one slot. Rescheduling moves
    it to another slot (same row, same calendar UID, `sequence` + 1)."""

    class Status(models.TextChoices):
        BOOKED = "booked"
        CANCELLED = "cancelled"
        MISSED = "missed", "coach missed it"

    slot = models.ForeignKey(CoachSlot, on_delete=models.PROTECT, related_name="bookings")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="bookings")
    candidate = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bookings"
    )
    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coach_bookings"
    )
    starts_at = models.DateTimeField(help_text="UTC; the slot's, copied when (re)booked.")
    minutes = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.BOOKED)
    sequence = models.PositiveIntegerField(
        default=0, help_text="iCalendar SEQUENCE: bumped on every change that is mailed."
    )
    reminded_at = models.DateTimeField(
        null=True, blank=True, help_text="When the reminder went out; set once, so never twice."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["starts_at", "id"]
        constraints = [
            # The database, not only the service's check, makes two concurrent bookings of
            # one slot (or of one stage) unable to both win.
            models.UniqueConstraint(
                fields=["slot"], condition=Q(status="booked"), name="booking_one_per_slot"
            ),
            models.UniqueConstraint(
                fields=["stage"], condition=Q(status="booked"), name="booking_one_per_stage"
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return f"booking {self.pk}: stage {self.stage_id} at {self.starts_at:%Y-%m-%d %H:%M}Z"

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)

    @property
    def calendar_uid(self) -> str:
        """Stable across reschedules and the cancel, so calendars update one event."""
        return f"mockloop-booking-{self.pk}@mockloop"
