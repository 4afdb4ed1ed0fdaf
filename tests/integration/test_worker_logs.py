"""The worker's console stays readable: the beat-scheduled clock tick (every second) and
requeue sweep (every five) log nothing when they did nothing (the real worker with its
embedded beat), and a line when they did (the real task through Celery's tracer)."""

import logging
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from interviews.tasks import stages_tick
from mockloop.logs import quiet_idle_periodic_tasks
from tests.factories import StageFactory


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_the_worker_logs_nothing_for_idle_periodic_tasks(celery_worker):
    start = len(celery_worker.log_path.read_text(errors="replace"))
    time.sleep(6.5)  # six clock ticks and at least one sweep
    text = celery_worker.log_path.read_text(errors="replace")[start:]
    noisy = [
        line
        for line in text.splitlines()
        if ("interviews.stages_tick" in line or "requeue_submissions" in line)
        and "'expired': 1" not in line  # another test's stage expiring is not idle
    ]
    assert noisy == []


@pytest.mark.django_db
def test_a_tick_that_did_something_is_logged_and_an_idle_one_is_not(caplog):
    quiet_idle_periodic_tasks({"interviews.stages_tick"})
    caplog.set_level(logging.INFO, logger="celery.app.trace")

    def succeeded() -> list[str]:
        return [r.getMessage() for r in caplog.records if "succeeded" in r.getMessage()]

    stages_tick.apply()
    assert succeeded() == []
    now = timezone.now()
    StageFactory(
        status="live", started_at=now - timedelta(minutes=61), deadline=now - timedelta(seconds=1)
    )
    stages_tick.apply()
    assert len(succeeded()) == 1 and "'expired': 1" in succeeded()[0]
