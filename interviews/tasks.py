"""Celery tasks of the interview domain: the stage clock (run by beat every second)."""

from celery import shared_task

from interviews.services.live import stages_tick as stages_tick_service


@shared_task(name="interviews.stages_tick", ignore_result=True)
def stages_tick() -> dict[str, int]:
    """Expire stages past their deadline (auto-submitting code) and fire due scripted
    follow-ups. Idempotent, so overlapping ticks are harmless."""
    return stages_tick_service()
