"""Celery tasks of the interview domain: the stage clock (run by beat every second) and the
booking reminders (every minute)."""

from celery import shared_task

from interviews.services.live import stages_tick as stages_tick_service
from interviews.services.scheduling import bookings_remind as bookings_remind_service


@shared_task(name="interviews.stages_tick", ignore_result=True)
def stages_tick() -> dict[str, int]:
    """Expire stages past their deadline (auto-submitting code) and fire due scripted
    follow-ups. Idempotent, so overlapping ticks are harmless."""
    return stages_tick_service()


@shared_task(name="interviews.bookings_remind", ignore_result=True)
def bookings_remind() -> int:
    """Mail the reminder for sessions starting soon (beat, every minute); idempotent, so
    two beats never remind twice."""
    return bookings_remind_service()
