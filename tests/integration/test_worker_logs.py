"""The worker's console stays readable: the beat-scheduled clock tick (every second) and
requeue sweep (every five) log nothing when they did nothing, and a line when they did."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from interviews.models import Stage
from tests.factories import StageFactory

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _lines(worker, since: int, task: str) -> list[str]:
    text = worker.log_path.read_text(errors="replace")[since:]
    return [line for line in text.splitlines() if task in line]


def test_idle_periodic_tasks_are_silent_and_busy_ones_are_logged(celery_worker):
    start = len(celery_worker.log_path.read_text(errors="replace"))
    time.sleep(6.5)  # six clock ticks and at least one sweep, all idle
    assert _lines(celery_worker, start, "interviews.stages_tick") == []
    assert _lines(celery_worker, start, "requeue_submissions") == []

    now = timezone.now()
    stage = StageFactory(
        status="live", started_at=now - timedelta(minutes=61), deadline=now - timedelta(seconds=1)
    )
    deadline = time.monotonic() + 20
    while Stage.objects.get(pk=stage.pk).status != Stage.Status.DONE:
        assert time.monotonic() < deadline, celery_worker.log_tail()
        time.sleep(0.2)
    time.sleep(0.5)
    busy = _lines(celery_worker, start, "interviews.stages_tick")
    assert any("succeeded" in line and "'expired': 1" in line for line in busy), busy
