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


WORKER_CONN_MAX_AGE_S = 600


@signals.worker_process_init.connect
def _keep_database_connections(**kwargs) -> None:
    """A worker process runs one task after another on one thread: keep its database
    connection between tasks instead of opening one per task (about 1 ms of CPU on SQLite,
    a new server process on PostgreSQL; bench/judge.py counts it in every judged job).
    Celery's Django fixup still closes a connection that broke or outlived this age, and
    the health check replaces one the server dropped. Web processes keep their own
    settings (ASGI threads: a pool on PostgreSQL, none on SQLite)."""
    from django.db import connections

    # (connections inherited from the parent are dropped by Celery's own fixup; every
    # wrapper shares its alias's settings dict, so later connections keep this age)
    for alias in connections:
        connections.settings[alias]["CONN_MAX_AGE"] = WORKER_CONN_MAX_AGE_S
        connections.settings[alias]["CONN_HEALTH_CHECKS"] = True
