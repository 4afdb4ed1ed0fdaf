"""The Celery app: judging jobs and stage timers run here, configured from Django settings."""

import os

from celery import Celery, signals

from mockloop.logs import quiet_idle_periodic_tasks

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mockloop.settings")

app = Celery("mockloop")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # interviews.tasks (the stage clock)
app.autodiscover_tasks(["interviews.judging"])  # interviews.judging.tasks


@signals.after_setup_logger.connect
def _quiet_idle_periodic_tasks(**kwargs) -> None:
    """The beat-scheduled tasks log only when they did something (mockloop.logs)."""
    quiet_idle_periodic_tasks({entry["task"] for entry in app.conf.beat_schedule.values()})
